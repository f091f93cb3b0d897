import { round } from "../report/quantiles.js";
import type { ScenarioName } from "./scenarios.js";
import type { Rule, RunResult } from "./simulation.js";

/** What one output line names. */
export interface RunKey {
  scenario: ScenarioName;
  processes: number;
  rule: Rule;
  publishMs: number;
  seed: number;
}

/**
 * One JSON line for one replay: keys in a fixed order, busy shares to 3 decimals, CPU %, lag ms and seconds
 * to 1, so a line is the same bytes for the same seed on any machine. There is no count of rooms moved: a
 * Colyseus room lives on its process until it is disposed, by either rule.
 */
export function reportLine(key: RunKey, r: RunResult): string {
  const share = (v: number) => round(v, 3);
  const one = (v: number) => round(v, 1);
  return JSON.stringify({
    scenario: key.scenario,
    processes: key.processes,
    rule: key.rule,
    publishMs: key.publishMs,
    seed: key.seed,
    measuredSeconds: one(r.measuredSeconds),
    roomsRequested: r.roomsRequested,
    roomsCreated: r.roomsCreated,
    roomsRefused: r.roomsRefused,
    placedOnSaturated: r.placedOnSaturated,
    busiestBusy: { peak: share(r.busiestBusy.peak), p99: share(r.busiestBusy.p99) },
    busiestCpuPercent: { peak: one(r.busiestCpuPercent.peak), p99: one(r.busiestCpuPercent.p99) },
    busiestLagMs: { peak: one(r.busiestLagMs.peak), p99: one(r.busiestLagMs.p99) },
    spreadCpuPercent: { maxMinMean: one(r.spreadCpuPercent.maxMinMean), maxMinP99: one(r.spreadCpuPercent.maxMinP99), stdMean: one(r.spreadCpuPercent.stdMean) },
    saturatedSeconds: { anyProcess: one(r.saturatedSeconds.anyProcess), processSum: one(r.saturatedSeconds.processSum) },
    createdPerProcess: { min: Math.min(...r.createdPerProcess), max: Math.max(...r.createdPerProcess) },
  });
}
