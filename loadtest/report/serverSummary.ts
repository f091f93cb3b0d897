import type { RunRecord } from "../loadRun.js";
import type { RoomReading, ServerWatch, StatsReading } from "../serverWatch.js";
import { median, pooled, round, type Spread } from "./quantiles.js";

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
  /**
   * Audit totals over the rooms; `failures`: the first failures the rooms reported (at most 10), each a
   * sentence. `soundLeaks`: noises told to a client whose team could not hear them, or naming an emitter
   * out of its view (must be 0), over `soundsAudited` deliveries checked (0 from a server older than hearing).
   */
  culling: { leaks: number; popIns: number; misses: number; auditedClientTicks: number; soundLeaks: number; soundsAudited: number; failures: string[] } | null;
  /**
   * What was played in the run's rooms over their whole life (so the whole run, not only the measured
   * time): doors opened or shut by players and guards, smoke grenades that landed, escapes and captures.
   * Null from a server that does not count doors and grenades; `captures` null from one that does not
   * count them (the plain peer).
   */
  play: { doorsToggled: number; smokesThrown: number; escapes: number; captures: number | null } | null;
  /**
   * Noises made in the run's rooms over their whole life (footsteps and distractions' thuds, as the rooms
   * count them: 0 with hearing off); null from a server that does not count them (the plain peer).
   */
  noises: number | null;
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
  soundLeaks: number;
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

/** The server side of the report: each process's figures over the measured time, pooled; null when a process lacks a mark. */
export function serverSummary(run: RunRecord, watches: readonly ServerWatch[]): ServerSummary | null {
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
      soundLeaks: sum((r) => r.culling!.soundLeaks ?? 0),
      soundsAudited: sum((r) => r.culling!.soundsAudited ?? 0),
      failures: endRooms.flatMap((r) => (r.culling!.auditFailures ?? []).map((f) => `${r.roomId}: ${f}`)).slice(0, 10),
    },
    play: !all((r) => r.doorsToggled !== undefined && r.smokesThrown !== undefined) ? null : {
      doorsToggled: sum((r) => r.doorsToggled!),
      smokesThrown: sum((r) => r.smokesThrown!),
      escapes: sum((r) => r.escapes ?? 0),
      captures: all((r) => r.captures !== undefined) ? sum((r) => r.captures!) : null,
    },
    noises: all((r) => r.noises !== undefined) ? sum((r) => r.noises!) : null,
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
        soundLeaks: roomSum((r) => r.culling?.soundLeaks ?? 0),
      };
    }),
  };
}

/** The largest of the non-null values, null when all are null. */
function maxOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
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
