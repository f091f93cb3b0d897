// Serves the culling example on ws://127.0.0.1:2567 (PORT to change it): `npx tsx examples/culling-room/server.ts`.
import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { ArenaRoom } from "./arenaRoom.js";

const server = defineServer({ transport: new WebSocketTransport(), rooms: { arena: defineRoom(ArenaRoom) }, greet: false });
const port = Number(process.env.PORT ?? 2567);
await server.listen(port, "127.0.0.1");
console.log(`arena: ws://127.0.0.1:${port} (room "arena", join option team: "red" | "blue")`);
