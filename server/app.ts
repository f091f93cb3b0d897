import { basicAuth, defineRoom, defineServer, matchMaker } from "@colyseus/core";
import { monitor } from "@colyseus/monitor";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { publicMapJson } from "./sim/publicMap.js";
import { MAP_NAME, MAPS_DIR, MapCatalog } from "./rooms/mapCatalog.js";
import { StealthRoom, stealthRoomWith, type StealthRoomSettings } from "./rooms/StealthRoom.js";

export interface StealthServerOptions {
  /** `user:password` for HTTP basic auth on `/monitor`; the monitor is off when unset. */
  monitorAuth?: string | undefined;
  /** Room settings (see `StealthRoomSettings`). */
  room?: Partial<StealthRoomSettings>;
  /** Largest WebSocket frame a client may send, bytes; bigger ones close the socket with 1009. Default 4096. */
  maxPayload?: number;
}

/**
 * The stealth game server: the `stealth` room plus a few HTTP routes.
 * - `GET /maps/<name>.tmj`: a map's Tiled JSON without its guards, cameras and patrol routes (geometry is
 *   public; where the guards are is what culling withholds).
 * - `GET /stats`: JSON figures of every `stealth` room in this process (see `RoomStats`).
 * - `/monitor`: @colyseus/monitor behind basic auth, only when `monitorAuth` is given.
 */
export function createStealthServer(options: StealthServerOptions = {}) {
  const roomClass = options.room === undefined ? StealthRoom : stealthRoomWith(options.room);
  const monitorUsers = parseBasicAuth(options.monitorAuth);
  return defineServer({
    transport: new WebSocketTransport({ maxPayload: options.maxPayload ?? 4096 }),
    greet: false,
    rooms: { stealth: defineRoom(roomClass) },
    express: (app) => {
      app.get("/maps/:file", (req, res) => {
        const name = req.params.file.replace(/\.tmj$/, "");
        const catalog = options.room?.catalog ?? MapCatalog.bundled();
        if (!req.params.file.endsWith(".tmj") || !MAP_NAME.test(name) || catalog.get(name) === undefined) {
          res.status(404).json({ error: `no such map; available: ${catalog.names.map((n) => `${n}.tmj`).join(", ")}` });
          return;
        }
        readFile(join(MAPS_DIR, `${name}.tmj`), "utf8")
          .then((text) => res.type("application/json").send(JSON.stringify(publicMapJson(JSON.parse(text)))))
          .catch(() => { if (!res.headersSent) res.status(404).json({ error: "map file not readable" }); });
      });
      app.get("/stats", async (_req, res) => {
        const listings = await matchMaker.query({ name: "stealth" });
        const rooms = listings.flatMap((listing) => {
          const room = matchMaker.getLocalRoomById(listing.roomId) as StealthRoom | undefined;
          if (room === undefined || room.stats === undefined) return [];
          return [{ roomId: listing.roomId, map: room.state.map, clients: room.clients.length, ...room.stats.snapshot() }];
        });
        res.json({ processId: matchMaker.processId, uptimeSeconds: Math.round(process.uptime()), memory: process.memoryUsage(), rooms });
      });
      if (monitorUsers !== undefined) app.use("/monitor", monitor({ use: [basicAuth({ users: monitorUsers, realm: "stealth monitor" })] }));
    },
  });
}

/** `user:password` into basic-auth users; throws on a malformed value so a typo never leaves the monitor open. */
export function parseBasicAuth(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined || value === "") return undefined;
  const colon = value.indexOf(":");
  if (colon <= 0 || colon === value.length - 1) throw new Error("MONITOR_AUTH must be user:password (both non-empty)");
  return { [value.slice(0, colon)]: value.slice(colon + 1) };
}
