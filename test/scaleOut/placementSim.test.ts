import { describe, expect, it } from "vitest";
import { FITTED_COSTS } from "../../loadtest/placementSim/fittedCosts.js";
import { fitRecordedRuns } from "../../loadtest/placementSim/costFit.js";
import { DEFAULT_MAX_ROOMS, runMatrix } from "../../loadtest/placementSim/matrix.js";
import { workload, type ScenarioName } from "../../loadtest/placementSim/scenarios.js";
import { parseSimArgs } from "../../loadtest/placementSim/simArgs.js";
import { simulate, type Rule, type RunSettings } from "../../loadtest/placementSim/simulation.js";
import { DEFAULT_SATURATION as SATURATION, pickProcess } from "../../server/scaleOut/placement.js";
import type { ProcessLoad } from "../../server/scaleOut/processLoad.js";

const model = FITTED_COSTS.model;
const SEEDS = [1, 2, 3, 4, 5];

function replay(scenario: ScenarioName, processes: number, rule: Rule, seed = 1, settings: Partial<RunSettings> = {}) {
  return simulate(workload(scenario, processes, seed), model, { rule, publishMs: 1000, maxRooms: DEFAULT_MAX_ROOMS, seed, ...settings });
}

/** In how many of the seeds `better` holds for our placement against Colyseus's. */
function seedsWhere(scenario: ScenarioName, processes: number, better: (ours: number, theirs: number) => boolean, publishMs = 1000): number {
  return SEEDS.filter((seed) => {
    const ours = replay(scenario, processes, "load", seed, { publishMs }).busiestCpuPercent.p99;
    const theirs = replay(scenario, processes, "rooms", seed, { publishMs }).busiestCpuPercent.p99;
    return better(ours, theirs);
  }).length;
}

describe("the placement simulator replays from a seed", () => {
  it("a small matrix gives the same bytes twice", () => {
    const options = { seed: 7, scenarios: ["steady", "skewed", "burst", "ramp", "alternating"] as const, processes: [2, 8], publishMs: [250, 5000] };
    const first = [...runMatrix(options)];
    expect(first).toHaveLength(5 * 2 * 2 * 2);
    expect([...runMatrix(options)]).toEqual(first);
    expect(JSON.parse(first[0]!)).toMatchObject({ scenario: "steady", processes: 2, rule: "load", publishMs: 250, seed: 7 });
  });

  it("Colyseus's rule reads no load report, so the publish interval changes nothing for it", () => {
    const lines = [...runMatrix({ seed: 3, scenarios: ["burst"], processes: [8], publishMs: [250, 5000], rules: ["rooms"] })];
    expect(lines[0]!.replace('"publishMs":250', '"publishMs":5000')).toBe(lines[1]);
  });
});

describe("the cost model", () => {
  it("the committed coefficients are a fresh fit of the recorded runs they name (runs recorded since do not change it)", () => {
    expect(fitRecordedRuns(undefined, FITTED_COSTS.fittedOn.upTo)).toEqual(FITTED_COSTS);
  });

  it("fits the recorded processes' CPU well enough to compare placements, and their lag loosely", () => {
    expect(FITTED_COSTS.fittedOn.records).toBeGreaterThanOrEqual(300);
    expect(FITTED_COSTS.fittedOn.cpu.rSquared).toBeGreaterThan(0.85);
    expect(FITTED_COSTS.fittedOn.lag.rSquaredLog).toBeGreaterThan(0.5);
  });
});

describe("the simulator runs the server's own rules", () => {
  it("a process at the saturation thresholds the simulator judges by is refused by pickProcess, just below them it is not", () => {
    const candidates = [
      { processId: "a", roomCount: 1 },
      { processId: "b", roomCount: 1 },
    ];
    const load = (processId: string, figures: Partial<ProcessLoad>): ProcessLoad => ({ processId, at: 0, busy: 0, lagP99Ms: 0, ccu: 0, rooms: 1, guards: 0, weight: 1, absorbed: 0, draining: false, ...figures });
    const pick = (a: Partial<ProcessLoad>) => pickProcess(candidates, new Map([["a", load("a", a)], ["b", load("b", { weight: 100 })]]), new Map());
    expect(pick({ busy: SATURATION.busy })).toBe("b");
    expect(pick({ busy: SATURATION.busy - 0.001 })).toBe("a");
    expect(pick({ lagP99Ms: SATURATION.lagP99Ms })).toBe("b");
    expect(pick({ lagP99Ms: SATURATION.lagP99Ms - 0.1 })).toBe("a");
  });
});

describe("where the rooms go", () => {
  it("the recorded skewed runs replay: on two processes Colyseus's rule stacks the heavy rooms near 85% of a core, ours splits them under 70%", () => {
    // Recorded (`--guards 8,256`, 16 rooms): the default's heavy process at 80-94% of a core, ours at 55-69%.
    const theirs = replay("alternating", 2, "rooms");
    const ours = replay("alternating", 2, "load");
    expect(theirs.busiestCpuPercent.p99).toBeGreaterThan(80);
    expect(theirs.busiestCpuPercent.p99).toBeLessThan(94);
    expect(ours.busiestCpuPercent.p99).toBeGreaterThan(55);
    expect(ours.busiestCpuPercent.p99).toBeLessThan(70);
  });

  it("with a skewed mix on 8 processes, ours keeps the busiest process's p99 CPU lower in at least 4 of 5 seeds, and in 5 of 5 on 32", () => {
    expect(seedsWhere("skewed", 8, (ours, theirs) => ours < theirs)).toBeGreaterThanOrEqual(4);
    expect(seedsWhere("skewed", 32, (ours, theirs) => ours < theirs)).toBe(5);
  });

  it("a burst through stale room counts piles rooms past the cap with Colyseus's rule; ours refuses none", () => {
    const theirs = replay("burst", 32, "rooms");
    const ours = replay("burst", 32, "load");
    expect(theirs.roomsRefused).toBeGreaterThan(0);
    expect(ours.roomsRefused).toBe(0);
    expect(ours.saturatedSeconds.processSum).toBeLessThan(theirs.saturatedSeconds.processSum);
  });

  it("in bursts on 8 processes, reports every 5 s instead of every 250 ms move ours's busiest p99 by under 10 points of a core, in every seed: the tally carries a burst", () => {
    for (const seed of SEEDS) {
      const stale = replay("burst", 8, "load", seed, { publishMs: 5000 }).busiestCpuPercent.p99;
      const fresh = replay("burst", 8, "load", seed, { publishMs: 250 }).busiestCpuPercent.p99;
      expect(Math.abs(stale - fresh)).toBeLessThan(10);
    }
  });

  it("a draining process receives no room, by either rule", () => {
    for (const rule of ["load", "rooms"] as const) {
      const run = replay("skewed", 8, rule, 1, { draining: new Set([3]) });
      expect(run.createdPerProcess[3]).toBe(0);
      expect(run.roomsCreated).toBe(run.roomsRequested);
    }
  });

  it("uniform rooms created in turn land evenly by either rule on two processes", () => {
    for (const rule of ["load", "rooms"] as const) {
      const line = JSON.parse([...runMatrix({ seed: 1, scenarios: ["ramp"], processes: [2], publishMs: [1000], rules: [rule] })][0]!);
      expect(line.createdPerProcess).toEqual({ min: 6, max: 6 });
    }
  });
});

describe("its command line", () => {
  it("refuses what it cannot run, naming the option", () => {
    expect(() => parseSimArgs(["--processes", "2,x"])).toThrow(new RangeError('PlacementSimOptions.processes must be an integer in [1, 1024] (got "x")'));
    expect(() => parseSimArgs(["--publish-ms", "10"])).toThrow(new RangeError("PlacementSimOptions.publishMs must be an integer of milliseconds in [50, 60000] (got 10)"));
    expect(() => parseSimArgs(["--scenarios", "steady,steady"])).toThrow(/PlacementSimOptions.scenarios must list each value once/);
    expect(() => parseSimArgs(["--scenarios", "calm"])).toThrow(/PlacementSimOptions.scenarios must be one of "steady", /);
    expect(() => parseSimArgs(["--seed", "-1"])).toThrow(RangeError);
    expect(() => parseSimArgs(["--speed", "2"])).toThrow(RangeError);
    expect(parseSimArgs([])).toMatchObject({ seed: 1, processes: [2, 8, 32, 128], publishMs: [250, 1000, 3000, 5000] });
  });
});
