import { describe, expect, it } from "vitest";
import { acrossRounds, interleave, ratioOfMedians, type InterleavedSide } from "../../loadtest/bench/interleave.js";
import { summarize } from "../../loadtest/bench/visionPass.js";
import { measureRound } from "../../loadtest/bench/visionPassRound.js";
import { runVisionScheduler, schedulerTicksFrom } from "../../loadtest/bench/visionScheduler.js";

/** A side that writes what it was asked to do, in order, into `log`. */
function logging(name: string, log: string[]): InterleavedSide {
  return {
    prepare: (t) => log.push(`${name} prepare ${t}`),
    step: (t) => log.push(`${name} step ${t}`),
    after: (t) => log.push(`${name} after ${t}`),
  };
}

describe("peers timed side by side", () => {
  it("every side runs every tick in order, prepare, step, after, in turns of the given length", () => {
    const log: string[] = [];
    const ms = interleave([logging("a", log), logging("b", log), logging("c", log)], { ticks: 12, warmup: 3, turn: 5, seed: 3 });
    for (const name of ["a", "b", "c"]) {
      const own = log.filter((l) => l.startsWith(`${name} `));
      expect(own).toEqual(Array.from({ length: 15 }, (_, t) => [`${name} prepare ${t}`, `${name} step ${t}`, `${name} after ${t}`]).flat());
    }
    // A turn: one side's five ticks back to back (15 ticks in all: three turns each).
    const steps = log.filter((l) => l.includes(" step "));
    const turns: string[][] = [];
    for (let i = 0; i < steps.length; i += 5) turns.push(steps.slice(i, i + 5));
    for (const turn of turns) expect(new Set(turn.map((s) => s[0])).size).toBe(1);
    // Only the measured ticks are timed.
    expect(ms.map((m) => m.length)).toEqual([12, 12, 12]);
  });

  it("draws a fresh order every turn, not a fixed rotation", () => {
    const log: string[] = [];
    interleave(["a", "b", "c", "d"].map((n) => ({ step: () => log.push(n) })), { ticks: 40, seed: 7 });
    const orders = new Set<string>();
    for (let i = 0; i < log.length; i += 4) orders.add(log.slice(i, i + 4).join(""));
    // 24 orders exist; a rotation would show at most 4.
    expect(orders.size).toBeGreaterThan(8);
  });

  it("a ratio is median over median, and rounds give their median and spread", () => {
    const slow = [2, 4, 6, 8, 100];
    const fast = [1, 2, 3, 4, 5];
    expect(ratioOfMedians(slow, fast)).toBe(2);
    // The inputs are left as they were (the figures sort copies).
    expect(slow).toEqual([2, 4, 6, 8, 100]);
    expect(acrossRounds([10, 11, 9.5])).toEqual({ median: 10, byRound: [10, 11, 9.5], spread: 0.158 });
  });

  it("refuses what cannot be paired or stepped", () => {
    expect(() => ratioOfMedians([1, 2], [1])).toThrow(RangeError);
    expect(() => acrossRounds([])).toThrow(RangeError);
    expect(() => interleave([{ step: () => {} }], { ticks: 1, turn: 0 })).toThrow(/turn/);
    expect(() => schedulerTicksFrom({ BENCH_SCHEDULER_TICKS: "ten" })).toThrow(/BENCH_SCHEDULER_TICKS/);
    expect(schedulerTicksFrom({})).toBe(300);
  });
});

describe("npm run bench -- vision-scheduler", () => {
  it("times the naive pass and every budget in one loop, each ratio from the same ticks, in rounds", () => {
    const lines = runVisionScheduler(40, 2);
    expect(lines.map((l) => l.variant === "naive" ? "naive" : l.budget)).toEqual(["naive", 96, 128, 192, 256, 512, "Infinity"]);
    const naive = lines[0]!;
    expect(naive.msPerTickByRound as number[]).toHaveLength(2);
    for (const l of lines.slice(1)) {
      expect(l.ticks).toBe(40);
      // The textbook pass casts every ray every tick; a budget caps the engine's.
      expect((l.raysPerTick as { median: number }).median).toBeLessThan(naive.raysPerTick as number);
      const byRound = l.naiveOverOursByRound as number[];
      expect(byRound).toHaveLength(2);
      expect(l.naiveOverOurs).toBeCloseTo((byRound[0]! + byRound[1]!) / 2, 2);
      expect(l.naiveOverOursSpread).toBeCloseTo(Math.max(...byRound) / Math.min(...byRound) - 1, 2);
      // Every budget was checked against the oracle's truth on its own copy of the same trajectory.
      expect((l.detectionLatencyTicks as { episodes: number }).episodes).toBeGreaterThan(0);
    }
    // The unlimited budget sees every truly visible pair the tick it becomes visible.
    expect((lines[6]!.detectionLatencyTicks as { max: number; neverDetected: number })).toMatchObject({ max: 0, neverDetected: 0 });
  }, 60_000);
});

describe("npm run bench -- vision-pass", () => {
  it("a round compares ours with the naive pass and the floor on the same passes, and rounds make one line", () => {
    const cfg = { guards: 64, players: 64, walls: 1000, range: 15 };
    const rounds = [measureRound(cfg), measureRound(cfg)];
    for (const r of rounds) {
      expect(r.t.ours.ms).toHaveLength(r.passes);
      expect(r.t.naive.ms).toHaveLength(r.passes);
      // The floor casts exactly the rays ours cast; the naive pass casts at least as many.
      expect(r.t.floor.rays).toEqual(r.t.ours.rays);
      expect(r.pairsCompared).toBe(r.passes * 64 * 64 + 5 * 64 * 64);
    }
    const line = summarize(cfg, rounds);
    expect(line.rounds).toBe(2);
    expect(line.naiveOverOursByRound).toHaveLength(2);
    expect(line.naiveOverOurs).toBeCloseTo((line.naiveOverOursByRound[0]! + line.naiveOverOursByRound[1]!) / 2, 2);
    expect(line.agreement.pairs).toBe(rounds[0]!.pairsCompared * 2);
    expect(line.naive.rays).toBeGreaterThanOrEqual(line.ours.rays);
  }, 60_000);
});
