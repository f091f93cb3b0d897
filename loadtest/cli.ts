/**
 * `npm run loadtest -- [flags]` (against a running server) and `npm run loadtest:local -- [flags]` (starts
 * the server itself): bots on @colyseus/sdk join stealth rooms, play, measure, and leave; prints a live
 * status line, then a summary table (per run, and the spread over runs with `--runs`), and the verdict
 * last. See `--help` and docs/load-testing.md.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LocalCluster } from "./cluster/localCluster.js";
import { LocalServer, PLAIN_SERVER_ENTRY } from "./localServer.js";
import { runLoad } from "./loadRun.js";
import { parseLoadTestArgs, USAGE, UsageError, type LoadTestOptions } from "./options.js";
import { ProgressLine } from "./progress.js";
import { formatSpread } from "./report/severalRuns.js";
import { summarize, type LoadTestSummary } from "./report/summary.js";
import { formatTable } from "./report/summaryTable.js";

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

  const runs: LoadTestSummary[] = [];
  const where = options.resultsDir === undefined ? undefined : await resultsNaming(options.label);
  for (let i = 1; i <= options.runs && !interrupted; i++) {
    if (options.runs > 1) progress.note(`run ${i} of ${options.runs}`);
    const summary = await runOnce(options, progress, stop.signal, () => interrupted);
    if (summary === undefined) return interrupted ? 130 : 1;
    runs.push(summary);
    const json = `${JSON.stringify(summary, null, 2)}\n`;
    process.stdout.write(`\n${formatTable(summary)}\n${options.json ? `\nsummary JSON:\n${json}` : ""}`);
    try {
      if (options.output !== undefined) await writeFile(options.runs > 1 ? options.output.replace(/(\.json)?$/, `-run${i}$1`) : options.output, json);
      if (where !== undefined) {
        await mkdir(options.resultsDir!, { recursive: true });
        await writeFile(join(options.resultsDir!, `${where}-run${i}.json`), json);
      }
    } catch (err) {
      process.stderr.write(`loadtest: cannot write the results: ${(err as Error).message}\n`);
      return 1;
    }
  }
  if (runs.length > 1) process.stdout.write(`\n${formatSpread(runs)}\n`);
  const ok = runs.length === options.runs && runs.every((r) => r.ok);
  // The verdict last, where a newcomer looks.
  const failed = runs.filter((r) => !r.ok).length;
  process.stdout.write(`\nresult: ${ok ? "ok" : `FAILED${options.runs > 1 ? ` in ${failed} of ${runs.length} runs` : ""}: ${[...new Set(runs.flatMap((r) => r.problems))].join("; ")}`}\n`);
  if (interrupted) return 130;
  return ok ? 0 : 1;
}

let current: { killNow(): void } | undefined;
// Whatever happens to this process, a local server must not outlive it (Redis goes with its stdin).
process.on("exit", () => current?.killNow());

/** One run (on a fresh local server with `--local`): its summary, or undefined when it could not run (said on stderr). */
async function runOnce(options: LoadTestOptions, progress: ProgressLine, signal: AbortSignal, interrupted: () => boolean): Promise<LoadTestSummary | undefined> {
  let servers: LocalServer[] = [];
  let cluster: LocalCluster | undefined;
  let serverDied = false;
  let stopping = false;
  const died = new AbortController();
  signal.addEventListener("abort", () => died.abort(), { once: true });
  const stopServers = async () => {
    if (cluster !== undefined) await cluster.stop();
    else await Promise.all(servers.map((s) => s.stop()));
  };
  try {
    if (options.local) {
      const many = options.processes > 1;
      const plain = options.server === "plain";
      progress.note(plain
        ? "starting the plain peer server (no vision, no culling)..."
        : `starting ${many ? `Redis and ${options.processes} server processes (placement ${options.placement})` : "the server"} (culling ${options.culling}, audit ${options.audit})...`);
      // The load generator creates every room from one address: the per-address create cap is lifted for it.
      const env: Record<string, string> = {
        CULLING: options.culling, CULLING_AUDIT: String(options.audit), MAX_GUARDS: String(Math.max(0, ...(options.guards ?? []))),
        MAX_CREATES_PER_MINUTE: "100000", MAX_ROOMS: String(Math.max(64, options.rooms)),
        ...(many ? { PLACEMENT: options.placement } : {}),
      };
      if (many) {
        cluster = await LocalCluster.start(options.processes, env);
        current = cluster;
        servers = cluster.members.map((m) => m.server);
      } else {
        const one = await LocalServer.start(env, undefined, plain ? PLAIN_SERVER_ENTRY : undefined);
        current = one;
        servers = [one];
      }
      progress.note(`server${many ? "s" : ""} on ${servers.map((s) => s.endpoint).join(", ")}`);
      for (const started of servers) {
        void started.exited.then(() => {
          // A Ctrl-C reaches the whole process group, so the server stopping then is expected.
          if (stopping || interrupted()) return;
          serverDied = true;
          progress.note(`a server exited during the run (${JSON.stringify(started.exit)}); its last output:\n${started.lastOutput()}`);
          died.abort();
        });
      }
    }
    const endpoints = servers.length > 0 ? servers.map((s) => s.endpoint) : [options.endpoint];
    const run = await runLoad(options, endpoints, died.signal, progress);
    stopping = true;
    // The last figures are in; the servers can go before the report is printed.
    await stopServers();
    const summary = summarize(run);
    if (serverDied) {
      summary.ok = false;
      summary.problems.push("a local server exited during the run");
    }
    return summary;
  } catch (err) {
    progress.finish();
    process.stderr.write(`loadtest: ${(err as Error).message}\n`);
    return undefined;
  } finally {
    stopping = true;
    await stopServers();
    current = undefined;
  }
}

/** `<date>-<commit>[-dirty]-<label>`: what saved results are named by (the commit "unknown" outside git). */
async function resultsNaming(label: string): Promise<string> {
  const date = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    if (execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "") commit += "-dirty";
  } catch {
    // Not a git checkout: the date and label still tell runs apart.
  }
  return `${date}-${commit}-${label}`;
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Sockets and timers are closed by now; should a stray handle remain, it must not hold the exit.
setTimeout(() => process.exit(code), 2000).unref();
