/**
 * Fits the simulator's cost model on the recorded runs and writes it to `fittedCosts.ts`, so the simulator
 * itself never reads docs/results and replays the same from a seed whatever is recorded later:
 * `npx tsx loadtest/placementSim/calibrate.ts` (refit on every run recorded now) or `... --check` (exit 1
 * if the committed file is not a fresh fit of the runs it names, up to its `upTo`). The test holds the
 * committed coefficients to that fit too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fitRecordedRuns, fittedCostsSource } from "./costFit.js";
import { FITTED_COSTS } from "./fittedCosts.js";

const OUTPUT = fileURLToPath(new URL("./fittedCosts.ts", import.meta.url));

function main(args: readonly string[]): number {
  if (args.includes("--check")) {
    // The committed fit against the runs it names: those recorded since do not make it stale.
    const same = readFileSync(OUTPUT, "utf8") === fittedCostsSource(fitRecordedRuns(undefined, FITTED_COSTS.fittedOn.upTo));
    process.stdout.write(same ? "fittedCosts.ts is a fresh fit of the runs it names\n" : "fittedCosts.ts differs from a fresh fit of the runs it names\n");
    return same ? 0 : 1;
  }
  const source = fittedCostsSource(fitRecordedRuns());
  writeFileSync(OUTPUT, source);
  process.stdout.write(`wrote ${OUTPUT}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
