/** Fitting the simulator's cost model on the recorded load-test runs (see `calibrate.ts`, which commits it). */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CostFit } from "./costModel.js";
import { leastSquares, predict } from "./leastSquares.js";
import { readProcessRecords, type ProcessRecord } from "./runRecords.js";

/** Where the recorded runs are. */
export const RESULTS_DIR = fileURLToPath(new URL("../../docs/results/", import.meta.url));

/**
 * The cost model fitted on `records`: CPU by least squares on rooms, guards and clients (no intercept: an
 * empty process costs the model nothing, so costs add up room by room); then ln(lag p99) on the process's
 * modelled CPU share and its heaviest room's, modelled with the CPU fit just made, as the simulator will
 * feed it. Logarithms, because lag grows faster than linearly with a room's step and no lag is negative.
 */
export function fitCosts(records: readonly ProcessRecord[], files: number, upTo: string): CostFit {
  const cpuFit = leastSquares(
    records.map((r) => [r.rooms, r.guards, r.clients]),
    records.map((r) => r.cpuPercent),
  );
  const [perRoom, perGuard, perClient] = cpuFit.coefficients as [number, number, number];
  const lagRows = records.map((r) => {
    const share = (perRoom * r.rooms + perGuard * r.guards + perClient * r.clients) / 100;
    const heaviest = (perRoom + perGuard * r.heaviestGuards + (perClient * r.clients) / r.rooms) / 100;
    return [1, share, heaviest];
  });
  const lagFit = leastSquares(
    lagRows,
    records.map((r) => Math.log(r.lagP99Ms)),
  );
  const [intercept, perShare, perHeaviestShare] = lagFit.coefficients as [number, number, number];
  let mean = 0;
  for (const r of records) mean += r.lagP99Ms / records.length;
  let residual = 0;
  let total = 0;
  let absolute = 0;
  records.forEach((r, i) => {
    const e = r.lagP99Ms - Math.exp(predict(lagFit.coefficients, lagRows[i]!));
    residual += e * e;
    absolute += Math.abs(e);
    total += (r.lagP99Ms - mean) ** 2;
  });
  return {
    model: { cpu: { perRoom, perGuard, perClient }, lag: { intercept, perShare, perHeaviestShare } },
    fittedOn: {
      files,
      upTo,
      records: records.length,
      cpu: { rSquared: cpuFit.rSquared, meanAbsErrorPercent: cpuFit.meanAbsError },
      lag: { rSquaredLog: lagFit.rSquared, rSquaredMs: 1 - residual / total, meanAbsErrorMs: absolute / records.length },
    },
  };
}

/**
 * A fresh fit of the runs recorded in `dir`: all of them, or those up to the file named `upTo` (to check a
 * committed fit against the runs it was made on, whatever has been recorded since).
 */
export function fitRecordedRuns(dir = RESULTS_DIR, upTo?: string): CostFit {
  const set = readProcessRecords(dir, upTo);
  const last = readdirSync(dir).filter((n) => n.endsWith(".json") && (upTo === undefined || n <= upTo)).sort().at(-1) ?? "";
  return fitCosts(set.records, set.files, last);
}

/** The source of `fittedCosts.ts` for `fit` (full precision: a fresh fit reproduces it to the bit). */
export function fittedCostsSource(fit: CostFit): string {
  return [
    "// Written by `npx tsx loadtest/placementSim/calibrate.ts` from docs/results: do not edit by hand.",
    'import type { CostFit } from "./costModel.js";',
    "",
    `export const FITTED_COSTS: CostFit = ${JSON.stringify(fit, null, 2)};`,
    "",
  ].join("\n");
}
