/** The placement simulator's command line (`cli.ts`). */
import { parseArgs } from "node:util";
import { fail, integer, oneOf } from "../../shared/validation/rangeChecks.js";
import type { MatrixOptions } from "./matrix.js";
import { SCENARIOS, type ScenarioName } from "./scenarios.js";

export const USAGE = `usage: npm run placement-sim -- [--seed N] [--processes 2,8,32,128] [--scenarios ${SCENARIOS.join(",")}] [--publish-ms 250,1000,3000,5000]

Replays each scenario on each process count, with Colyseus's placement (rooms) and ours (load), each
process publishing its load every --publish-ms; prints one JSON line per replay.`;

/** Most simulated processes: a bound on what a typo can ask of the machine. */
const MAX_PROCESSES = 1024;

const FLAGS = {
  seed: { type: "string" },
  processes: { type: "string" },
  scenarios: { type: "string" },
  "publish-ms": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The matrix the flags ask for; throws a RangeError naming the option for anything wrong. */
export function parseSimArgs(args: readonly string[]): MatrixOptions | "help" {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new RangeError((err as Error).message);
  }
  if (values.help === true) return "help";
  return {
    seed: integer("PlacementSimOptions.seed", numberOf(values.seed ?? "1"), 0, 2 ** 31 - 1),
    processes: listOf("PlacementSimOptions.processes", values.processes ?? "2,8,32,128").map((v) => integer("PlacementSimOptions.processes", numberOf(v), 1, MAX_PROCESSES)),
    scenarios: listOf("PlacementSimOptions.scenarios", values.scenarios ?? SCENARIOS.join(",")).map((v) => oneOf<ScenarioName>("PlacementSimOptions.scenarios", v, SCENARIOS)),
    publishMs: listOf("PlacementSimOptions.publishMs", values["publish-ms"] ?? "250,1000,3000,5000").map((v) =>
      // The server's own floor (ProcessLoadBoard's intervalMs), and a minute as a bound on staleness worth asking about.
      integer("PlacementSimOptions.publishMs", numberOf(v), 50, 60_000, "milliseconds"),
    ),
  };
}

/** A comma-separated list without empty items or repeats (a repeat would print the same lines twice). */
function listOf(field: string, text: string): string[] {
  const items = text.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) fail(field, "must be a comma-separated list without empty items", text);
  if (new Set(items).size !== items.length) fail(field, "must list each value once", text);
  return items;
}

/** The number a flag's text spells, or the text itself for the check to reject ("8x" is not 8). */
function numberOf(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : text;
}
