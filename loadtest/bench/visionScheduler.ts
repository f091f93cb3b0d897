/**
 * vision-scheduler: the reference room (1024 guards, 64 players, 1000 walls, 30 m range, 90 degree cones,
 * everyone moving every tick at 20 Hz, 300 ticks, seeded). In one run, on the same poses each tick:
 *  - naive: the seeds' full per-tick loop (see naivePass.ts);
 *  - the scheduled engine at several ray budgets (default options otherwise);
 *  - an exact oracle, untimed: a full, cache-free, hysteresis-free pass, giving what is truly visible.
 * For each: CPU ms per tick (median, p99), tree rays per tick, and detection latency: ticks from the tick a
 * pair becomes truly visible to the first tick `canSee` says so (0 = the same tick), p50/p99/max, plus
 * the glimpses never detected before they ended.
 */
import { VisionSystem } from "../../server/vision/index.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { NaivePass } from "./naivePass.js";
import { percentile } from "./percentile.js";

const RANGE = 30;
const FOV = Math.PI / 2;
const TICKS = 300;
const BUDGETS = [96, 128, 192, 256, 512, Infinity];

export async function visionSchedulerBench(): Promise<void> {
  const level = buildBenchLevel({ seed: 4242, walls: 1000, guards: 1024, players: 64, size: 200 });
  const G = level.guards.length;
  const P = level.players.length;
  const oracle = makeVision(level, { raysPerTick: Infinity, loseRangeMargin: 0, loseAngleMargin: 0, blockerCache: false });
  const runs = BUDGETS.map((raysPerTick) => ({
    raysPerTick,
    vision: makeVision(level, { raysPerTick }),
    ms: [] as number[],
    rays: [] as number[],
    cacheHits: 0,
    stillBlocked: 0,
    maxStaleness: 0,
    latency: new Latency(G * P),
  }));
  const naive = new NaivePass(level, RANGE, FOV / 2);
  const naiveMs: number[] = [];
  const naiveRays: number[] = [];
  const truth = new Uint8Array(G * P);
  const seen = new Uint8Array(G * P);

  for (let tick = 0; tick < TICKS; tick++) {
    stepBenchLevel(level);
    let start = performance.now();
    naiveRays.push(naive.run());
    naiveMs.push(performance.now() - start);

    pushPoses(level, oracle);
    oracle.tick();
    fill(level, oracle, truth);

    for (const run of runs) {
      start = performance.now();
      pushPoses(level, run.vision);
      const report = run.vision.tick();
      run.ms.push(performance.now() - start);
      run.rays.push(report.rays);
      run.cacheHits += report.blockerCacheHits;
      run.stillBlocked += report.stillBlocked;
      run.maxStaleness = Math.max(run.maxStaleness, report.staleness.max);
      fill(level, run.vision, seen);
      run.latency.observe(tick, truth, seen);
    }
  }

  const naiveMedian = percentile([...naiveMs], 0.5);
  console.log(JSON.stringify({
    bench: "vision-scheduler", variant: "naive", guards: G, players: P, walls: 1000, rangeM: RANGE, ticks: TICKS,
    msPerTick: { median: round(naiveMedian), p99: round(percentile(naiveMs, 0.99)) },
    raysPerTick: percentile(naiveRays, 0.5),
  }));
  for (const run of runs) {
    const median = percentile([...run.ms], 0.5);
    const lat = run.latency.summary();
    console.log(JSON.stringify({
      bench: "vision-scheduler", variant: "scheduled", budget: run.raysPerTick === Infinity ? "Infinity" : run.raysPerTick,
      guards: G, players: P, walls: 1000, rangeM: RANGE, ticks: TICKS,
      msPerTick: { median: round(median), p99: round(percentile(run.ms, 0.99)) },
      raysPerTick: { median: percentile([...run.rays], 0.5), max: Math.max(...run.rays) },
      naiveOverOurs: round(naiveMedian / median),
      detectionLatencyTicks: lat,
      maxBacklogStaleness: run.maxStaleness,
      stalenessBound: run.vision.stalenessBound(),
      blockerCache: { settled: run.cacheHits, stillBlocked: run.stillBlocked, rate: round(run.cacheHits / Math.max(1, run.stillBlocked)) },
    }));
  }
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
  const P = level.players.length;
  const playerIndex = new Map(level.players.map((p, i) => [p.id, i]));
  level.guards.forEach((g, gi) => {
    for (const id of v.visibleTo(g.id)) out[gi * P + playerIndex.get(id)!] = 1;
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
