import { GAITS, newGaitTally, type Gait } from "../botGait.js";
import { newLevelPlayTally } from "../levelPlay.js";
import type { RunRecord } from "../loadRun.js";
import { round, samplesSpread, type Spread } from "./quantiles.js";
import { serverSummary, type ServerSummary } from "./serverSummary.js";
import { missedTargets, TARGETS } from "./targets.js";

/** What `npm run loadtest` reports (the JSON of `--output`, and the table). */
export interface LoadTestSummary {
  startedAt: string;
  endpoint: string;
  options: Record<string, unknown>;
  ok: boolean;
  problems: string[];
  clients: RunRecord["clients"];
  rooms: number;
  seconds: { ramp: number; measured: number };
  /**
   * Bytes are WebSocket message payloads; per client, over connected client-seconds. Noises: what the
   * clients were told they heard (`noise` messages, each an array), per client, over the same.
   */
  traffic: { bytesPerClientPerSecond: number; patchesPerClientPerSecond: number; noisesPerClientPerSecond: number; messagesPerSecondIn: number; messagesPerSecondOut: number };
  roundTripMs: RunRecord["roundTripMs"];
  /**
   * Join round trips into existing rooms seen by the bots (matchmaking request to joined room), ms: on the process the bot
   * asked, and across processes (null with one process, or when no join crossed).
   */
  joinRoundTripMs: { local: (Spread & { samples: number }) | null; crossProcess: (Spread & { samples: number }) | null };
  /**
   * Join round trips timed by the join probe (`--join-probe`), a client process whose loop does nothing
   * else, while measuring: on the room's own process and across processes. With a probe, the
   * cross-process join target is held on its figure: the bots' joins are timed on a loop that drives every
   * bot, and under load that loop's own lateness is in each of them (the generator's lag says how much).
   * Null without a probe.
   */
  joinProbeMs: {
    perSecond: number;
    local: (Spread & { samples: number }) | null;
    crossProcess: (Spread & { samples: number }) | null;
    failed: number;
    failures: string[];
    /** The probe's own event-loop lag p99, ms. */
    loopLagP99Ms: number;
  } | null;
  errors: { total: number; byKind: Record<string, number>; examples: string[]; joinFailures: string[] };
  /** What decoding bots checked themselves: the mean view, and anything held beyond the culling range. */
  clientChecks: { decodingClients: number; checks: number; meanEntitiesHeld: number; farLeaks: number; farLeakExamples: string[]; holdLimitM: number | null };
  /**
   * Doors and smoke from the bots' side (`--level-play`): the requests they sent over the whole run and
   * those the room refused (a floor: the room sends a client one refusal a second at most). Refusals are
   * part of playing (a door out of reach by the time the request lands, someone in the doorway), never a
   * failure; what the rooms did with the requests is `server.play`.
   */
  levelPlay: {
    on: boolean;
    sent: { doorOpens: number; doorShuts: number; smokes: number; distractions: number };
    /** Door and grenade requests refused. */
    refused: number;
    distractionsRefused: number;
    refusedExamples: string[];
  };
  /**
   * Hearing (`--hearing`): whether the rooms heard, and the noises the clients were told of over the whole
   * run (`noise` messages, and the noises in them); the rate over the measured time is in `traffic`, and
   * the noises the rooms made in `server.noises`.
   */
  hearing: { on: boolean; noisesReceived: number; noiseMessages: number };
  /**
   * The bots' input frames by gait over the whole run, as shares (0..1) of `frames`: a run (full stick
   * upright), a walk (half stick), a crouch, standing. As the room would hear them with nothing in the way
   * (a body pushing along a wall moves slower than its stick).
   */
  gaits: Record<Gait, number> & { frames: number };
  server: ServerSummary | null;
  serverNote: string | null;
  generator: RunRecord["generator"];
}

/**
 * The load generator's loop-lag p99 above which it counts as saturated, ms: its bots then send late and
 * read late, so the rates and round trips it reports are partly its own.
 */
export const GENERATOR_SATURATED_LAG_MS = 50;

/** Turns a run's raw record into the report; `ok` is false for anything that must fail the run. */
export function summarize(run: RunRecord): LoadTestSummary {
  const measured = run.measuredSeconds;
  const t = run.traffic;
  const server = run.servers.length === 0 ? null : serverSummary(run, run.servers);
  const joinRoundTripMs = { local: samplesSpread(run.joins.local), crossProcess: samplesSpread(run.joins.cross) };
  // A record built by hand (tests of other figures) may leave the bots' play out: nothing was asked then.
  const play = { ...newLevelPlayTally(), ...(run.play as RunRecord["play"] | undefined) };
  const heard = (run.heard as RunRecord["heard"] | undefined) ?? { noises: 0, messages: 0, warmNoises: 0, endNoises: 0 };
  const gaits = (run.gaits as RunRecord["gaits"] | undefined) ?? newGaitTally();
  const frames = GAITS.reduce((n, g) => n + gaits[g], 0);
  const problems: string[] = [];
  if (run.aborted) problems.push("interrupted before the end");
  if (run.clients.joined === 0) problems.push("no client connected");
  if (run.clients.failed > 0) problems.push(`${run.clients.failed} client(s) failed to connect`);
  if (run.errors.total > 0) problems.push(`${run.errors.total} error(s)`);
  if (run.views.farLeaks > 0) problems.push(`${run.views.farLeaks} entity(ies) held beyond the culling range by decoding clients`);
  if (server !== null) {
    const c = server.culling;
    if (c !== null && c.leaks + c.popIns + c.misses > 0) problems.push(`culling audit: ${c.leaks} leak(s), ${c.popIns} pop-in(s), ${c.misses} miss(es)`);
    // A noise told to a client that could not have heard it is a leak like an entity it could not see.
    if (c !== null && c.soundLeaks > 0) problems.push(`culling audit: ${c.soundLeaks} sound leak(s) in ${c.soundsAudited} sounds audited`);
    if (server.exceptions > 0) problems.push(`${server.exceptions} exception(s) in the rooms`);
    if (run.options.targets) problems.push(...missedTargets(server, run.options.churn > 0));
  }
  const probe = run.probe;
  let joinProbeMs: LoadTestSummary["joinProbeMs"] = null;
  if (probe !== undefined && "error" in probe) problems.push(`join probe: ${probe.error}`);
  if (probe !== undefined && !("error" in probe)) {
    joinProbeMs = {
      perSecond: run.options.joinProbe,
      local: samplesSpread(probe.joins.local),
      crossProcess: samplesSpread(probe.joins.cross),
      failed: probe.failed,
      failures: probe.failures,
      loopLagP99Ms: round(probe.loopLagP99Ms, 2),
    };
    if (probe.failed > 0) problems.push(`${probe.failed} join(s) of the join probe failed`);
  }
  const cross = run.probe === undefined ? joinRoundTripMs.crossProcess : joinProbeMs?.crossProcess ?? null;
  if (run.options.targets && cross !== null && cross.p99 > TARGETS.crossProcessJoinP99Ms) {
    problems.push(`cross-process join p99 ${cross.p99} ms${run.probe === undefined ? "" : " (join probe)"} (target < ${TARGETS.crossProcessJoinP99Ms})`);
  }
  return {
    startedAt: run.startedAt,
    endpoint: run.endpoint,
    options: { ...run.options, endpoint: run.endpoint },
    ok: problems.length === 0,
    problems,
    clients: run.clients,
    rooms: run.roomIds.length,
    seconds: { ramp: round(run.rampSeconds, 1), measured: round(measured, 1) },
    traffic: {
      bytesPerClientPerSecond: round(t.clientSeconds > 0 ? (t.end.bytesIn - t.warm.bytesIn) / t.clientSeconds : 0, 0),
      patchesPerClientPerSecond: round(t.clientSeconds > 0 ? (t.end.patchesIn - t.warm.patchesIn) / t.clientSeconds : 0, 2),
      noisesPerClientPerSecond: round(t.clientSeconds > 0 ? (heard.endNoises - heard.warmNoises) / t.clientSeconds : 0, 2),
      messagesPerSecondIn: round(measured > 0 ? (t.end.messagesIn - t.warm.messagesIn) / measured : 0, 0),
      messagesPerSecondOut: round(measured > 0 ? (t.framesOutEnd - t.framesOutWarm) / measured : 0, 0),
    },
    roundTripMs: { p50: round(run.roundTripMs.p50, 3), p99: round(run.roundTripMs.p99, 3), max: round(run.roundTripMs.max, 3), samples: run.roundTripMs.samples },
    joinRoundTripMs,
    joinProbeMs,
    errors: { total: run.errors.total, byKind: { ...run.errors.counts }, examples: run.errors.examples, joinFailures: run.joinFailures },
    clientChecks: {
      decodingClients: run.clients.decoding,
      checks: run.views.checks,
      meanEntitiesHeld: round(run.views.checks > 0 ? run.views.entitiesHeld / run.views.checks : 0, 1),
      farLeaks: run.views.farLeaks,
      farLeakExamples: run.views.farLeakExamples,
      holdLimitM: run.holdLimit ?? null,
    },
    levelPlay: {
      on: run.options.levelPlay === "on",
      sent: { doorOpens: play.doorOpens, doorShuts: play.doorShuts, smokes: play.smokes, distractions: play.distractions },
      refused: play.refused,
      distractionsRefused: play.distractionsRefused,
      refusedExamples: play.refusedExamples,
    },
    hearing: { on: (run.options.hearing ?? "on") === "on", noisesReceived: heard.noises, noiseMessages: heard.messages },
    gaits: { run: share(gaits.run, frames), walk: share(gaits.walk, frames), crouch: share(gaits.crouch, frames), still: share(gaits.still, frames), frames },
    server,
    serverNote: run.serverNote ?? null,
    generator: { cpuPercentOfCore: round(run.generator.cpuPercentOfCore, 1), loopLagP99Ms: round(run.generator.loopLagP99Ms, 2) },
  };
}

/** `n` of `total` as a share rounded to 3 places (0 of nothing). */
function share(n: number, total: number): number {
  return total > 0 ? round(n / total, 3) : 0;
}
