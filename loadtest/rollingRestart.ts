/**
 * `npm run loadtest:rolling -- [flags]`: a rolling restart of a local cluster under load (see
 * `cluster/rollingRestart.ts`); prints the report as JSON and exits 1 if a game was lost before its
 * process's deadline, a reconnection failed, or a player found no game after five tries.
 */
import { parseArgs } from "node:util";
import { rollingRestart, type RollingRestartOptions } from "./cluster/rollingRestart.js";
import { UsageError } from "./options.js";

export const ROLLING_USAGE = `usage: npm run loadtest:rolling -- [flags]

  --processes <n>        server processes, restarted in turn (default 2, 2..8)
  --bots <n>             players, each playing game after game (default 24, 1..400)
  --session <min,max>    seconds one game lasts for a player (default 5,15)
  --drain <s>            each process's drain deadline, DRAIN_SECONDS (default 30)
  --settle <s>           play before the first restart and after the last (default 5)
  --drops <share>        share of games whose connection drops once and reconnects (default 0.2)
  --guards <n>           guards per room (default 8)
  --seed <n>             (default 1)`;

/** The options of a command line, or a UsageError naming what is wrong. */
export function parseRollingArgs(argv: readonly string[]): RollingRestartOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      processes: { type: "string", default: "2" }, bots: { type: "string", default: "24" }, session: { type: "string", default: "5,15" },
      drain: { type: "string", default: "30" }, settle: { type: "string", default: "5" }, drops: { type: "string", default: "0.2" },
      guards: { type: "string", default: "8" }, seed: { type: "string", default: "1" },
    },
    strict: true,
  });
  const number = (name: string, text: string, min: number, max: number, integer = false): number => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) throw new UsageError(`--${name} must be ${integer ? "an integer" : "a number"} in ${min}..${max} (got ${JSON.stringify(text)})`);
    return n;
  };
  const session = values.session.split(",").map((part) => number("session", part, 1, 3600));
  if (session.length !== 2 || session[0]! > session[1]!) throw new UsageError(`--session must be min,max seconds with min <= max (got ${JSON.stringify(values.session)})`);
  return {
    processes: number("processes", values.processes, 2, 8, true),
    bots: number("bots", values.bots, 1, 400, true),
    session: [session[0]!, session[1]!],
    drainSeconds: number("drain", values.drain, 1, 3600, true),
    settle: number("settle", values.settle, 0, 600),
    drops: number("drops", values.drops, 0, 1),
    guards: number("guards", values.guards, 0, 1024, true),
    seed: number("seed", values.seed, 0, 2 ** 31, true),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let options: RollingRestartOptions;
  try {
    options = parseRollingArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`loadtest:rolling: ${(err as Error).message}\n\n${ROLLING_USAGE}\n`);
    process.exit(2);
  }
  const report = await rollingRestart(options);
  process.stdout.write(`${JSON.stringify({ options, ...report })}\n`);
  process.exit(report.games.lostBeforeDeadline === 0 && report.reconnections.failed === 0 && report.joins.failed === 0 ? 0 : 1);
}
