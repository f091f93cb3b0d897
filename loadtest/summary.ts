import { median as medianInPlace } from "./bench/percentile.js";
import type { RunRecord } from "./loadRun.js";
import type { RoomReading, ServerWatch, StatsReading } from "./serverWatch.js";

/** Quantiles of a per-room figure, or of loop-lag windows, ms. */
interface Spread {
  p50: number;
  p99: number;
  max: number;
}

/** The server's own figures over the measured window (after warm-up), from `GET /stats`. */
export interface ServerSummary {
  rooms: number;
  guardsPerRoom: number;
  cullingEnabled: boolean;
  /** Patches broadcast per second, per room: the lowest room and the median room. */
  patchRatePerRoom: { min: number; p50: number };
  /**
   * Event-loop lag, ms, over the 5-second windows that ended inside the measured time: `p99` is the p99 of
   * every lag sample of those windows pooled (the target's reading; from each window's distribution,
   * rounded up to the histogram's steps), `worstWindowP99` the worst single window's p99 (the strictest
   * view: one GC-heavy 5 s decides it), `p99Median` the median window's, `max` the longest stall.
   */
  loopLagMs: { p99: number; worstWindowP99: number; p99Median: number; max: number; windows: number };
  /** Fixed-step time, ms (each room's last 1200 ticks): median room's p50, worst room's p99 and max. */
  tickMs: Spread;
  /** What a join cost the loop (`onJoin` plus its first full state), ms, over every join of the run's rooms; joins counted. */
  joinMs: Spread & { joins: number };
  /** The joins' own work: the same, less the garbage-collection pauses that fell inside them. */
  joinWorkMs: Spread;
  /** Patch broadcast time (encoding every view and sending), ms, same reading as `tickMs`. */
  patchMs: Spread;
  /** How late game-loop firings ran after their grid times, ms (waiting for the loop), same reading; null from a server that does not say. */
  lateMs: Spread | null;
  /** Server CPU over the measured time, percent of one core (summed over the processes). */
  cpuPercentOfCore: number;
  /** Server CPU per connected client, ms of CPU per client per second (the fair figure when the load generator shares the machine). */
  cpuMsPerClientSecond: number;
  memoryMB: { rssStart: number; rssEnd: number; heapStart: number; heapAfterWarmup: number; heapEnd: number };
  /**
   * Live-heap growth after warm-up, percent: the median heap left by the major GCs of the last third of the
   * measured time against that of the first third (`heapAfterMajorGc` in `/stats`; at least two
   * collections in each third). Null when there were too few collections (a short run).
   */
  heapGrowthPercent: number | null;
  /** Major GCs during the measured time, and the median live heap after them in the first and last third, MB. */
  liveHeapMB: { majorGcs: number; firstThird: number | null; lastThird: number | null };
  /**
   * The older, garbage-dominated reading: the lowest heap-used poll of the last third against that of the
   * first (where a poll lands in the GC cycle decides most of it). Kept for comparison with earlier runs.
   */
  heapFloorGrowthPercent: number | null;
  /** Null (here and below, to `culling`) from a server without vision or culling: the plain peer. */
  visionRaysPerTick: number | null;
  stalenessMaxTicks: number | null;
  awarenessEventsPerRoomPerSecond: number | null;
  /** Entities entering or leaving a view per client per tick (since each room started). */
  viewChurnPerClientTick: number | null;
  /** Audit totals over the rooms; `failures`: the first failures the rooms reported (at most 10), each a sentence. */
  culling: { leaks: number; popIns: number; misses: number; auditedClientTicks: number; failures: string[] } | null;
  rejectedInputs: number;
  errorDisconnects: number;
  exceptions: number;
  /** Fixed steps the rooms' game loops dropped over the whole run (fired more than 5 steps late); 0 when healthy. */
  stepsDropped: number;
  /**
   * With several processes, each one's own figures (the fields above then pool them: rooms and audits
   * summed, CPU and memory summed, loop lag and heap growth the worst process's); null with one.
   */
  processes: ProcessSummary[] | null;
}

/** One server process of a multi-process run. */
export interface ProcessSummary {
  processId: string;
  rooms: number;
  clients: number;
  guards: number;
  cpuPercentOfCore: number;
  cpuMsPerClientSecond: number;
  loopLagMs: { p99: number; max: number };
  patchRateMin: number;
  joinP99Ms: number;
  leaks: number;
  popIns: number;
  misses: number;
}

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
  /** Bytes are WebSocket message payloads; per client, over connected client-seconds. */
  traffic: { bytesPerClientPerSecond: number; patchesPerClientPerSecond: number; messagesPerSecondIn: number; messagesPerSecondOut: number };
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
  server: ServerSummary | null;
  serverNote: string | null;
  generator: RunRecord["generator"];
}

/** The capacity targets a run held to them (`--targets`) must meet, each miss as a sentence. */
export const TARGETS = Object.freeze({ patchRateMin: 19, loopLagP99Ms: 25, joinP99Ms: 5, heapGrowthPercent: 10, soakStallMs: 100, crossProcessJoinP99Ms: 100 });

/**
 * Each target the figures miss, as a sentence starting with the target's name. `soak` (a run with churn)
 * adds the soak's own target: no single stall over {@link TARGETS.soakStallMs}.
 */
export function missedTargets(v: Pick<ServerSummary, "patchRatePerRoom" | "loopLagMs" | "heapGrowthPercent" | "joinMs">, soak = false): string[] {
  const missed: string[] = [];
  if (v.patchRatePerRoom.min < TARGETS.patchRateMin) missed.push(`patch rate ${v.patchRatePerRoom.min} per s in the slowest room (target >= ${TARGETS.patchRateMin})`);
  if (v.loopLagMs.p99 > TARGETS.loopLagP99Ms) missed.push(`event-loop lag p99 ${v.loopLagMs.p99} ms (target <= ${TARGETS.loopLagP99Ms})`);
  if (v.joinMs.p99 > TARGETS.joinP99Ms) missed.push(`join on the loop p99 ${v.joinMs.p99} ms (target <= ${TARGETS.joinP99Ms})`);
  if (soak && v.loopLagMs.max > TARGETS.soakStallMs) missed.push(`stall of ${v.loopLagMs.max} ms, the longest (target <= ${TARGETS.soakStallMs} in a soak)`);
  if (v.heapGrowthPercent !== null && v.heapGrowthPercent >= TARGETS.heapGrowthPercent) missed.push(`live heap growth ${v.heapGrowthPercent}% (target < ${TARGETS.heapGrowthPercent})`);
  return missed;
}

/** p50, p99 and max of samples pooled from several rooms (zeros for none). */
function pooled(samples: number[]): Spread {
  if (samples.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = samples.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: round(at(0.5), 3), p99: round(at(0.99), 3), max: round(sorted.at(-1)!, 3) };
}

/** Turns a run's raw record into the report; `ok` is false for anything that must fail the run. */
export function summarize(run: RunRecord): LoadTestSummary {
  const measured = run.measuredSeconds;
  const t = run.traffic;
  const server = run.servers.length === 0 ? null : serverSummary(run, run.servers);
  const joinRoundTripMs = { local: samplesSpread(run.joins.local), crossProcess: samplesSpread(run.joins.cross) };
  const problems: string[] = [];
  if (run.aborted) problems.push("interrupted before the end");
  if (run.clients.joined === 0) problems.push("no client connected");
  if (run.clients.failed > 0) problems.push(`${run.clients.failed} client(s) failed to connect`);
  if (run.errors.total > 0) problems.push(`${run.errors.total} error(s)`);
  if (run.views.farLeaks > 0) problems.push(`${run.views.farLeaks} entity(ies) held beyond the culling range by decoding clients`);
  if (server !== null) {
    const c = server.culling;
    if (c !== null && c.leaks + c.popIns + c.misses > 0) problems.push(`culling audit: ${c.leaks} leak(s), ${c.popIns} pop-in(s), ${c.misses} miss(es)`);
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
    server,
    serverNote: run.serverNote ?? null,
    generator: { cpuPercentOfCore: round(run.generator.cpuPercentOfCore, 1), loopLagP99Ms: round(run.generator.loopLagP99Ms, 2) },
  };
}

/** A process's marks and its rooms of this run, or undefined when a mark is missing. */
function processReadings(run: RunRecord, watch: ServerWatch) {
  const start = watch.marks.get("start");
  const end = watch.marks.get("end");
  const warm = watch.marks.get("warm") ?? watch.marks.get("rooms") ?? start;
  if (start === undefined || end === undefined || warm === undefined) return undefined;
  const ours = (reading: StatsReading) => reading.rooms.filter((r) => run.roomIds.includes(r.roomId));
  const endRooms = ours(end);
  const warmRooms = new Map(ours(warm).map((r) => [r.roomId, r]));
  const seconds = (end.sampledAtMs - warm.sampledAtMs) / 1000;
  const pairs = endRooms.flatMap((e) => {
    const w = warmRooms.get(e.roomId);
    return w === undefined ? [] : [[w, e] as [RoomReading, RoomReading]];
  });
  // Loop-lag windows wholly inside the measured time; for a run shorter than a window, the one in progress.
  const lagSeconds = end.eventLoopLagMs.windowSeconds;
  let windows = [...watch.lagWindows.values()].filter((w) => w.endedAtMs - lagSeconds * 1000 >= warm.sampledAtMs - 50 && w.endedAtMs <= end.sampledAtMs);
  if (windows.length === 0) windows = [end.eventLoopLagMs.current];
  const p99s = windows.map((w) => w.p99).sort((a, b) => a - b);
  const cpuSeconds = (r: StatsReading) => r.cpu.userSeconds + r.cpu.systemSeconds;
  return {
    watch, start, warm, end, endRooms, pairs, seconds,
    patchRates: pairs.map(([w, e]) => (seconds > 0 ? (e.patches - w.patches) / seconds : 0)),
    lag: { p99: pooledPercentile(windows, 0.99), worstWindowP99: p99s[p99s.length - 1]!, p99Median: median(p99s), max: Math.max(...windows.map((w) => w.max)), windows: windows.length },
    cpuPercent: seconds > 0 ? (100 * (cpuSeconds(end) - cpuSeconds(warm))) / seconds : 0,
    heap: liveHeapGrowth(watch.heapAfterGc, warm.sampledAtMs, end.sampledAtMs),
    heapFloor: heapGrowth(watch.heap, warm.sampledAtMs, end.sampledAtMs),
  };
}

function serverSummary(run: RunRecord, watches: readonly ServerWatch[]): ServerSummary | null {
  const each = watches.map((w) => processReadings(run, w));
  if (each.length === 0 || each.some((p) => p === undefined)) return null;
  const ps = each as NonNullable<(typeof each)[number]>[];
  const endRooms = ps.flatMap((p) => p.endRooms);
  const pairs = ps.flatMap((p) => p.pairs);
  const delta = (f: (r: RoomReading) => number) => pairs.reduce((n, [w, e]) => n + f(e) - f(w), 0);
  const patchRates = ps.flatMap((p) => p.patchRates).sort((a, b) => a - b);
  const ticks = delta((r) => r.ticks);
  const seconds = Math.max(...ps.map((p) => p.seconds));
  const worst = (f: (p: (typeof ps)[number]) => number) => Math.max(...ps.map(f));
  const total = (f: (p: (typeof ps)[number]) => number) => ps.reduce((n, p) => n + f(p), 0);

  const spread = (f: (r: RoomReading) => Spread): Spread => ({
    p50: round(median(endRooms.map((r) => f(r).p50)), 3),
    p99: round(Math.max(0, ...endRooms.map((r) => f(r).p99)), 3),
    max: round(Math.max(0, ...endRooms.map((r) => f(r).max)), 3),
  });
  const sum = (f: (r: RoomReading) => number) => endRooms.reduce((n, r) => n + f(r), 0);
  const MB = (bytes: number) => round(bytes / 1e6, 1);
  const clients = sum((r) => r.clients);
  const cpuPercent = total((p) => p.cpuPercent);
  const growths = ps.map((p) => p.heap.heapGrowthPercent);
  const floors = ps.map((p) => p.heapFloor);
  const thirds = (f: (p: (typeof ps)[number]) => number | null) => (ps.some((p) => f(p) === null) ? null : round(total((p) => f(p)!), 1));
  // A figure every room reports, or none: a server without vision (the plain peer) leaves these out.
  const all = (has: (r: RoomReading) => boolean) => endRooms.length > 0 && endRooms.every(has);
  return {
    rooms: endRooms.length,
    guardsPerRoom: endRooms[0]?.guards ?? 0,
    cullingEnabled: endRooms.every((r) => r.cullingEnabled),
    patchRatePerRoom: { min: round(patchRates[0] ?? 0, 2), p50: round(median(patchRates), 2) },
    loopLagMs: {
      p99: round(worst((p) => p.lag.p99), 2),
      worstWindowP99: round(worst((p) => p.lag.worstWindowP99), 2),
      p99Median: round(worst((p) => p.lag.p99Median), 2),
      max: round(worst((p) => p.lag.max), 2),
      windows: total((p) => p.lag.windows),
    },
    tickMs: spread((r) => r.tickMs),
    // Pooled over every join of every room: a room sees 25 joins, so its own p99 is its slowest join.
    joinMs: { ...pooled(endRooms.flatMap((r) => r.joinSamplesMs ?? [])), joins: sum((r) => r.joinMs?.samples ?? 0) },
    joinWorkMs: pooled(endRooms.flatMap((r) => r.joinWorkSamplesMs ?? [])),
    patchMs: spread((r) => r.patchMs),
    lateMs: endRooms.length > 0 && endRooms.every((r) => r.lateMs !== undefined) ? spread((r) => r.lateMs!) : null,
    cpuPercentOfCore: round(cpuPercent, 1),
    cpuMsPerClientSecond: round(clients > 0 ? (cpuPercent * 10) / clients : 0, 3),
    memoryMB: {
      rssStart: MB(total((p) => p.start.memory.rss)),
      rssEnd: MB(total((p) => p.end.memory.rss)),
      heapStart: MB(total((p) => p.start.memory.heapUsed)),
      heapAfterWarmup: MB(total((p) => p.warm.memory.heapUsed)),
      heapEnd: MB(total((p) => p.end.memory.heapUsed)),
    },
    heapGrowthPercent: maxOrNull(growths),
    liveHeapMB: { majorGcs: total((p) => p.heap.liveHeapMB.majorGcs), firstThird: thirds((p) => p.heap.liveHeapMB.firstThird), lastThird: thirds((p) => p.heap.liveHeapMB.lastThird) },
    heapFloorGrowthPercent: maxOrNull(floors),
    visionRaysPerTick: all((r) => r.rays !== undefined) ? round(ticks > 0 ? delta((r) => r.rays!) / ticks : 0, 1) : null,
    stalenessMaxTicks: all((r) => r.stalenessMax !== undefined) ? Math.max(0, ...endRooms.map((r) => r.stalenessMax!)) : null,
    awarenessEventsPerRoomPerSecond: all((r) => r.detectionEvents !== undefined) ? round(seconds > 0 && pairs.length > 0 ? delta((r) => r.detectionEvents!) / seconds / pairs.length : 0, 2) : null,
    viewChurnPerClientTick: all((r) => r.culling !== undefined) ? round(median(endRooms.map((r) => r.culling!.churnPerClientTick)), 3) : null,
    culling: !all((r) => r.culling !== undefined) ? null : {
      leaks: sum((r) => r.culling!.leaks),
      popIns: sum((r) => r.culling!.popIns),
      misses: sum((r) => r.culling!.misses),
      auditedClientTicks: sum((r) => r.culling!.auditedClientTicks),
      failures: endRooms.flatMap((r) => (r.culling!.auditFailures ?? []).map((f) => `${r.roomId}: ${f}`)).slice(0, 10),
    },
    rejectedInputs: sum((r) => r.rejected.total),
    errorDisconnects: sum((r) => r.errorDisconnects),
    exceptions: sum((r) => r.exceptions),
    stepsDropped: sum((r) => r.stepsDropped ?? 0),
    processes: ps.length < 2 ? null : ps.map((p) => {
      const n = p.endRooms.reduce((k, r) => k + r.clients, 0);
      const roomSum = (f: (r: RoomReading) => number) => p.endRooms.reduce((k, r) => k + f(r), 0);
      return {
        processId: p.end.processId ?? "?",
        rooms: p.endRooms.length,
        clients: n,
        guards: roomSum((r) => r.guards),
        cpuPercentOfCore: round(p.cpuPercent, 1),
        cpuMsPerClientSecond: round(n > 0 ? (p.cpuPercent * 10) / n : 0, 3),
        loopLagMs: { p99: round(p.lag.p99, 2), max: round(p.lag.max, 2) },
        patchRateMin: round(Math.min(...p.patchRates, Infinity) === Infinity ? 0 : Math.min(...p.patchRates), 2),
        joinP99Ms: pooled(p.endRooms.flatMap((r) => r.joinSamplesMs ?? [])).p99,
        leaks: roomSum((r) => r.culling?.leaks ?? 0),
        popIns: roomSum((r) => r.culling?.popIns ?? 0),
        misses: roomSum((r) => r.culling?.misses ?? 0),
      };
    }),
  };
}

/** The largest of the non-null values, null when all are null. */
function maxOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
}

/** p50, p99 and max of samples (ms) with their count; null for none. */
function samplesSpread(samples: readonly number[]): (Spread & { samples: number }) | null {
  return samples.length === 0 ? null : { ...pooled([...samples]), samples: samples.length };
}

/**
 * The `q` quantile (0..1) of all samples of several loop-lag windows, from each window's distribution: the
 * smallest lag at which the windows' sample-weighted fractions at or below it reach `q`. A window's
 * fraction is read as a step (the last percentile step at or below the lag), so the answer is never below
 * the truth. A window without a distribution (an older server) counts by its p99 and max alone.
 */
export function pooledPercentile(windows: readonly { samples: number; p99: number; max: number; distribution?: [number, number][] }[], q: number): number {
  const steps = windows.map((w) => (w.distribution !== undefined && w.distribution.length > 0 ? [...w.distribution].sort((a, b) => a[0] - b[0] || a[1] - b[1]) : ([[w.p99, 0.99], [w.max, 1]] as [number, number][])));
  const total = windows.reduce((n, w) => n + w.samples, 0);
  if (total === 0) return Math.max(0, ...windows.map((w) => w.p99));
  const candidates = [...new Set(steps.flatMap((d) => d.map(([lag]) => lag)))].sort((a, b) => a - b);
  for (const lag of candidates) {
    let below = 0;
    for (let i = 0; i < windows.length; i++) {
      let fraction = 0;
      for (const [at, f] of steps[i]!) if (at <= lag && f > fraction) fraction = f;
      below += fraction * windows[i]!.samples;
    }
    if (below >= q * total - 1e-9) return lag;
  }
  return candidates[candidates.length - 1] ?? 0;
}

/** Heap readings (bytes) of the first and last third of [fromMs, toMs], each in time order. */
function firstAndLastThird(samples: readonly { atMs: number; heapUsed: number }[], fromMs: number, toMs: number): { first: number[]; last: number[]; all: number } {
  const third = (toMs - fromMs) / 3;
  const within = (a: number, b: number) => samples.filter((s) => s.atMs >= a && s.atMs <= b).map((s) => s.heapUsed);
  return { first: within(fromMs, fromMs + third), last: within(toMs - third, toMs), all: within(fromMs, toMs).length };
}

/** Growth (%) of the median post-GC heap from the first third of the measured time to the last. */
export function liveHeapGrowth(afterGc: readonly { atMs: number; heapUsed: number }[], fromMs: number, toMs: number): Pick<ServerSummary, "heapGrowthPercent" | "liveHeapMB"> {
  const { first, last, all } = firstAndLastThird(afterGc, fromMs, toMs);
  const a = first.length === 0 ? null : median(first);
  const b = last.length === 0 ? null : median(last);
  return {
    heapGrowthPercent: first.length >= 2 && last.length >= 2 ? round((100 * (b! - a!)) / a!, 1) : null,
    liveHeapMB: { majorGcs: all, firstThird: a === null ? null : round(a / 1e6, 1), lastThird: b === null ? null : round(b / 1e6, 1) },
  };
}

/** Growth (%) of the heap floor from the first third of the measured time to the last; null if too few readings. */
function heapGrowth(samples: readonly { atMs: number; heapUsed: number }[], fromMs: number, toMs: number): number | null {
  const { first, last } = firstAndLastThird(samples, fromMs, toMs);
  if (first.length < 3 || last.length < 3) return null;
  const a = Math.min(...first);
  return round((100 * (Math.min(...last) - a)) / a, 1);
}

/** The report as an aligned two-column table (what the README quotes). */
export function formatTable(s: LoadTestSummary): string {
  const rows: [string, string][] = [];
  const add = (label: string, value: string) => rows.push([label, value]);
  const ms = (v: number) => (Number.isFinite(v) ? `${v} ms` : "-");
  add("result", s.ok ? "ok" : `FAILED: ${s.problems.join("; ")}`);
  add("clients connected / failed", `${s.clients.joined} / ${s.clients.failed} (peak ${s.clients.peak} at once, ${s.clients.decoding} decoding, ${s.clients.churned} churned)`);
  add("rooms", String(s.rooms));
  add("measured", `${s.seconds.measured} s after a ${s.seconds.ramp} s ramp and ${s.options.warmup} s warm-up`);
  add("bytes / client / s received", String(s.traffic.bytesPerClientPerSecond));
  add("patches / client / s received", String(s.traffic.patchesPerClientPerSecond));
  add("messages / s in, out", `${s.traffic.messagesPerSecondIn}, ${s.traffic.messagesPerSecondOut}`);
  add("round trip p50 / p99 / max", `${ms(s.roundTripMs.p50)} / ${ms(s.roundTripMs.p99)} / ${ms(s.roundTripMs.max)} (${s.roundTripMs.samples} pings)`);
  const joinTrip = (j: (Spread & { samples: number }) | null) => (j === null ? "-" : `${j.p50} / ${j.p99} / ${j.max} ms (${j.samples})`);
  const probe = s.joinProbeMs;
  const crossTarget = s.options.targets ? ` (target p99 < ${TARGETS.crossProcessJoinP99Ms})` : "";
  add("join round trip p50 / p99 / max, same process", joinTrip(s.joinRoundTripMs.local));
  if (s.joinRoundTripMs.crossProcess !== null) add("  across processes", `${joinTrip(s.joinRoundTripMs.crossProcess)}${probe === null ? crossTarget : " (timed on the bots' loop)"}`);
  if (probe !== null) {
    add("join probe p50 / p99 / max, same process", `${joinTrip(probe.local)}; ${probe.perSecond} joins/s, ${probe.failed} failed, probe loop lag p99 ${probe.loopLagP99Ms} ms`);
    add("  across processes", `${joinTrip(probe.crossProcess)}${probe.crossProcess === null ? "" : crossTarget}`);
  }
  add("errors", s.errors.total === 0 ? "0" : `${s.errors.total} (${Object.entries(s.errors.byKind).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ")})`);
  add("decoding clients: mean view, far leaks", `${s.clientChecks.meanEntitiesHeld} entities, ${s.clientChecks.farLeaks} beyond ${s.clientChecks.holdLimitM ?? "-"} m`);
  const v = s.server;
  if (v === null) {
    add("server figures", s.serverNote ?? "none");
  } else {
    const guards = s.options.guards as number[] | undefined;
    add("server: guards per room, culling", `${guards !== undefined && guards.length > 1 ? guards.join(", ") + " in turn" : v.guardsPerRoom}, ${s.options.server === "plain" ? "none (the plain peer: no vision, no culling)" : v.cullingEnabled ? "on" : "off"}`);
    // Targets are printed only when the run is held to them: a run never says ok next to a missed target.
    const target = (text: string) => (s.options.targets ? `; target ${text}` : "");
    add("patch rate per room min / p50", `${v.patchRatePerRoom.min} / ${v.patchRatePerRoom.p50} per s${s.options.targets ? ` (target >= ${TARGETS.patchRateMin})` : ""}`);
    add("event-loop lag p99 over the run (worst / median window), max", `${v.loopLagMs.p99} ms (${v.loopLagMs.worstWindowP99} / ${v.loopLagMs.p99Median} ms), ${v.loopLagMs.max} ms (${v.loopLagMs.windows} windows${target(`p99 <= ${TARGETS.loopLagP99Ms}${(s.options.churn as number) > 0 ? `, max <= ${TARGETS.soakStallMs}` : ""}`)})`);
    add("tick p50 / p99 / max", `${v.tickMs.p50} / ${v.tickMs.p99} / ${v.tickMs.max} ms`);
    add("join on the loop p50 / p99 / max", `${v.joinMs.p50} / ${v.joinMs.p99} / ${v.joinMs.max} ms (${v.joinMs.joins} joins${s.options.targets ? `; target p99 <= ${TARGETS.joinP99Ms}` : ""})`);
    add("  of which the join's own work, GC pauses taken off", `${v.joinWorkMs.p50} / ${v.joinWorkMs.p99} / ${v.joinWorkMs.max} ms`);
    add("patch broadcast p50 / p99 / max", `${v.patchMs.p50} / ${v.patchMs.p99} / ${v.patchMs.max} ms`);
    if (v.lateMs !== null) add("firing lateness p50 / p99 / max", `${v.lateMs.p50} / ${v.lateMs.p99} / ${v.lateMs.max} ms (how long a room's due step waited for the loop)`);
    add("server CPU", `${v.cpuPercentOfCore}% of a core, ${v.cpuMsPerClientSecond} ms per client per s`);
    add("RSS start / end", `${v.memoryMB.rssStart} / ${v.memoryMB.rssEnd} MB`);
    add("heap start / after warm-up / end", `${v.memoryMB.heapStart} / ${v.memoryMB.heapAfterWarmup} / ${v.memoryMB.heapEnd} MB`);
    const live = v.liveHeapMB;
    add("live heap after major GCs, first / last third", `${live.firstThird ?? "-"} / ${live.lastThird ?? "-"} MB (${live.majorGcs} major GCs)`);
    add("heap growth after warm-up", v.heapGrowthPercent === null ? "- (too few major GCs)" : `${v.heapGrowthPercent}% (${s.options.targets ? `target < ${TARGETS.heapGrowthPercent}; ` : ""}floor of the polls: ${v.heapFloorGrowthPercent ?? "-"}%)`);
    add("vision rays / tick, staleness max", v.visionRaysPerTick === null ? NA : `${v.visionRaysPerTick}, ${v.stalenessMaxTicks ?? NA} ticks`);
    add("awareness events / room / s", v.awarenessEventsPerRoomPerSecond === null ? NA : String(v.awarenessEventsPerRoomPerSecond));
    add("view churn / client / tick", v.viewChurnPerClientTick === null ? NA : String(v.viewChurnPerClientTick));
    const c = v.culling;
    add("leaks / pop-ins / misses", c === null ? `${NA} (no culling to audit)` : c.auditedClientTicks === 0 ? `${c.leaks} / ${c.popIns} / ${c.misses} (NOT audited: 0 proves nothing)` : `${c.leaks} / ${c.popIns} / ${c.misses} (${c.auditedClientTicks} client-ticks audited)`);
    add("rejected inputs, error closes, exceptions", `${v.rejectedInputs}, ${v.errorDisconnects}, ${v.exceptions}`);
    add("steps dropped by late loops (whole run)", String(v.stepsDropped));
    for (const p of v.processes ?? []) {
      add(`process ${p.processId}`, `${p.rooms} rooms, ${p.clients} clients, ${p.guards} guards; CPU ${p.cpuPercentOfCore}% (${p.cpuMsPerClientSecond} ms per client per s); lag p99 ${p.loopLagMs.p99} ms, max ${p.loopLagMs.max} ms; patch rate min ${p.patchRateMin}; join p99 ${p.joinP99Ms} ms; leaks / pop-ins / misses ${p.leaks} / ${p.popIns} / ${p.misses}`);
    }
  }
  add("load generator", `${s.generator.cpuPercentOfCore}% of a core, loop lag p99 ${s.generator.loopLagP99Ms} ms${s.generator.loopLagP99Ms > 50 ? " (saturated: its round trips and rates are partly its own)" : ""}`);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join("\n");
}

/** What the table prints for a figure the server does not have (the plain peer's vision and culling). */
export const NA = "n/a";

/** The median of a (fresh) list, 0 when empty. */
function median(values: number[]): number {
  return values.length === 0 ? 0 : medianInPlace(values);
}

function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
