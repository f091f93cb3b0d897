import { describe, expect, it } from "vitest";
import { missedTargets } from "../../loadtest/summary.js";
import { parseLoadTestArgs } from "../../loadtest/options.js";

const figures = (patchMin: number, lagP99: number, heap: number | null, joinP99 = 2, lagMax = lagP99) => ({
  joinMs: { p50: 1, p99: joinP99, max: joinP99, joins: 25 },
  patchRatePerRoom: { min: patchMin, p50: patchMin },
  loopLagMs: { p99: lagP99, worstWindowP99: lagP99, p99Median: lagP99, max: lagMax, windows: 10 },
  heapGrowthPercent: heap,
});

describe("load-test targets", () => {
  it("a run held to the targets fails on each one it misses, named with its figure", () => {
    expect(missedTargets(figures(19.8, 14, 1.5) as never)).toEqual([]);
    const missed = missedTargets(figures(16.05, 156.33, 12) as never);
    expect(missed).toHaveLength(3);
    expect(missed[0]).toContain("patch rate 16.05 per s");
    expect(missed[1]).toContain("event-loop lag p99 156.33 ms (target <= 25)");
    expect(missed[2]).toContain("live heap growth 12%");
    // Too few major GCs to judge the heap: not a miss.
    expect(missedTargets(figures(19.5, 20, null) as never)).toEqual([]);
    expect(missedTargets(figures(19.5, 20, null, 7.5) as never)).toEqual([expect.stringContaining("join on the loop p99 7.5 ms")]);
    // A stall over 100 ms fails a soak (a run with churn), not a capacity run.
    expect(missedTargets(figures(19.5, 20, null, 2, 140) as never, false)).toEqual([]);
    expect(missedTargets(figures(19.5, 20, null, 2, 140) as never, true)).toEqual([expect.stringContaining("stall of 140 ms")]);
  });

  it("only the runs that ask for it are held to the targets", () => {
    const base = ["--local", "--clients", "4"];
    expect((parseLoadTestArgs(base) as { targets: boolean }).targets).toBe(false);
    expect((parseLoadTestArgs([...base, "--targets"]) as { targets: boolean }).targets).toBe(true);
  });
});

describe("several runs side by side", () => {
  const run = (patchMin: number, lagP99: number, ok: boolean) => ({
    ok,
    problems: [],
    options: { targets: true, churn: 0 },
    traffic: { bytesPerClientPerSecond: 3000 },
    errors: { total: 0 },
    server: {
      ...figures(patchMin, lagP99, null),
      cpuPercentOfCore: 80,
      tickMs: { p50: 1.8, p99: 5, max: 9 },
      culling: { leaks: 0, popIns: 0, misses: 0 },
    },
  });

  it("reports the median and the worst of each figure, and a target met in some runs as met in K of N", async () => {
    const { formatSpread } = await import("../../loadtest/spread.js");
    const text = formatSpread([run(19.8, 14, true), run(16.1, 156, false), run(19.5, 22, true)] as never);
    expect(text).toMatch(/patch rate per room, slowest room\s+19\.5 \/ 16\.1\s+\(19\.8, 16\.1, 19\.5\)/);
    expect(text).toMatch(/event-loop lag p99 over the run, ms\s+22 \/ 156/);
    expect(text).toMatch(/target: patch rate\s+met in 2 of 3 runs/);
    expect(text).toMatch(/target: event-loop lag p99\s+met in 2 of 3 runs/);
    expect(text).toMatch(/target: join on the loop\s+met in 3 of 3 runs/);
    // Not a soak, and the heap could not be judged: those targets are not listed.
    expect(text).not.toMatch(/target: stall|target: live heap/);
  });
});
