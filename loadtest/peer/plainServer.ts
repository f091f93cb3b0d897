import { defineRoom, defineServer, matchMaker } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { MAP_NAME, MapCatalog } from "../../server/rooms/mapCatalog.js";
import { processFigures, processHeapAfterGc, processLoopLag } from "../../server/ops/serverFigures.js";
import { DEFAULT_NPCS, PlainRoom, plainRoomWith } from "./plainRoom.js";

/**
 * The load test's plain peer server (`--server plain`): the {@link PlainRoom} under the names `plain` and
 * `stealth` (the name the bots join, so they drive it unchanged), the public maps the bots fetch, and a
 * `GET /stats` the load test reads like ours: this process's CPU, memory and loop lag from our own
 * `processFigures`, and each room's counters. A room's vision, culling and awareness figures are absent,
 * not zero: the load test prints them as n/a rather than as a clean audit.
 *
 * Environment: `HOST` (default 127.0.0.1) and `PORT` (default 2567; 0 picks a free port, printed in the
 * listening line `LocalServer` reads); `MAX_GUARDS` raises the NPC cap above 64. The stealth server's
 * other settings (`CULLING`, `CULLING_AUDIT`, `MAX_ROOMS`, ...) mean nothing here and are ignored.
 */
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 2567);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer in 0..65535 (got ${JSON.stringify(process.env.PORT)})`);
  process.exit(2);
}
const rawGuards = process.env.MAX_GUARDS;
const maxGuards = rawGuards === undefined || rawGuards.trim() === "" ? 0 : Number(rawGuards);
if (!(Number.isInteger(maxGuards) && maxGuards >= 0 && maxGuards <= 1024)) {
  console.error(`MAX_GUARDS must be an integer in 0..1024 (got ${JSON.stringify(rawGuards)})`);
  process.exit(2);
}

const roomClass = plainRoomWith({ maxNpcs: Math.max(DEFAULT_NPCS, maxGuards) });
const catalog = MapCatalog.bundled();
// From the start, as ours does: lag before the first /stats request counts too.
processLoopLag();
processHeapAfterGc();

const server = defineServer({
  transport: new WebSocketTransport({ maxPayload: 4096 }),
  greet: false,
  rooms: { plain: defineRoom(roomClass), stealth: defineRoom(roomClass) },
  express: (app) => {
    app.get("/maps/:file", (req, res) => {
      const name = req.params.file.replace(/\.tmj$/, "");
      if (!req.params.file.endsWith(".tmj") || !MAP_NAME.test(name) || catalog.get(name) === undefined) {
        res.status(404).json({ error: `no such map; available: ${catalog.names.map((n) => `${n}.tmj`).join(", ")}` });
        return;
      }
      // The same public file the stealth server serves: the catalog's parse hid its guards and cameras.
      res.type("application/json").send(JSON.stringify(catalog.get(name)!.publicSource));
    });
    app.get("/stats", async (_req, res) => {
      res.json({ ...processFigures(), server: "plain", rooms: await plainRoomFigures() });
    });
  },
});

/** Each plain room of this process, in the shape of the stealth server's room figures, less what vision and hearing make. */
async function plainRoomFigures(): Promise<Record<string, unknown>[]> {
  const figures: Record<string, unknown>[] = [];
  for (const listing of await matchMaker.query({})) {
    const room = matchMaker.getLocalRoomById(listing.roomId);
    if (!(room instanceof PlainRoom) || room.npcs === undefined) continue;
    const { rays: _rays, stalenessMax: _staleness, detectionEvents: _events, culling: _culling, tileVision: _tiles, captures: _captures, noises: _noises, ...rest } = room.stats.snapshot();
    figures.push({ roomId: room.roomId, map: room.map.name, clients: room.clients.length, guards: room.npcs.list.length, cullingEnabled: false, ...rest });
  }
  return figures;
}

const http = (server.transport as unknown as { server?: import("node:http").Server }).server;
http?.once("error", (err: NodeJS.ErrnoException) => {
  console.error(`cannot listen on ${host}:${port}: ${err.code === "EADDRINUSE" ? "the port is in use (set PORT)" : err.message}`);
  process.exit(1);
});
await server.listen(port, host);
const address = http?.address();
const actualPort = typeof address === "object" && address !== null && "port" in address ? (address as { port: number }).port : port;
console.log(`plain peer server listening on http://${host}:${actualPort} (node ${process.version})`);
console.log(`  rooms "plain" and "stealth": plain Colyseus, every client receives everything, no vision or culling`);
console.log(`  maps: ${catalog.names.join(", ") || "none"}   stats: http://${host}:${actualPort}/stats`);
server.onShutdown(() => console.log("plain peer server stopped"));
