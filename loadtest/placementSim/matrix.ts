import type { CostModel } from "./costModel.js";
import { FITTED_COSTS } from "./fittedCosts.js";
import { reportLine } from "./report.js";
import { workload, type ScenarioName } from "./scenarios.js";
import { RULES, simulate, type Rule } from "./simulation.js";

/** Which replays to run: every combination of the lists. */
export interface MatrixOptions {
  seed: number;
  scenarios: readonly ScenarioName[];
  processes: readonly number[];
  /** Publish intervals, ms. */
  publishMs: readonly number[];
  /** @default ["load", "rooms"] */
  rules?: readonly Rule[];
  /** @default 64, the server's `MAX_ROOMS` default */
  maxRooms?: number;
  /** @default the committed fit (`fittedCosts.ts`) */
  model?: CostModel;
}

/** The server's room cap when `MAX_ROOMS` is not set (server/index.ts). */
export const DEFAULT_MAX_ROOMS = 64;

/**
 * One report line per (scenario, processes, rule, publish interval), in that nesting order. Each
 * (scenario, processes) workload is drawn once, so every rule and interval replays the same rooms.
 */
export function* runMatrix(options: MatrixOptions): Generator<string> {
  const model = options.model ?? FITTED_COSTS.model;
  for (const scenario of options.scenarios) {
    for (const processes of options.processes) {
      const work = workload(scenario, processes, options.seed);
      for (const rule of options.rules ?? RULES) {
        for (const publishMs of options.publishMs) {
          const result = simulate(work, model, { rule, publishMs, maxRooms: options.maxRooms ?? DEFAULT_MAX_ROOMS, seed: options.seed });
          yield reportLine({ scenario, processes, rule, publishMs, seed: options.seed }, result);
        }
      }
    }
  }
}
