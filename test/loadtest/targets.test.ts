import { describe, expect, it } from "vitest";
import { summarize } from "../../loadtest/report/summary.js";
import { formatTable } from "../../loadtest/report/summaryTable.js";
import { missedTargets } from "../../loadtest/report/targets.js";
import { parseLoadTestArgs, type LoadTestOptions } from "../../loadtest/options.js";
import type { RunRecord } from "../../loadtest/loadRun.js";

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

/** A run of two processes without server figures, with these join timings from the bots and the probe. */
function crossRun(botsCross: number[], probe: RunRecord["probe"]): RunRecord {
  const options = parseLoadTestArgs(["--local", "--processes", "2", "--targets", "--clients", "4", "--no-server-stats", ...(probe === undefined ? [] : ["--join-probe", "4"])]) as LoadTestOptions;
  return {
    options, endpoint: "ws://127.0.0.1:1, ws://127.0.0.1:2", startedAt: "", aborted: false,
    clients: { target: 4, joined: 4, failed: 0, peak: 4, atEnd: 4, churned: 0, decoding: 1 }, joinFailures: [], roomIds: ["r1"],
    rampSeconds: 1, measuredSeconds: 10,
    traffic: { warm: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, end: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, framesOutWarm: 0, framesOutEnd: 0, clientSeconds: 40 },
    roundTripMs: { p50: 1, p99: 2, max: 3, samples: 10 }, views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] }, holdLimit: undefined,
    errors: { total: 0, counts: {}, examples: [] }, generator: { cpuPercentOfCore: 90, loopLagP99Ms: 80 }, servers: [], serverNote: "not polled",
    joins: { local: [5, 6], cross: botsCross },
    probe,
  } as unknown as RunRecord;
}

describe("the cross-process join target", () => {
  const slowBots = [8, 9, 10, 140];
  it("is held on the bots' joins when there is no join probe", () => {
    const s = summarize(crossRun(slowBots, undefined));
    expect(s.ok).toBe(false);
    expect(s.problems).toEqual([expect.stringContaining("cross-process join p99 140 ms (target < 100)")]);
  });

  it("is held on the join probe's joins when there is one, and the bots' figure is still printed", () => {
    const fast = summarize(crossRun(slowBots, { kind: "report", joins: { local: [4, 5, 6], cross: [7, 8, 9] }, failed: 0, failures: [], loopLagP99Ms: 0.4 }));
    expect(fast.ok, fast.problems.join("; ")).toBe(true);
    expect(fast.joinProbeMs).toMatchObject({ perSecond: 4, failed: 0, crossProcess: { p99: 9, samples: 3 }, local: { p99: 6, samples: 3 } });
    const table = formatTable(fast);
    expect(table).toMatch(/^  across processes\s+10 \/ 140 \/ 140 ms \(4\) \(timed on the bots' loop\)$/m);
    expect(table).toMatch(/^join probe p50 \/ p99 \/ max, same process\s+5 \/ 6 \/ 6 ms \(3\); 4 joins\/s, 0 failed/m);
    expect(table).toMatch(/^  across processes\s+8 \/ 9 \/ 9 ms \(3\) \(target p99 < 100\)$/m);

    const slow = summarize(crossRun([8], { kind: "report", joins: { local: [4], cross: [7, 130] }, failed: 0, failures: [], loopLagP99Ms: 0.4 }));
    expect(slow.problems).toEqual([expect.stringContaining("cross-process join p99 130 ms (join probe) (target < 100)")]);
  });

  it("a probe join that fails, or a probe that never reports, fails the run", () => {
    const failed = summarize(crossRun([8], { kind: "report", joins: { local: [4], cross: [7] }, failed: 2, failures: ["join of r1 through ws://127.0.0.1:2: no join within 10000 ms"], loopLagP99Ms: 0 }));
    expect(failed.problems).toEqual([expect.stringContaining("2 join(s) of the join probe failed")]);
    const lost = summarize(crossRun([8], { error: "the join probe did not report within 15 s" }));
    expect(lost.problems).toEqual([expect.stringContaining("join probe: the join probe did not report")]);
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
    const { formatSpread } = await import("../../loadtest/report/severalRuns.js");
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
