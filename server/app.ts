import { basicAuth, defineRoom, defineServer } from "@colyseus/core";
import { monitor } from "@colyseus/monitor";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { FrontDoorServer, outsideRequest, requestAddress } from "./frontDoor.js";
import { MAP_NAME, MapCatalog } from "./rooms/mapCatalog.js";
import { CreateLimits } from "./rooms/createLimits.js";
import { StealthRoom, stealthRoomWith, type StealthRoomSettings } from "./rooms/StealthRoom.js";
import { PrometheusMetrics } from "./ops/prometheusMetrics.js";
import { processFigures, processHeapAfterGc, processLoopLag, roomFigures } from "./ops/serverFigures.js";
import { hostedRooms } from "./rooms/hostedRooms.js";
import { processDrain } from "./ops/drain.js";
import { mountViewer } from "./viewer/viewerRoutes.js";
import type { ScaleOut } from "./scaleOut/scaleOut.js";

export interface StealthServerOptions {
  /** `user:password` for HTTP basic auth on `/monitor`; the monitor is off when unset. */
  monitorAuth?: string | undefined;
  /** Room settings (see `StealthRoomSettings`). */
  room?: Partial<StealthRoomSettings>;
  /** Largest WebSocket frame a client may send, bytes; bigger ones close the socket with 1009. Default 4096. */
  maxPayload?: number;
  /** Rooms this process holds at most; a create beyond it gets 503 (see `CreateLimits`). Default 64. */
  maxRooms?: number;
  /** Room creates per client address per minute; beyond it a create gets 429 (see `CreateLimits`). Default 10. */
  createsPerAddressPerMinute?: number;
  /** Reverse proxies in front whose `X-Forwarded-For` entry names the client (see `FrontDoorServer`). Default 0. */
  trustProxyHops?: number;
  /** Largest HTTP request body (matchmaking options), bytes; larger gets 413 (see `FrontDoorServer`). Default 4096. */
  maxBodyBytes?: number;
  /**
   * Share matchmaking with other processes through Redis (see `scaleOut`); one process with in-memory
   * presence when unset.
   */
  scaleOut?: ScaleOut;
  /**
   * Whether Colyseus handles SIGINT and SIGTERM itself (a shutdown that ends every game at once). `npm
   * start` turns it off and drains on a signal instead (`server/index.ts`).
   * @default true
   */
  colyseusSignals?: boolean;
}

/** What a matchmaking request is told while this process cannot reach Redis. */
const REDIS_AWAY = "matchmaking is unavailable for a moment: this server cannot reach Redis; retry in a few seconds";

/**
 * The stealth game server: the `stealth` room plus a few HTTP routes.
 * - `GET /maps/<name>.tmj`: a map's Tiled JSON without its guards, cameras and patrol routes (geometry is
 *   public; where the guards are is what culling withholds).
 * - `GET /stats`: JSON figures of this process (CPU, memory, event-loop lag) and of every `stealth` room in
 *   it (see `serverFigures.ts` and `RoomStats`).
 * - `GET /metrics`: the same figures in the Prometheus text format (see `PrometheusMetrics`).
 * - `GET /health`: 200 while this process takes new rooms, 503 while it drains (for a load balancer's or
 *   an orchestrator's readiness check), with the drain's figures.
 * - `/monitor`: @colyseus/monitor behind basic auth, only when `monitorAuth` is given.
 * - `GET /`: the live viewer page (`server/viewer/`), its script bundled by esbuild when the server starts.
 * Room creation is capped per process and per client address (`CreateLimits`), and request bodies are
 * capped before Colyseus reads them (`FrontDoorServer`).
 */
export function createStealthServer(options: StealthServerOptions = {}) {
  const scaled = options.scaleOut;
  const limits = new CreateLimits({
    maxRooms: options.maxRooms,
    createsPerAddressPerMinute: options.createsPerAddressPerMinute,
    closed: () => (processDrain.draining ? "this server is draining for a restart and takes no new room; retry, and the room is made on another" : undefined),
  });
  const http = new FrontDoorServer({
    trustProxyHops: options.trustProxyHops,
    maxBodyBytes: options.maxBodyBytes,
    matchmakingClosed: () => (scaled !== undefined && !scaled.redisReady() ? { message: REDIS_AWAY, retryAfterSeconds: 2 } : undefined),
  });
  const roomClass = limitedRooms(options.room === undefined ? StealthRoom : stealthRoomWith(options.room), limits);
  const monitorUsers = parseBasicAuth(options.monitorAuth);
  const metrics = new PrometheusMetrics();
  processLoopLag(); // from the start, not from the first request: lag before it counts too
  processHeapAfterGc();
  const server = defineServer({
    ...(scaled !== undefined
      ? {
          presence: scaled.presence,
          driver: scaled.driver,
          publicAddress: scaled.publicAddress,
          selectProcessIdToCreateRoom: scaled.selectProcessIdToCreateRoom,
        }
      : {}),
    transport: new WebSocketTransport({ server: http, maxPayload: options.maxPayload ?? 4096 }),
    greet: false,
    gracefullyShutdown: options.colyseusSignals !== false,
    rooms: { stealth: defineRoom(roomClass) },
    express: (app) => {
      mountViewer(app);
      app.get("/maps/:file", (req, res) => {
        const name = req.params.file.replace(/\.tmj$/, "");
        const catalog = options.room?.catalog ?? MapCatalog.bundled();
        // The catalog's own map, whichever folder or test built it: never a bundled file of the same name.
        const map = req.params.file.endsWith(".tmj") && MAP_NAME.test(name) ? catalog.get(name) : undefined;
        if (map === undefined) {
          res.status(404).json({ error: `no such map; available: ${catalog.names.map((n) => `${n}.tmj`).join(", ")}` });
          return;
        }
        res.type("application/json").send(JSON.stringify(map.publicSource));
      });
      app.get("/stats", (_req, res) => {
        const rooms = hostedRooms.list().map(roomFigures);
        const redis = scaled === undefined ? {} : { scaleOut: { redisReady: scaled.redisReady(), recoveries: scaled.recovery.recoveries, lastRecoveryAt: scaled.recovery.lastAt } };
        res.json({ ...processFigures(), creates: limits.figures(), drain: processDrain.figures(), ...redis, rooms });
      });
      app.get("/health", (_req, res) => {
        const drain = processDrain.figures();
        res.status(drain.draining ? 503 : 200).json({ status: drain.draining ? "draining" : "ready", ...drain });
      });
      app.get("/metrics", async (_req, res) => {
        res.type(metrics.contentType).send(await metrics.render());
      });
      if (monitorUsers !== undefined) app.use("/monitor", monitor({ use: [basicAuth({ users: monitorUsers, realm: "stealth monitor" })] }));
    },
  });
  scaled?.attach(server);
  return server;
}

/**
 * `base` with room creation going through `limits`: admitted (or refused with a `CreateRefusal`, which the
 * client receives as the HTTP status and message of its create) before the room builds anything, and
 * released when it is disposed, including after a failed `onCreate`.
 */
function limitedRooms(base: typeof StealthRoom, limits: CreateLimits): typeof StealthRoom {
  return class LimitedStealthRoom extends base {
    override onCreate(options?: Parameters<StealthRoom["onCreate"]>[0]): void {
      hostedRooms.build(this, options, () => {
        limits.admit(this, requestAddress());
        try {
          outsideRequest(() => super.onCreate(options));
        } catch (err) {
          limits.release(this);
          throw err;
        }
      });
    }

    override onDispose(): void {
      hostedRooms.delete(this);
      limits.release(this);
      super.onDispose();
    }
  };
}

/** `user:password` into basic-auth users; throws on a malformed value so a typo never leaves the monitor open. */
function parseBasicAuth(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined || value === "") return undefined;
  const colon = value.indexOf(":");
  if (colon <= 0 || colon === value.length - 1) throw new Error("MONITOR_AUTH must be user:password (both non-empty)");
  return { [value.slice(0, colon)]: value.slice(colon + 1) };
}
