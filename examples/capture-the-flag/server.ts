// Serves the capture-the-flag example on ws://127.0.0.1:2567 (PORT to change it):
// `npx tsx examples/capture-the-flag/server.ts`. Join "ctf" with { team: "red" | "blue" }, { spectate: playerId },
// or, when the room was created with a casterToken, { caster: token }.
import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { CtfRoom } from "./ctfRoom.js";

const server = defineServer({ transport: new WebSocketTransport(), rooms: { ctf: defineRoom(CtfRoom) }, greet: false });
const port = Number(process.env.PORT ?? 2567);
await server.listen(port, "127.0.0.1");
console.log(`capture the flag: ws://127.0.0.1:${port} (room "ctf", join option team: "red" | "blue", or spectate: <player id>)`);
