/**
 * vision-scheduler: the reference room (1024 guards, 64 players, 1000 walls, 30 m range, 90 degree cones,
 * everyone moving every tick at 20 Hz, 300 ticks, seeded). In one run, on the same poses each tick:
 *  - naive: the textbook full per-tick loop (see naivePass.ts);
 *  - the scheduled engine at several ray budgets (default options otherwise);
 *  - an exact oracle, untimed: a full, cache-free, hysteresis-free pass, giving what is truly visible.
 * The naive pass and the budgets run interleaved, taking turns of 20 ticks, each on its own copy of the
 * level, so the naive-over-ours ratios compare ticks measured within a second of each other; five rounds
 * of that loop, and each ratio is the rounds' median, with their spread.
 * For each: CPU ms per tick (median, p99), tree rays per tick, and detection latency: ticks from the tick a
 * pair becomes truly visible to the first tick `canSee` says so (0 = the same tick), p50/p99/max, plus
 * the glimpses never detected before they ended. Then awareness on top of the engine, and what the
 * fairness mode adds to that (see `fairnessOverhead`).
 */
import { AwarenessModel, PoseHistory, SeenOnScreen, VisionSystem } from "sightline";
import { TICK_SECONDS } from "../../shared/gameRules.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { acrossRounds, interleave, ratioOfMedians, type InterleavedSide } from "./interleave.js";
import { NaivePass } from "./naivePass.js";
import { percentile } from "./percentile.js";

const RANGE = 30;
const FOV = Math.PI / 2;
const TICKS = 300;
const BUDGETS = [96, 128, 192, 256, 512, Infinity];
/** The reference room's guards and players (`freshLevel`). */
const G = 1024;
const P = 64;

export async function visionSchedulerBench(): Promise<void> {
  const ticks = schedulerTicksFrom(process.env);
  for (const line of runVisionScheduler(ticks)) console.log(JSON.stringify(line));
  awarenessOverhead();
  fairnessOverhead();
}

/** BENCH_SCHEDULER_TICKS when set (a positive integer), else {@link TICKS}. */
export function schedulerTicksFrom(env: Record<string, string | undefined>): number {
  const raw = env.BENCH_SCHEDULER_TICKS;
  if (raw === undefined || raw === "") return TICKS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`BENCH_SCHEDULER_TICKS must be a positive integer, got "${raw}"`);
  return n;
}

/**
 * The naive pass and the scheduled engine at every budget, each on its own copy of the level replaying the
 * same seeded trajectory, in one loop where they take turns every few ticks in a random order
 * (`interleave.ts`), so each ratio to the naive pass compares ticks measured within a second of each other.
 * The loop runs `rounds` times, on fresh copies each time: a ratio is the rounds' median, and the line
 * says how far apart the rounds were. Returns the lines the bench prints.
 */
export function runVisionScheduler(ticks: number, rounds = ROUNDS): Record<string, unknown>[] {
  // The oracle's truth is recorded first, untimed, on a copy of its own.
  const truth = recordTruth(ticks);
  const runs = Array.from({ length: rounds }, (_, r) => interleavedRound(truth, ticks, ORDER_SEED + r));
  const naiveMs = runs.flatMap((run) => run.naive.ms);
  const lines: Record<string, unknown>[] = [{
    bench: "vision-scheduler", variant: "naive", guards: G, players: P, walls: 1000, rangeM: RANGE, ticks, rounds,
    msPerTick: { median: round(percentile([...naiveMs], 0.5)), p99: round(percentile(naiveMs, 0.99)) },
    msPerTickByRound: runs.map((run) => round(percentile([...run.naive.ms], 0.5))),
    raysPerTick: percentile(runs[0]!.naive.rays, 0.5),
  }];
  BUDGETS.forEach((raysPerTick, i) => {
    // Seeded and clock-free: every round counts the same rays, latencies and cache hits; the first speaks.
    const s = runs[0]!.scheduled[i]!;
    const own = runs.flatMap((run) => run.scheduled[i]!.ms);
    const ratio = acrossRounds(runs.map((run) => ratioOfMedians(run.naive.ms, run.scheduled[i]!.ms)));
    lines.push({
      bench: "vision-scheduler", variant: "scheduled", budget: raysPerTick === Infinity ? "Infinity" : raysPerTick,
      guards: G, players: P, walls: 1000, rangeM: RANGE, ticks, rounds,
      msPerTick: { median: round(percentile([...own], 0.5)), p99: round(percentile(own, 0.99)) },
      raysPerTick: { median: percentile([...s.rays], 0.5), max: Math.max(...s.rays) },
      naiveOverOurs: ratio.median,
      naiveOverOursByRound: ratio.byRound,
      naiveOverOursSpread: ratio.spread,
      detectionLatencyTicks: s.latency.summary(),
      maxBacklogStaleness: s.maxStaleness,
      stalenessBound: s.bound,
      blockerCache: { settled: s.cacheHits, stillBlocked: s.stillBlocked, rate: round(s.cacheHits / Math.max(1, s.stillBlocked)) },
    });
  });
  return lines;
}

/** One interleaved loop of the naive pass and every budget, on fresh copies of the level. */
function interleavedRound(truth: Uint8Array[], ticks: number, seed: number) {
  const naiveLevel = freshLevel();
  const naivePass = new NaivePass(naiveLevel, RANGE, FOV / 2);
  const naive = { ms: [] as number[], rays: [] as number[] };
  const sides: InterleavedSide[] = [{
    prepare: () => stepBenchLevel(naiveLevel),
    step: () => { naive.rays.push(naivePass.run()); },
  }];
  const scheduled = BUDGETS.map((raysPerTick) => {
    const level = freshLevel();
    const vision = makeVision(level, { raysPerTick });
    const s = {
      vision, ms: [] as number[], rays: [] as number[],
      latency: new Latency(G * P), seen: new Uint8Array(G * P),
      cacheHits: 0, stillBlocked: 0, maxStaleness: 0, bound: 0,
    };
    let report: ReturnType<VisionSystem["tick"]> | null = null;
    sides.push({
      prepare: () => stepBenchLevel(level),
      step: () => {
        pushPoses(level, vision);
        report = vision.tick();
      },
      after: (tick) => {
        const r = report!;
        s.rays.push(r.rays);
        s.cacheHits += r.blockerCacheHits;
        s.stillBlocked += r.stillBlocked;
        s.maxStaleness = Math.max(s.maxStaleness, r.staleness.max);
        s.bound = vision.stalenessBound();
        fill(level, vision, s.seen);
        s.latency.observe(tick, truth[tick]!, s.seen);
      },
    });
    return s;
  });
  const ms = interleave(sides, { ticks, turn: TURN, seed });
  naive.ms = ms[0]!;
  scheduled.forEach((s, i) => {
    s.ms = ms[i + 1]!;
    s.vision.dispose();
  });
  return { naive, scheduled };
}

/** Seed of the interleaved loop's order. */
const ORDER_SEED = 11;
/** Rounds of the interleaved loop, each on fresh copies of the level. */
const ROUNDS = 5;
/** Ticks a side runs per turn: a 20-tick turn of the naive pass is about 0.4 s. */
const TURN = 20;

/** The fairness variant's round trip and interpolation delay, ms: the screen is this far behind. */
const FAIR_LAG_MS = 120 + 100;

/**
 * What the fairness mode adds to the reference room's tick (poses in, vision tick, awareness step): four
 * replays of the same trajectory, built off, on, on, off and stepped tick by tick in a rotating order
 * (which of two identical rooms is built first moves its tick by a few percent), pooled per variant. With
 * the mode on, every guard's pose goes into a `PoseHistory` each tick and the model asks a `SeenOnScreen`
 * about each sighting that would raise a meter below full, every player's screen 220 ms behind (a 120 ms
 * round trip and 100 ms of interpolation). Target: on over off at most 1.20.
 */
export function fairnessOverhead(): void {
  const rooms = [false, true, true, false].map((on) => fairRoom(on));
  const ms = rooms.map(() => [] as number[]);
  for (let tick = 0; tick < TICKS; tick++) {
    for (let k = 0; k < rooms.length; k++) {
      const i = (k + tick) % rooms.length;
      const t0 = performance.now();
      rooms[i]!.tick(tick);
      if (tick >= WARM_UP_TICKS) ms[i]!.push(performance.now() - t0);
    }
  }
  const pooled = (on: boolean) => rooms.flatMap((r, i) => (r.on === on ? ms[i]! : []));
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const [off, on] = [pooled(false), pooled(true)];
  const fair = rooms.find((r) => r.on)!.fair!.counts;
  console.log(JSON.stringify({
    bench: "vision-scheduler", variant: "fairness", budget: 256, guards: 1024, players: 64, ticks: TICKS, screenLagMs: FAIR_LAG_MS,
    msPerTick: { off: round(sum(off) / off.length), on: round(sum(on) / on.length), offMedian: round(percentile([...off], 0.5)), onMedian: round(percentile([...on], 0.5)) },
    ratio: round(sum(on) / sum(off)),
    ratioOfMedians: round(percentile([...on], 0.5) / percentile([...off], 0.5)),
    checksPerTick: round(fair.checked / TICKS), refusedPerTick: round(fair.refused / TICKS), raysPerCheck: round(fair.rays / Math.max(1, fair.checked)), reusedPerTick: round(fair.reused / TICKS),
    target: "on <= 1.20x off", holds: sum(on) / sum(off) <= 1.2,
  }));
}

/** One replay of the reference room with awareness, and with the fairness mode when `on`. */
function fairRoom(on: boolean) {
  const level = freshLevel();
  const vision = makeVision(level, {});
  const history = new PoseHistory();
  let now = 0;
  const fair = on ? new SeenOnScreen(vision, { now: () => now, renderTimeOf: () => now - FAIR_LAG_MS, poseAt: (id, t, out) => history.poseAt(id, t, out) }) : null;
  const awareness = new AwarenessModel(fair === null ? {} : { check: fair });
  return {
    on, fair,
    tick(tick: number): void {
      stepBenchLevel(level);
      now = tick * TICK_SECONDS * 1000;
      pushPoses(level, vision);
      if (on) for (const g of level.guards) history.record(g.id, now, g.x, g.y, g.facing);
      vision.tick();
      awareness.step(tick, TICK_SECONDS, vision.sightings());
    },
  };
}

/**
 * Awareness on top of the scheduled engine at the default budget: the same replay, timing vision (poses in,
 * tick) and awareness (sightings out, one model step) separately every tick. The replay runs twice, each on
 * a fresh level, and the second is the one reported: by then the vision code is warm (the variants above ran
 * it), but in its first run in a process the model still compiles paths that first run tens of ticks in (the
 * first lost target, the first search, the first compaction), well past the warm-up ticks left out. The
 * first run's ratio is printed too.
 */
function awarenessOverhead(): void {
  const first = awarenessReplay();
  const { visionMs, awarenessMs, sightings, events, raysCast } = awarenessReplay();
  console.log(JSON.stringify({
    bench: "vision-scheduler", variant: "awareness", budget: 256, guards: 1024, players: 64, ticks: TICKS,
    visionMsPerTick: { median: round(percentile([...visionMs], 0.5)) },
    // The engine's own count over the replay, so the vision time above comes with the rays it paid for.
    raysCastPerTick: round(raysCast / TICKS),
    awarenessMsPerTick: { median: round(percentile([...awarenessMs], 0.5)), p99: round(percentile([...awarenessMs], 0.99)) },
    sightingsPerTick: round(sightings / TICKS),
    eventsPerTick: round(events / TICKS),
    // What awareness adds to a scheduled vision tick: total over total, and median over median, after warm-up.
    addedToVision: round(sumAfterWarmUp(awarenessMs) / sumAfterWarmUp(visionMs)),
    addedToVisionByMedians: round(percentile(awarenessMs.slice(WARM_UP_TICKS), 0.5) / percentile(visionMs.slice(WARM_UP_TICKS), 0.5)),
    firstRunAddedToVision: round(sumAfterWarmUp(first.awarenessMs) / sumAfterWarmUp(first.visionMs)),
  }));
}

/** The first ticks of a replay are JIT warm-up: left out of the ratios. */
const WARM_UP_TICKS = 30;

function sumAfterWarmUp(ms: number[]): number {
  return ms.slice(WARM_UP_TICKS).reduce((a, b) => a + b, 0);
}

/** One replay of the reference room with an awareness model on top; per-tick vision and awareness times, and the rays cast. */
function awarenessReplay() {
  const level = freshLevel();
  const vision = makeVision(level, {});
  const awareness = new AwarenessModel();
  const visionMs: number[] = [];
  const awarenessMs: number[] = [];
  let sightings = 0;
  let events = 0;
  for (let tick = 0; tick < TICKS; tick++) {
    stepBenchLevel(level);
    const t0 = performance.now();
    pushPoses(level, vision);
    vision.tick();
    const t1 = performance.now();
    const seen = vision.sightings();
    events += awareness.step(tick, TICK_SECONDS, seen).length;
    const t2 = performance.now();
    visionMs.push(t1 - t0);
    awarenessMs.push(t2 - t1);
    sightings += seen.length;
  }
  const raysCast = vision.raysCast;
  vision.dispose();
  return { visionMs, awarenessMs, sightings, events, raysCast };
}

function freshLevel(): BenchLevel {
  return buildBenchLevel({ seed: 4242, walls: 1000, guards: 1024, players: 64, size: 200 });
}

/** The exact answer per tick: a full, cache-free, hysteresis-free pass; one bitmap of pairs per tick. */
function recordTruth(ticks: number): Uint8Array[] {
  const level = freshLevel();
  const oracle = makeVision(level, { raysPerTick: Infinity, loseRangeMargin: 0, loseAngleMargin: 0, blockerCache: false });
  const out: Uint8Array[] = [];
  for (let tick = 0; tick < ticks; tick++) {
    stepBenchLevel(level);
    pushPoses(level, oracle);
    oracle.tick();
    const t = new Uint8Array(level.guards.length * level.players.length);
    fill(level, oracle, t);
    out.push(t);
  }
  oracle.dispose();
  return out;
}

function makeVision(level: BenchLevel, options: ConstructorParameters<typeof VisionSystem>[1]): VisionSystem {
  const v = new VisionSystem(level.world, { opaqueMask: WALL, ...options });
  for (const g of level.guards) v.addObserver(g.id, { position: g, facing: g.facing, range: RANGE, fov: FOV, body: g.body });
  for (const p of level.players) v.addObservable(p.id, { position: p, radius: level.playerRadius, body: p.body });
  return v;
}

function pushPoses(level: BenchLevel, v: VisionSystem): void {
  for (const g of level.guards) v.moveObserver(g.id, g.x, g.y, g.facing);
  for (const p of level.players) v.moveObservable(p.id, p.x, p.y);
}

/** out[g * P + p] = 1 when guard g's last result includes player p. */
function fill(level: BenchLevel, v: VisionSystem, out: Uint8Array): void {
  out.fill(0);
  const players = level.players.length;
  const playerIndex = new Map(level.players.map((p, i) => [p.id, i]));
  level.guards.forEach((g, gi) => {
    for (const id of v.visibleTo(g.id)) out[gi * players + playerIndex.get(id)!] = 1;
  });
}

/** Detection latency per visibility episode of each pair. */
class Latency {
  /** Tick the current truly-visible episode began, -1 when none, -2 when already detected. */
  private readonly since: Int32Array;
  private readonly latencies: number[] = [];
  private neverDetected = 0;
  private episodes = 0;

  constructor(pairs: number) {
    this.since = new Int32Array(pairs).fill(-1);
  }

  observe(tick: number, truth: Uint8Array, seen: Uint8Array): void {
    const since = this.since;
    for (let i = 0; i < since.length; i++) {
      if (truth[i] === 1) {
        if (since[i] === -1) {
          since[i] = tick;
          this.episodes++;
        }
        if (since[i]! >= 0 && seen[i] === 1) {
          this.latencies.push(tick - since[i]!);
          since[i] = -2;
        }
      } else if (since[i] !== -1) {
        if (since[i]! >= 0) this.neverDetected++;
        since[i] = -1;
      }
    }
  }

  summary() {
    const l = this.latencies;
    return {
      episodes: this.episodes,
      detected: l.length,
      p50: percentile(l, 0.5),
      p99: percentile(l, 0.99),
      max: l.length === 0 ? 0 : Math.max(...l),
      neverDetected: this.neverDetected,
    };
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
