/**
 * `npm run loadtest -- [flags]` (against a running server) and `npm run loadtest:local -- [flags]` (starts
 * the server itself): bots on @colyseus/sdk join stealth rooms, play, measure, and leave; prints a live
 * status line, then a summary table and its JSON. See `--help` and the README's "Load testing".
 */
import { writeFile } from "node:fs/promises";
import { LocalServer } from "./localServer.js";
import { runLoad } from "./loadRun.js";
import { parseLoadTestArgs, USAGE, UsageError, type LoadTestOptions } from "./options.js";
import { ProgressLine } from "./progress.js";
import { formatTable, summarize } from "./summary.js";

async function main(argv: readonly string[]): Promise<number> {
  let options: LoadTestOptions | "help";
  try {
    options = parseLoadTestArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`loadtest: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const progress = new ProgressLine();
  const stop = new AbortController();
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress.note(`${signal}: stopping early; the bots leave${options.local ? " and the server stops" : ""}`);
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let server: LocalServer | undefined;
  let serverDied = false;
  let stopping = false;
  // Whatever happens to this process, the child must not outlive it.
  process.on("exit", () => server?.killNow());
  try {
    if (options.local) {
      progress.note(`starting the server (culling ${options.culling}, audit ${options.audit})...`);
      server = await LocalServer.start({ CULLING: options.culling, CULLING_AUDIT: String(options.audit), MAX_GUARDS: String(options.guards ?? 0) });
      const started = server;
      progress.note(`server on ${started.endpoint}`);
      void started.exited.then(() => {
        // A Ctrl-C reaches the whole process group, so the server stopping then is expected.
        if (stopping || interrupted) return;
        serverDied = true;
        progress.note(`the server exited during the run (${JSON.stringify(started.exit)}); its last output:\n${started.lastOutput()}`);
        stop.abort();
      });
    }
    const endpoint = server?.endpoint ?? options.endpoint;
    const run = await runLoad(options, endpoint, stop.signal, progress);
    stopping = true;
    // The last figures are in; the server can go before the report is printed.
    await server?.stop();
    const summary = summarize(run);
    if (serverDied) {
      summary.ok = false;
      summary.problems.push("the local server exited during the run");
    }
    process.stdout.write(`\n${formatTable(summary)}\n\nsummary JSON:\n${JSON.stringify(summary, null, 2)}\n`);
    if (options.output !== undefined) {
      try {
        await writeFile(options.output, `${JSON.stringify(summary, null, 2)}\n`);
      } catch (err) {
        process.stderr.write(`loadtest: cannot write ${options.output}: ${(err as Error).message}\n`);
        return 1;
      }
    }
    if (interrupted) return 130;
    return summary.ok ? 0 : 1;
  } catch (err) {
    progress.finish();
    process.stderr.write(`loadtest: ${(err as Error).message}\n`);
    return interrupted ? 130 : 1;
  } finally {
    stopping = true;
    await server?.stop();
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Sockets and timers are closed by now; should a stray handle remain, it must not hold the exit.
setTimeout(() => process.exit(code), 2000).unref();
