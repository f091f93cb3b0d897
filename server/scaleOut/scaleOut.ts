import { matchMaker, type MatchMakerDriver, type Presence, type Server } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";
import { Redis, type RedisOptions } from "ioredis";
import { hostname } from "node:os";
import { processDrain } from "../ops/drain.js";
import { PeerWatch } from "./peerWatch.js";
import { loadAwarePlacement, roomCountPlacement } from "./placement.js";
import { ProcessLoadBoard } from "./processLoad.js";
import { RedisRecovery, type RecoveryCounts } from "./redisRecovery.js";
import { fail, oneOf } from "../../shared/validation/rangeChecks.js";

/** The ways new rooms are placed (see {@link ScaleOutOptions.placement}). */
const PLACEMENTS = ["load", "rooms"] as const;

/** How this process joins others through Redis. */
export interface ScaleOutOptions {
  /** `redis://host:port[/db]` of the Redis every process shares. */
  redisUrl: string;
  /**
   * `host:port` (or `host/path` behind a proxy) clients reach this process at. A client matchmade through
   * another process into a room here connects to it; without it the seat reservation expires.
   */
  publicAddress: string;
  /**
   * Where new rooms go: `load` (the process with the most headroom, see `loadAwarePlacement`) or `rooms`
   * (Colyseus's default: the process with the fewest rooms).
   * @default "load"
   */
  placement?: (typeof PLACEMENTS)[number];
  /**
   * How often each process publishes its load, ms.
   * @default 1000
   */
  publishIntervalMs?: number;
  /**
   * How often each process looks for peers that died without shutting down, ms.
   * @default 3000
   */
  peerCheckIntervalMs?: number;
}

/** The Colyseus server options scale-out sets, and what it runs beside the server. */
export interface ScaleOut {
  presence: Presence;
  driver: MatchMakerDriver;
  publicAddress: string;
  selectProcessIdToCreateRoom: (roomName: string, clientOptions: unknown) => Promise<string>;
  /** Whether Redis answers now: matchmaking is refused, with a retryable error, while it does not. */
  redisReady(): boolean;
  /** Re-registrations after Redis lost this process's data (a restart without persistence). */
  readonly recovery: RecoveryCounts;
  /**
   * Starts publishing load, watching peers and re-registering after a Redis restart, and stops them
   * before the server shuts down.
   */
  attach(server: Server): void;
}

/**
 * How the Redis connections behave while Redis is away: commands wait for it to come back rather than
 * fail (a rejected command inside Colyseus's own bookkeeping, a room count persisted on a leave, would go
 * unhandled), and reconnecting is tried at least every half second, so a Redis that is back is used again
 * within one. Matchmaking, the one thing that cannot wait, is refused at the front door meanwhile.
 */
const REDIS_OPTIONS: RedisOptions = Object.freeze({
  maxRetriesPerRequest: null,
  retryStrategy: (times: number) => Math.min(times * 50, 500),
});

/** Presence, driver, placement and peer watch for `options` (see {@link ScaleOutOptions}). */
export function scaleOut(options: ScaleOutOptions): ScaleOut {
  checkRedisUrl(options.redisUrl);
  checkPublicAddress(options.publicAddress);
  const placement = oneOf("ScaleOutOptions.placement", options.placement ?? "load", PLACEMENTS);
  const commands = new Redis(options.redisUrl, REDIS_OPTIONS);
  const presence = new RedisPresence(commands);
  const driverConnection = new Redis(options.redisUrl, REDIS_OPTIONS);
  // The presence logs its own connections' errors; the driver's would be reported as unhandled.
  driverConnection.on("error", () => undefined);
  const driver = new RedisDriver(driverConnection);
  const board = new ProcessLoadBoard(presence, options.publishIntervalMs ?? 1000, { draining: () => processDrain.draining });
  const watch = new PeerWatch(board, options.peerCheckIntervalMs ?? 3000);
  const recovery = new RedisRecovery(commands, presence, board, options.publishIntervalMs ?? 1000);
  return {
    presence,
    driver,
    publicAddress: options.publicAddress,
    // Both rules are ours, so both leave a draining process out (Colyseus's own would still pick it).
    selectProcessIdToCreateRoom: placement === "load" ? loadAwarePlacement(board) : roomCountPlacement(board),
    redisReady: () => recovery.ready,
    recovery: recovery.counts,
    attach(server) {
      board.start();
      watch.start();
      recovery.start();
      // Placement reads the published figures: a drain is published at once, not at the next round.
      const stopTelling = processDrain.onStart(() => void board.publish());
      server.onBeforeShutdown(async () => {
        stopTelling();
        recovery.stop();
        watch.stop();
        // Out of Colyseus's room counts (as its shutdown does next) before out of the load figures: a
        // process with a count and no figures looks just started, every matchmaker's first choice.
        await matchMaker.stats.excludeProcess(matchMaker.processId);
        await board.stop();
      });
    },
  };
}

/** Throws a RangeError naming REDIS_URL unless it is a redis:// or rediss:// URL. */
export function checkRedisUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    fail("REDIS_URL", "must be a redis:// URL such as redis://127.0.0.1:6379", url);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") fail("REDIS_URL", "must start with redis:// or rediss://", url);
}

/** Throws a RangeError naming PUBLIC_ADDRESS unless it is `host:port` or `host/path` without a scheme. */
export function checkPublicAddress(address: string): void {
  if (!/^[A-Za-z0-9.\-[\]:]+(:\d{1,5})?(\/[\w.\-/]*)?$/.test(address) || address.includes("://")) {
    fail("PUBLIC_ADDRESS", "must be host:port or host/path, without a scheme", address);
  }
}

/**
 * The address clients reach a process at when PUBLIC_ADDRESS is not set: the host it listens on and its
 * port, with the machine's host name for a wildcard host (0.0.0.0 or ::), which no client can dial.
 */
export function derivedPublicAddress(host: string, port: number): string {
  const name = host === "0.0.0.0" || host === "::" || host === "" ? hostname() : host;
  return `${name.includes(":") ? `[${name}]` : name}:${port}`;
}
