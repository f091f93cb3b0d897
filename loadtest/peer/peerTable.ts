import { median } from "../bench/percentile.js";
import { parseLoadTestArgs, UsageError } from "../options.js";
import type { LoadTestSummary } from "../report/summary.js";

/** The capacity load, without its targets and results naming: what `npm run loadtest:peers` runs by default. */
export const PEER_LOAD = Object.freeze(["--map", "compound", "--rooms", "12", "--clients", "300", "--guards", "64", "--duration", "120", "--warmup", "20", "--ramp", "20", "--thin", "--audit", "0.1"]);
/** Most pairs one command may run: each pair is two full runs (about 5 minutes at the capacity load). */
export const MAX_PAIRS = 5;
/** Flags the peers command sets for each run itself. */
const OWN_FLAGS = ["--server", "--runs", "--label", "--output", "--endpoint"];

export const PEERS_USAGE = `usage: npm run loadtest:peers -- [--pairs <n>] [--results-dir <dir>] [load-test flags]

Runs our server and the plain peer (a plain Colyseus room of the same shape, no vision or culling) in turn,
stealth then plain, for --pairs pairs (1..${MAX_PAIRS}, default 2), at the same load: by default
  ${PEER_LOAD.join(" ")}
Load-test flags after these override them (later flags win); --audit applies to ours only, and so does
--hearing (ours hears by default; the peer has no hearing); ours runs with --level-play off. Each run's
summary JSON is saved in --results-dir (default docs/results) as <date>-<commit>-peers-stealth-run1.json
and ...-peers-plain-run1.json; then one table sets our figures beside the peer's, with ours/plain.`;

export interface PeersOptions {
  pairs: number;
  resultsDir: string;
  /** The load-test arguments both sides share (without `--server`, `--label`, `--output`). */
  load: string[];
}

/** Reads the peers command line; throws a {@link UsageError} naming the flag, as the load test's own parser does. */
export function parsePeersArgs(args: readonly string[]): PeersOptions | "help" {
  const load = [...PEER_LOAD];
  let pairs = 2;
  let resultsDir = "docs/results";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "-h" || arg === "--help") return "help";
    else if (arg === "--pairs") {
      const v = value();
      pairs = Number(v);
      if (!(Number.isInteger(pairs) && pairs >= 1 && pairs <= MAX_PAIRS)) throw new UsageError(`--pairs must be a whole number from 1 to ${MAX_PAIRS} (got ${JSON.stringify(v)})`);
    } else if (arg === "--results-dir") resultsDir = value();
    else if (OWN_FLAGS.includes(arg.split("=")[0]!)) throw new UsageError(`${arg.split("=")[0]} is set by the peers command for each run`);
    else load.push(arg);
  }
  // Both sides' command lines must parse before anything starts.
  for (const side of ["stealth", "plain"] as const) parseLoadTestArgs(runArgs({ pairs, resultsDir, load }, side, "x.json"));
  return { pairs, resultsDir, load };
}

/** The load-test CLI arguments of one side's run. The peer has no audit: `--audit 0` says so in its JSON. */
export function runArgs(o: PeersOptions, side: "stealth" | "plain", output: string): string[] {
  // Like for like: the plain peer has no doors or smoke, so ours runs its level without them too.
  return ["--local", ...o.load, ...(side === "plain" ? ["--audit", "0"] : ["--level-play", "off"]), "--server", side, "--results-dir", o.resultsDir, "--label", `peers-${side}`, "--output", output];
}

/** One pair's summaries (undefined: that run did not complete). */
export interface PeerPair {
  stealth: LoadTestSummary | undefined;
  plain: LoadTestSummary | undefined;
}

interface Figure {
  label: string;
  read: (s: LoadTestSummary) => number | null | undefined;
}

const FIGURES: Figure[] = [
  { label: "patches / s per room, slowest room", read: (s) => s.server?.patchRatePerRoom.min },
  { label: "event-loop lag p99 over the run, ms", read: (s) => s.server?.loopLagMs.p99 },
  { label: "event-loop lag max, ms", read: (s) => s.server?.loopLagMs.max },
  { label: "server CPU, % of a core", read: (s) => s.server?.cpuPercentOfCore },
  // CPU time per connected client: what one more player costs, the figure capacity scales by.
  { label: "server CPU per client, ms / s", read: (s) => (s.server == null || s.clients.atEnd === 0 ? null : (s.server.cpuPercentOfCore * 10) / s.clients.atEnd) },
  { label: "tick p50, ms", read: (s) => s.server?.tickMs.p50 },
  { label: "heap at end, MB", read: (s) => s.server?.memoryMB.heapEnd },
  { label: "RSS at end, MB", read: (s) => s.server?.memoryMB.rssEnd },
  { label: "bytes / client / s received", read: (s) => s.traffic.bytesPerClientPerSecond },
];

const num = (v: number | null | undefined): number | undefined => (v === null || v === undefined || !Number.isFinite(v) ? undefined : v);
const show = (v: number | undefined): string => (v === undefined ? "n/a" : String(Math.round(v * 100) / 100));
const ratio = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined || b === 0 ? undefined : a / b);
const mid = (values: (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? undefined : median(known);
};

/**
 * The side-by-side table: per figure, the median over pairs of ours, of the plain peer's and of the pairs'
 * ours/plain ratios, then each pair's `ours / plain = ratio`. A figure a run lacks is n/a, never 0.
 */
export function formatPeers(pairs: readonly PeerPair[]): string {
  const header = ["figure", "ours", "plain", "ours/plain", ...pairs.map((_, i) => `pair ${i + 1}: ours / plain = ratio`)];
  const rows = FIGURES.map((f) => {
    const ours = pairs.map((p) => (p.stealth === undefined ? undefined : num(f.read(p.stealth))));
    const plain = pairs.map((p) => (p.plain === undefined ? undefined : num(f.read(p.plain))));
    const ratios = pairs.map((_, i) => ratio(ours[i], plain[i]));
    return [f.label, show(mid(ours)), show(mid(plain)), show(mid(ratios)), ...pairs.map((_, i) => `${show(ours[i])} / ${show(plain[i])} = ${show(ratios[i])}`)];
  });
  const table = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  return table.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()).join("\n");
}

/** Each run that did not complete or was not ok, as a sentence; empty when every run was clean. */
export function peerProblems(pairs: readonly PeerPair[]): string[] {
  const problems: string[] = [];
  pairs.forEach((p, i) => {
    for (const side of ["stealth", "plain"] as const) {
      const s = p[side];
      if (s === undefined) problems.push(`the ${side} run of pair ${i + 1} did not complete`);
      else if (!s.ok) problems.push(`the ${side} run of pair ${i + 1}: ${s.problems.join("; ")}`);
    }
  });
  return problems;
}
