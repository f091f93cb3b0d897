/**
 * `npm run loadtest:peers -- [--against plain|hearing-off] [--pairs <n>] [--results-dir <dir>] [load-test
 * flags]`: our server and the plain peer (`loadtest/peer/`), or ours with hearing on and off,
 * interleaved (ours, the other, ours, the other, ...) at the same load, each run the load-test CLI's own
 * `--local` run; then one table of our figures beside the other's. Interleaved because this VM's pace
 * drifts over minutes: back-to-back blocks of one side would measure the drift.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "./options.js";
import { auditedRunArgs, BASELINE_WORDS, formatAuditedRun, formatPeers, formatRatioVerdict, parsePeersArgs, peersVerdict, PEERS_USAGE, runArgs, type PeerPair, type PeersOptions } from "./peer/peerTable.js";
import type { LoadTestSummary } from "./report/summary.js";

/** Seconds a run may take beyond its ramp and duration (server start, joins, leaves) before it is stopped. */
const RUN_SLACK_SECONDS = 180;

let interrupted = false;
let child: ReturnType<typeof spawn> | undefined;

async function main(argv: readonly string[]): Promise<number> {
  let options: PeersOptions | "help";
  try {
    options = parsePeersArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`loadtest:peers: ${err.message}\n\n${PEERS_USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${PEERS_USAGE}\n`);
    return 0;
  }
  // A Ctrl-C reaches the running load test too (same process group): it stops early and we stop after it.
  const onSignal = () => {
    interrupted = true;
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", () => {
    interrupted = true;
    child?.kill("SIGTERM");
  });

  const dir = await mkdtemp(join(tmpdir(), "sightline-peers-"));
  const pairs: PeerPair[] = [];
  let audited: { share: number; run: LoadTestSummary | undefined } | undefined;
  try {
    for (let i = 1; i <= options.pairs && !interrupted; i++) {
      const pair: PeerPair = { stealth: undefined, plain: undefined };
      pairs.push(pair);
      for (const side of ["stealth", "plain"] as const) {
        if (interrupted) break;
        process.stderr.write(`\n=== pair ${i} of ${options.pairs}: ${BASELINE_WORDS[options.against].progress[side]} ===\n`);
        pair[side] = await runSide(runArgs(options, side, join(dir, `pair${i}-${side}.json`)), side);
      }
    }
    // Leaks are judged apart: the audit is an instrument with a cost of its own, kept out of the ratio.
    if (options.auditedRun > 0 && !interrupted) {
      process.stderr.write(`\n=== the audited run: ours, --audit ${options.auditedRun} ===\n`);
      audited = { share: options.auditedRun, run: await runSide(auditedRunArgs(options, join(dir, "audited.json")), "audited") };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const other = BASELINE_WORDS[options.against].column;
  if (options.against === "plain") {
    process.stdout.write(`\nours (stealth) against the plain peer, interleaved, ${pairs.length} pair(s), each run: npm run loadtest:local -- ${options.load.join(" ")} (the peer with --audit 0: it has nothing to audit)\n`);
  } else {
    process.stdout.write(`\nours with hearing on against ours with hearing off, interleaved, ${pairs.length} pair(s), each run: npm run loadtest:local -- ${options.load.join(" ")} --level-play on --hearing on|off\n`);
  }
  process.stdout.write(`(medians over the pairs; ours/${other}: the median of the pairs' ratios; n/a: a figure the run does not have)\n\n`);
  process.stdout.write(`${formatPeers(pairs, options.against)}\n\n${formatRatioVerdict(pairs, options.maxRatio, options.against)}\n`);
  if (audited !== undefined) process.stdout.write(`${formatAuditedRun(audited.run, audited.share)}\n`);
  const problems = peersVerdict(pairs, options.maxRatio, audited, options.against);
  if (interrupted) problems.unshift("interrupted before the end");
  process.stdout.write(`\nresult: ${problems.length === 0 ? "ok" : `FAILED: ${problems.join("; ")}`}\n`);
  if (interrupted) return 130;
  return problems.length === 0 ? 0 : 1;
}

/** One load-test run (`args`, naming its `--output`), its table passed through; its summary, or undefined when it did not finish. */
async function runSide(args: string[], side: string): Promise<LoadTestSummary | undefined> {
  const output = valueOf(args, "--output")!;
  const ramp = Number(valueOf(args, "--ramp") ?? 10);
  const duration = Number(valueOf(args, "--duration") ?? 30);
  const started = spawn(process.execPath, ["--import", "tsx", "loadtest/cli.ts", ...args], { stdio: ["ignore", "inherit", "inherit"] });
  child = started;
  const timer = setTimeout(() => {
    process.stderr.write(`loadtest:peers: the ${side} run took over ${ramp + duration + RUN_SLACK_SECONDS} s; stopping it\n`);
    started.kill("SIGINT");
    setTimeout(() => started.kill("SIGKILL"), 15_000).unref();
  }, (ramp + duration + RUN_SLACK_SECONDS) * 1000);
  const code = await new Promise<number | null>((resolve) => started.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  child = undefined;
  // 0 and 1 both leave a summary (1: the run found problems, which the table's result line repeats).
  if (code !== 0 && code !== 1) return undefined;
  try {
    return JSON.parse(await readFile(output, "utf8")) as LoadTestSummary;
  } catch {
    return undefined;
  }
}

/** The last value of `flag` in an argument list, `--flag v` or `--flag=v` (the load test's parser takes the last too). */
function valueOf(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg === flag) value = args[i + 1];
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
  });
  return value;
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
