import type { Room as ServerRoom } from "@colyseus/core";
import { Client, type Room } from "@colyseus/sdk";
import type { SightlinePlugin } from "../colyseus/sightlinePlugin.js";
import type { AuditCounts } from "../culling/cullingAudit.js";
import { fail, fraction, func, integer, inRange, object, positive } from "../../shared/validation/rangeChecks.js";
import { LatencyProxy } from "./latencyProxy.js";

/** Options of {@link auditWithBots}. */
export interface BotAuditOptions {
  /** The port the room's server listens on, on 127.0.0.1. */
  port: number;
  /** Seconds the bots play, in (0, 600]. */
  seconds: number;
  /** What bot `bot` does every `actEveryMs`: send its input or a message. `random` is seeded and its own. */
  act: (room: Room, bot: number, random: () => number) => void;
  /** Bots that join, in [1, 200]. @default 6 */
  bots?: number;
  /** Join options of bot `bot` (its team, its spawn). @default none */
  joinOptions?: (bot: number) => Record<string, unknown>;
  /** Called as each bot has joined: keep its room to check its frames afterwards (with a `FrameRecorder`). */
  onJoin?: (room: Room, bot: number) => void;
  /** Milliseconds between two `act` calls, in [5, 10000]. @default 50 */
  actEveryMs?: number;
  /**
   * One-way delay of each bot's connection, ms, drawn per bot in [min, max] (a real proxy on loopback, so
   * the plugin measures true round trips of twice that). @default [0, 0]: no proxy
   */
  latencyMs?: readonly [number, number];
  /** Seed of every random draw (latencies and each bot's `random`). @default 1 */
  seed?: number;
  /** Fraction of the clients audited, in (0, 1]. @default 1 */
  sample?: number;
  /** The room's `SightlinePlugin`. @default `room.plugins.sightline` */
  plugin?: SightlinePlugin;
}

/** What {@link auditWithBots} found. */
export interface BotAuditReport {
  /** The audit's totals (the room's whole audit, if it was on before). */
  counts: AuditCounts;
  /** Client-ticks held to every rule: audited, less those excused while news travelled. */
  audited: number;
  /** The last failures, for a message. */
  failures: readonly string[];
  bots: number;
  seconds: number;
}

/** Thrown by {@link auditWithBots} when the audit found a leak, a pop-in, a miss or a sound leak; `report` says what. */
export class AuditFailure extends Error {
  constructor(readonly report: BotAuditReport) {
    const c = report.counts;
    super(`the culling audit failed: ${c.leaks} leaks, ${c.popIns} pop-ins, ${c.misses} misses over ${report.audited} audited client-ticks, ${c.soundLeaks} sound leaks over ${c.soundsAudited} noise deliveries\n${report.failures.join("\n")}`);
    this.name = "AuditFailure";
  }
}

/**
 * Plays bots in your own room and holds its culling to the truth audit: no entity a client's team could
 * not potentially see in any of its views (a leak), none its character truly saw missing from what the
 * client had received by then (a pop-in), none potentially visible or revealed missing now (a miss), and
 * no noise from `sendNoise` told to a client whose team could not hear it, or naming an emitter its view
 * lacks (a sound leak). The room runs in this process (a `Room` from `@colyseus/testing`'s `createRoom`,
 * or your own server's); the bots are real `@colyseus/sdk` clients over WebSocket on 127.0.0.1, through a
 * latency proxy when asked.
 * The audit is started on the room's plugin if it was not on. Resolves with the report; rejects with an
 * {@link AuditFailure} if anything failed, or with the error of a bot that could not join.
 *
 * ```ts
 * const room = await colyseus.createRoom("arena", {});
 * const report = await auditWithBots(room, {
 *   port: colyseus.port, bots: 8, seconds: 10, latencyMs: [0, 60],
 *   joinOptions: (i) => ({ team: i % 2 === 0 ? "red" : "blue" }),
 *   act: (bot, i, random) => bot.send("move", { x: random() * 2 - 1, y: random() * 2 - 1 }),
 * });
 * expect(report.audited).toBeGreaterThan(1000);
 * ```
 */
export async function auditWithBots(room: ServerRoom, options: BotAuditOptions): Promise<BotAuditReport> {
  object("BotAuditOptions", options);
  const port = integer("BotAuditOptions.port", options.port, 1, 65535);
  const seconds = inRange("BotAuditOptions.seconds", options.seconds, 0, 600, "seconds", "(]");
  const act = func<BotAuditOptions["act"]>("BotAuditOptions.act", options.act, "(room, bot, random) => void");
  const bots = integer("BotAuditOptions.bots", options.bots ?? 6, 1, 200);
  const actEveryMs = inRange("BotAuditOptions.actEveryMs", options.actEveryMs ?? 50, 5, 10_000, "milliseconds");
  const joinOptions = options.joinOptions === undefined ? () => ({}) : func<(bot: number) => Record<string, unknown>>("BotAuditOptions.joinOptions", options.joinOptions, "(bot) => options");
  const [minMs, maxMs] = options.latencyMs ?? [0, 0];
  inRange("BotAuditOptions.latencyMs[0]", minMs, 0, 10_000, "milliseconds");
  inRange("BotAuditOptions.latencyMs[1]", maxMs, minMs, 10_000, "milliseconds");
  const seed = options.seed ?? 1;
  if (!Number.isFinite(seed)) fail("BotAuditOptions.seed", "must be a finite number", seed);
  const sample = fraction("BotAuditOptions.sample", options.sample ?? 1, "(]", "clients");
  const onJoin = options.onJoin === undefined ? undefined : func<(room: Room, bot: number) => void>("BotAuditOptions.onJoin", options.onJoin, "(room, bot) => void");
  const plugin = options.plugin ?? (room as unknown as { plugins?: { sightline?: SightlinePlugin } }).plugins?.sightline;
  if (plugin === undefined || typeof plugin.startAudit !== "function") fail("BotAuditOptions.plugin", "must be the room's SightlinePlugin (none at room.plugins.sightline)", plugin);
  plugin.startAudit({ sample });

  const random = seededRandom(seed);
  const proxy = maxMs > 0 ? await LatencyProxy.start(port, () => minMs + random() * (maxMs - minMs)) : undefined;
  const sdk = new Client(`http://127.0.0.1:${proxy?.port ?? port}`);
  const joined: Room[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let i = 0; i < bots; i++) {
      joined.push(await sdk.joinById(room.roomId, joinOptions(i)));
      onJoin?.(joined[i]!, i);
    }
    const randoms = joined.map((_, i) => seededRandom(seed * 7919 + i + 1));
    let failure: unknown;
    timer = setInterval(() => {
      try {
        joined.forEach((bot, i) => act(bot, i, randoms[i]!));
      } catch (err) {
        failure ??= err;
      }
    }, actEveryMs);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    clearInterval(timer);
    if (failure !== undefined) throw failure;
    const audit = plugin.audit!;
    const counts = { ...audit.counts };
    const report: BotAuditReport = { counts, audited: counts.clientTicks - counts.excused, failures: [...audit.failures], bots, seconds };
    if (counts.leaks + counts.popIns + counts.misses + counts.soundLeaks > 0) throw new AuditFailure(report);
    return report;
  } finally {
    if (timer !== undefined) clearInterval(timer);
    await Promise.all(joined.map((bot) => bot.leave().catch(() => {})));
    await proxy?.close();
  }
}

/** xorshift32 from a seed: bots' draws, repeatable run to run. Returns [0, 1). */
function seededRandom(seed: number): () => number {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ 0x6d2b79f5) | 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}
