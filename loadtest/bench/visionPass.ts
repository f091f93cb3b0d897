/**
 * vision-pass: one full "who sees whom" pass, G guards x P players in a level of W walls, everyone
 * moving every tick. Three ways side by side in the same run, on the same poses:
 *  - naive: the textbook per-frame loop: every pair gets hypot + atan2, then closest-hit `World.rayCast`
 *    rays to the same sample points with the same k-of-n rule (so it answers the same question);
 *  - ours:  `VisionSystem` (pose updates included) with `tick()` evaluating every observer;
 *  - floor: only the sight rays that had to be cast (exactly the ones ours cast this pass), through
 *    bare planck `World.rayCast` with an any-hit early-out: no candidate search, no cone test.
 * Also `losUs`: our LineOfSight on the floor's very segments, to price one ray in situ.
 */
import { Vec2, type Fixture } from "planck";
import { LineOfSight, VisionSystem } from "sightline";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { median } from "./percentile.js";
import { NaivePass } from "./naivePass.js";

const HALF_ANGLE = Math.PI / 4;
const WARMUP = 5;

export async function visionPassBench(): Promise<void> {
  // Let the JIT see every path once, so the first configuration measured is not also the warm-up.
  runOne({ guards: 256, players: 64, walls: 1000, range: 30 });
  for (const range of [15, 30]) {
    for (const guards of [64, 256, 1024]) {
      const line = runOne({ guards, players: 64, walls: 1000, range });
      console.log(JSON.stringify(line));
    }
  }
}

interface Timings { ms: number[]; rays: number[] }

function runOne(cfg: { guards: number; players: number; walls: number; range: number }) {
  // Small passes are noisy: give them more samples for the median.
  const PASSES = cfg.guards <= 64 ? 60 : cfg.guards <= 256 ? 30 : 15;
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

    let start = performance.now();
    for (const g of level.guards) vision.moveObserver(g.id, g.x, g.y, g.facing);
    for (const p of level.players) vision.moveObservable(p.id, p.x, p.y);
    const report = vision.tick();
    const oursMs = performance.now() - start;

    start = performance.now();
    const naiveRays = naive.run();
    const naiveMs = performance.now() - start;

    const log = vision.rayLog!;
    start = performance.now();
    const floorBlocked = floorPass(level, log);
    const floorMs = performance.now() - start;

    start = performance.now();
    let losBlocked = 0;
    for (let i = 0; i < log.count; i++) {
      if (los.blocked(log.at(i, 0), log.at(i, 1), log.at(i, 2), log.at(i, 3), null, null, 1)) losBlocked++;
    }
    const losMs = performance.now() - start;

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

  const naiveMs = median(t.naive.ms);
  const oursMs = median(t.ours.ms);
  const floorMs = median(t.floor.ms);
  const floorRays = median(t.floor.rays);
  return {
    bench: "vision-pass",
    guards: cfg.guards,
    players: cfg.players,
    walls: cfg.walls,
    rangeM: cfg.range,
    halfAngleDeg: 45,
    passes: PASSES,
    naive: { ms: round(naiveMs), rays: median(t.naive.rays) },
    ours: { ms: round(oursMs), rays: median(t.ours.rays) },
    floor: { ms: round(floorMs), rays: floorRays },
    naiveOverOurs: round(naiveMs / oursMs),
    oursOverFloor: round(oursMs / floorMs),
    planckUsPerRay: round((floorMs * 1000) / Math.max(1, floorRays)),
    losUsPerRay: round((median(t.los.ms) * 1000) / Math.max(1, median(t.los.rays))),
    agreement: { pairs: pairsCompared, mismatches, passesWhereFloorDisagreed: floorDisagreements },
  };
}

function timings(): Timings {
  return { ms: [], rays: [] };
}

function push(t: Timings, ms: number, rays: number): void {
  t.ms.push(ms);
  t.rays.push(rays);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
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
