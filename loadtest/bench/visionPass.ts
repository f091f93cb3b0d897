/**
 * vision-pass: one full "who sees whom" pass, G guards x P players in a level of W walls, everyone
 * moving every tick. Three ways side by side in the same run, on the same poses:
 *  - naive: the textbook per-frame loop: every pair gets hypot + atan2, then closest-hit `World.rayCast`
 *    rays to the same sample points with the same k-of-n rule (so it answers the same question);
 *  - ours:  `VisionSystem` (pose updates included) with `tick()` evaluating every observer;
 *  - floor: only the sight rays that had to be cast (exactly the ones ours cast this pass), through
 *    bare planck `World.rayCast` with an any-hit early-out: no candidate search, no cone test.
 * Also `losUs`: our LineOfSight on the floor's very segments, to price one ray in situ.
 *
 * Each pass, ours and naive go first by a coin flip (as do the floor and `losUs` after them). The passes
 * run in five rounds, each in a process of its own (`visionPassRound.ts`), one after the other: the same
 * code measured 1.33 and 1.62 ms a pass at 1024 guards in two processes, and the naive pass alike, while
 * rounds within one process agreed. Times are medians over every round's passes; a ratio is the median of
 * the rounds' ratios, each round's given too (`naiveOverOursByRound`).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { acrossRounds } from "./interleave.js";
import { median } from "./percentile.js";
import { CONFIGS, type Config, type RoundResult } from "./visionPassRound.js";

/** Rounds, each a process of its own. */
const ROUNDS = 5;

export async function visionPassBench(): Promise<void> {
  const rounds = Array.from({ length: ROUNDS }, (_, i) => {
    console.error(`  vision-pass round ${i + 1}/${ROUNDS}`);
    return runRound();
  });
  for (const [i, cfg] of CONFIGS.entries()) console.log(JSON.stringify(summarize(cfg, rounds.map((r) => r[i]!))));
}

/** One round in a child process (this process's Node and loader flags); its results by configuration, in {@link CONFIGS} order. */
function runRound(): RoundResult[] {
  const script = fileURLToPath(new URL("./visionPassRound.ts", import.meta.url));
  const child = spawnSync(process.execPath, [...process.execArgv, script], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`vision-pass round failed (exit ${child.status}): ${child.stderr}`);
  const lines = child.stdout.trim().split("\n").map((l) => JSON.parse(l) as { cfg: Config } & RoundResult);
  if (lines.length !== CONFIGS.length) throw new Error(`vision-pass round printed ${lines.length} configurations, expected ${CONFIGS.length}`);
  return lines;
}

/** A configuration's line from its rounds. */
export function summarize(cfg: Config, rounds: RoundResult[]) {
  const pooled = (side: "naive" | "ours" | "floor" | "los", what: "ms" | "rays") => median(rounds.flatMap((r) => r.t[side][what]));
  const ratio = (f: (r: RoundResult) => number) => acrossRounds(rounds.map(f));
  const naiveOverOurs = ratio((r) => median([...r.t.naive.ms]) / median([...r.t.ours.ms]));
  const oursOverFloor = ratio((r) => median([...r.t.ours.ms]) / median([...r.t.floor.ms]));
  const floorRays = pooled("floor", "rays");
  const sum = (f: (r: RoundResult) => number) => rounds.reduce((a, r) => a + f(r), 0);
  return {
    bench: "vision-pass",
    guards: cfg.guards,
    players: cfg.players,
    walls: cfg.walls,
    rangeM: cfg.range,
    halfAngleDeg: 45,
    passes: rounds[0]!.passes,
    rounds: rounds.length,
    naive: { ms: round(pooled("naive", "ms")), rays: pooled("naive", "rays") },
    ours: { ms: round(pooled("ours", "ms")), rays: pooled("ours", "rays") },
    floor: { ms: round(pooled("floor", "ms")), rays: floorRays },
    naiveOverOurs: naiveOverOurs.median,
    naiveOverOursByRound: naiveOverOurs.byRound,
    oursOverFloor: oursOverFloor.median,
    planckUsPerRay: round((pooled("floor", "ms") * 1000) / Math.max(1, floorRays)),
    losUsPerRay: round((pooled("los", "ms") * 1000) / Math.max(1, pooled("los", "rays"))),
    agreement: { pairs: sum((r) => r.pairsCompared), mismatches: sum((r) => r.mismatches), passesWhereFloorDisagreed: sum((r) => r.floorDisagreements) },
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
