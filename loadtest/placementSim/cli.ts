/**
 * `npm run placement-sim -- [flags]`: replays seeded room workloads onto simulated server processes with
 * Colyseus's placement rule and ours (the server's own functions), one JSON line per replay on stdout.
 * See docs/placement.md.
 */
import { runMatrix, type MatrixOptions } from "./matrix.js";
import { parseSimArgs, USAGE } from "./simArgs.js";

function main(argv: readonly string[]): number {
  let options: MatrixOptions | "help";
  try {
    options = parseSimArgs(argv);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    process.stderr.write(`placement-sim: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  for (const line of runMatrix(options)) process.stdout.write(`${line}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
