/**
 * One round of the vision-pass bench (see visionPass.ts), in a process of its own: every configuration on
 * a level and engines built in this process, its per-pass times and answers printed as one JSON line per
 * configuration. Run by `visionPassBench`, not by hand.
 */
import { fileURLToPath } from "node:url";
import { Vec2, type Fixture } from "planck";
import { LineOfSight, VisionSystem } from "sightline";
import { seededRandom } from "../../shared/seededRandom.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { NaivePass } from "./naivePass.js";

const HALF_ANGLE = Math.PI / 4;
const WARMUP = 5;

interface Timings { ms: number[]; rays: number[] }

export type Config = { guards: number; players: number; walls: number; range: number };

/** The configurations, in the order printed. */
export const CONFIGS: readonly Config[] = [15, 30].flatMap((range) => [64, 256, 1024].map((guards) => ({ guards, players: 64, walls: 1000, range })));

/** What one round of one configuration measured. */
export type RoundResult = ReturnType<typeof measureRound>;

/** One round of a configuration: every pass's times and the answers compared. */
export function measureRound(cfg: Config) {
  // Small passes are noisy: give them more samples for the median.
  const PASSES = cfg.guards <= 64 ? 120 : cfg.guards <= 256 ? 60 : 30;
  const random = seededRandom(cfg.guards + cfg.range);
  const level = buildBenchLevel({ seed: 1234 + cfg.guards, walls: cfg.walls, guards: cfg.guards, players: cfg.players, size: 200 });
  // A full pass, every pair every tick: no budget, no hysteresis, no blocker cache (vision-scheduler measures those).
  const vision = new VisionSystem(level.world, {
    opaqueMask: WALL, recordRays: true, raysPerTick: Infinity, loseRangeMargin: 0, loseAngleMargin: 0, blockerCache: false,
  });
  for (const g of level.guards) {
    vision.addObserver(g.id, { position: g, facing: g.facing, range: cfg.range, fov: 2 * HALF_ANGLE, body: g.body });
  }
  for (const p of level.players) {
    vision.addObservable(p.id, { position: p, radius: level.playerRadius, body: p.body });
  }
  const los = new LineOfSight(level.world, WALL);
  const naive = new NaivePass(level, cfg.range, HALF_ANGLE);
  const t = { naive: timings(), ours: timings(), floor: timings(), los: timings() };
  let pairsCompared = 0;
  let mismatches = 0;
  let floorDisagreements = 0;

  for (let pass = 0; pass < WARMUP + PASSES; pass++) {
    stepBenchLevel(level);
    const keep = pass >= WARMUP;

    // Ours and the naive pass go first in turn, by a fair coin each pass: in a fixed order, the first after
    // the level moved always met the caches that move left, and the naive pass's garbage was always
    // collected during the next. The floor and the in-situ price replay the rays ours cast this pass, so
    // they follow it, in their own coin-flipped order.
    let oursMs = 0;
    let naiveMs = 0;
    let naiveRays = 0;
    let report!: ReturnType<VisionSystem["tick"]>;
    const runOurs = () => {
      const start = performance.now();
      for (const g of level.guards) vision.moveObserver(g.id, g.x, g.y, g.facing);
      for (const p of level.players) vision.moveObservable(p.id, p.x, p.y);
      report = vision.tick();
      oursMs = performance.now() - start;
    };
    const runNaive = () => {
      const start = performance.now();
      naiveRays = naive.run();
      naiveMs = performance.now() - start;
    };
    if (random() < 0.5) { runOurs(); runNaive(); } else { runNaive(); runOurs(); }

    const log = vision.rayLog!;
    let floorMs = 0;
    let losMs = 0;
    let floorBlocked = 0;
    let losBlocked = 0;
    const runFloor = () => {
      const start = performance.now();
      floorBlocked = floorPass(level, log);
      floorMs = performance.now() - start;
    };
    const runLos = () => {
      const start = performance.now();
      for (let i = 0; i < log.count; i++) {
        if (los.blocked(log.at(i, 0), log.at(i, 1), log.at(i, 2), log.at(i, 3), null, null, 1)) losBlocked++;
      }
      losMs = performance.now() - start;
    };
    if (random() < 0.5) { runFloor(); runLos(); } else { runLos(); runFloor(); }

    if (keep) {
      push(t.ours, oursMs, report.rays);
      push(t.naive, naiveMs, naiveRays);
      push(t.floor, floorMs, log.count);
      push(t.los, losMs, log.count);
    }
    // Same question, same answers: compare the naive pass's sightings with ours.
    for (let gi = 0; gi < level.guards.length; gi++) {
      const seen = vision.visibleTo(level.guards[gi]!.id);
      for (let pi = 0; pi < level.players.length; pi++) {
        pairsCompared++;
        if (naive.sees[gi * level.players.length + pi] !== (seen.has(level.players[pi]!.id) ? 1 : 0)) mismatches++;
      }
    }
    let logBlocked = 0;
    for (let i = 0; i < log.count; i++) if (log.at(i, 4) === 0) logBlocked++;
    if (floorBlocked !== logBlocked || losBlocked !== logBlocked) floorDisagreements++;
  }

  vision.dispose();
  return { t, passes: PASSES, pairsCompared, mismatches, floorDisagreements };
}

function timings(): Timings {
  return { ms: [], rays: [] };
}

function push(t: Timings, ms: number, rays: number): void {
  t.ms.push(ms);
  t.rays.push(rays);
}

/** The rays ours cast, through bare planck with an any-hit early-out. Returns how many were blocked. */
function floorPass(level: BenchLevel, log: { count: number; at(i: number, k: number): number }): number {
  const p1 = Vec2(0, 0);
  const p2 = Vec2(0, 0);
  let hit = false;
  const anyHit = (fixture: Fixture): number => {
    if (fixture.isSensor() || (fixture.getFilterCategoryBits() & WALL) === 0) return -1;
    hit = true;
    return 0;
  };
  let blocked = 0;
  for (let i = 0; i < log.count; i++) {
    p1.x = log.at(i, 0);
    p1.y = log.at(i, 1);
    p2.x = log.at(i, 2);
    p2.y = log.at(i, 3);
    hit = false;
    level.world.rayCast(p1, p2, anyHit);
    if (hit) blocked++;
  }
  return blocked;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Let the JIT see every path once, so the first configuration measured is not also the warm-up.
  measureRound({ guards: 256, players: 64, walls: 1000, range: 30 });
  for (const cfg of CONFIGS) console.log(JSON.stringify({ cfg, ...measureRound(cfg) }));
}
