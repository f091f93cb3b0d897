import { median } from "../bench/percentile.js";
import { parseLoadTestArgs, UsageError } from "../options.js";
import { GENERATOR_SATURATED_LAG_MS, type LoadTestSummary } from "../report/summary.js";

/**
 * The capacity load, without its targets and results naming: what `npm run loadtest:peers` runs by default.
 * The audit off: it is a load-test instrument, and the ratio is to say what the product costs. Leaks are
 * the separate audited run's business.
 */
export const PEER_LOAD = Object.freeze(["--map", "compound", "--rooms", "12", "--clients", "300", "--guards", "64", "--duration", "120", "--warmup", "20", "--ramp", "20", "--thin", "--audit", "0"]);
/** The target: our server's CPU per client at most this many times the plain peer's, in every pair. */
export const DEFAULT_MAX_RATIO = 1.4;
/** The target against ours without hearing (`--against hearing-off`): hearing adds at most a tenth. */
export const DEFAULT_HEARING_MAX_RATIO = 1.1;

/**
 * What ours is set against: `plain`, the plain peer (a plain Colyseus room of the same shape, no vision or
 * culling; ours then runs without doors and smoke, like for like); `hearing-off`, ours with rooms made
 * deaf (`--hearing off`), ours with hearing on, both in the capacity shape with doors and smoke: what
 * hearing costs a whole process.
 */
export type PeerBaseline = "plain" | "hearing-off";
const BASELINES: readonly PeerBaseline[] = ["plain", "hearing-off"];

/** How the command names each baseline's side, and the sides' runs, in its output, labels and verdicts. */
export interface BaselineWords {
  /** The table's column and the ratio's denominator. */
  column: string;
  /** The baseline side in a sentence, and its possessive. */
  other: string;
  others: string;
  /** Each side's run, as labels (`peers-<run>`) and problems name it. */
  runs: { stealth: string; plain: string };
  /** Each side's run, in the progress lines. */
  progress: { stealth: string; plain: string };
  /** The default of `--max-ratio`. */
  maxRatio: number;
}

export const BASELINE_WORDS: Readonly<Record<PeerBaseline, BaselineWords>> = Object.freeze({
  plain: { column: "plain", other: "the peer", others: "the peer's", runs: { stealth: "stealth", plain: "plain" }, progress: { stealth: "ours (stealth)", plain: "the plain peer" }, maxRatio: DEFAULT_MAX_RATIO },
  "hearing-off": {
    column: "hearing off", other: "ours with hearing off", others: "that of ours with hearing off",
    runs: { stealth: "hearing-on", plain: "hearing-off" }, progress: { stealth: "ours, hearing on", plain: "ours, hearing off" }, maxRatio: DEFAULT_HEARING_MAX_RATIO,
  },
});
/**
 * Share of a core at which a server counts as saturated: its one thread cannot spend more, so a heavier
 * server's CPU per client stops growing with its cost and the ratio reads too low.
 */
export const SATURATED_CPU_PERCENT = 90;
/** Our slowest room's patch rate below this share of the peer's: ours did less work, the ratio flatters it. */
export const MIN_PATCH_RATE_SHARE = 0.9;

/** The share of our clients the audited run audits. */
export const DEFAULT_AUDITED_RUN = 0.1;
/** Most pairs one command may run: each pair is two full runs (about 5 minutes at the capacity load). */
export const MAX_PAIRS = 5;
/** Flags the peers command sets for each run itself. */
const OWN_FLAGS = ["--server", "--runs", "--label", "--output", "--endpoint"];
/** The peers command's own flags that take a value. */
const OWN_VALUE_FLAGS = ["--against", "--pairs", "--max-ratio", "--audited-run", "--results-dir"];

export const PEERS_USAGE = `usage: npm run loadtest:peers -- [--against plain|hearing-off] [--pairs <n>] [--max-ratio <x>] [--audited-run <fraction>] [--results-dir <dir>] [load-test flags]

Runs our server and the plain peer (a plain Colyseus room of the same shape, no vision or culling) in turn,
stealth then plain, for --pairs pairs (1..${MAX_PAIRS}, default 2), at the same load: by default
  ${PEER_LOAD.join(" ")}
Load-test flags after these override them (later flags win); --audit applies to ours only, and so does
--hearing (ours hears by default; the peer has no hearing); ours runs with --level-play off. Then one more
run of ours alone with the audit on a share of its clients (--audited-run, default ${DEFAULT_AUDITED_RUN}; 0: none),
for leaks, pop-ins, misses and sound leaks: not part of the ratio. Each run's summary JSON is saved in
--results-dir (default docs/results) as <date>-<commit>-peers-stealth-run1.json, ...-peers-plain-run1.json
and ...-peers-stealth-audited-run1.json; then one table sets our figures beside the peer's, with ours/plain.
The result is ok only when every run was, the audited run found nothing, and in every pair our CPU per
client was at most --max-ratio (default ${DEFAULT_MAX_RATIO}) times the peer's, with neither server at
${SATURATED_CPU_PERCENT}% of a core or more (a side's busiest process, with --processes), our slowest room at
${MIN_PATCH_RATE_SHARE * 100}% of the peer's patch rate or more, and neither load generator's loop-lag p99 above
${GENERATOR_SATURATED_LAG_MS} ms (else the ratio does not compare like with like: a saturated server's CPU cannot
grow with its cost, and a saturated generator drives less than the load).

--against hearing-off sets ours against ours with rooms made deaf instead (--hearing off: no noise, deaf
guards, no distractions thrown), both sides with doors and smoke (--level-play on unless given) and the audit off, and
holds the ratio to --max-ratio (default ${DEFAULT_HEARING_MAX_RATIO}): what hearing costs a whole process. --hearing is
then set by the command; the runs are labelled peers-hearing-on, peers-hearing-off and
peers-hearing-on-audited.`;

export interface PeersOptions {
  /** What ours is set against (default `plain`). */
  against: PeerBaseline;
  pairs: number;
  /** The CPU-per-client ratio (ours / plain) every pair must stay at or under. */
  maxRatio: number;
  /** The share of our clients the audited run audits; 0: no audited run. */
  auditedRun: number;
  resultsDir: string;
  /** The load-test arguments both sides share (without `--server`, `--label`, `--output`). */
  load: string[];
}

/** Reads the peers command line; throws a {@link UsageError} naming the flag, as the load test's own parser does. */
export function parsePeersArgs(args: readonly string[]): PeersOptions | "help" {
  const load = [...PEER_LOAD];
  let against: PeerBaseline = "plain";
  let pairs = 2;
  let maxRatio: number | undefined;
  let auditedRun = DEFAULT_AUDITED_RUN;
  let resultsDir = "docs/results";
  for (let i = 0; i < args.length; i++) {
    // `--pairs 3` and `--pairs=3` alike, as the load test's own parser takes its flags.
    const eq = args[i]!.startsWith("--") ? args[i]!.indexOf("=") : -1;
    const arg = eq < 0 ? args[i]! : args[i]!.slice(0, eq);
    const inline = eq < 0 ? undefined : args[i]!.slice(eq + 1);
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--"))) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    // A blank value is no number: Number("") is 0, which would pass as "no audited run".
    const numberOf = (v: string) => (v.trim() === "" ? NaN : Number(v));
    if (arg === "-h" || arg === "--help") return "help";
    else if (inline !== undefined && !OWN_VALUE_FLAGS.includes(arg)) {
      if (OWN_FLAGS.includes(arg)) throw new UsageError(`${arg} is set by the peers command for each run`);
      load.push(args[i]!);
    } else if (arg === "--against") {
      const v = value();
      if (!(BASELINES as readonly string[]).includes(v)) throw new UsageError(`--against must be ${BASELINES.join(" or ")} (got ${JSON.stringify(v)})`);
      against = v as PeerBaseline;
    } else if (arg === "--pairs") {
      const v = value();
      pairs = numberOf(v);
      if (!(Number.isInteger(pairs) && pairs >= 1 && pairs <= MAX_PAIRS)) throw new UsageError(`--pairs must be a whole number from 1 to ${MAX_PAIRS} (got ${JSON.stringify(v)})`);
    } else if (arg === "--max-ratio") {
      const v = value();
      maxRatio = numberOf(v);
      if (!(Number.isFinite(maxRatio) && maxRatio > 0)) throw new UsageError(`--max-ratio must be a positive number (got ${JSON.stringify(v)})`);
    } else if (arg === "--audited-run") {
      const v = value();
      auditedRun = numberOf(v);
      if (!(Number.isFinite(auditedRun) && auditedRun >= 0 && auditedRun <= 1)) throw new UsageError(`--audited-run must be the share of clients to audit, 0..1 (got ${JSON.stringify(v)})`);
    } else if (arg === "--results-dir") resultsDir = value();
    else if (OWN_FLAGS.includes(arg)) throw new UsageError(`${arg} is set by the peers command for each run`);
    else load.push(arg);
  }
  if (against === "hearing-off") {
    const own = load.slice(PEER_LOAD.length).find((a) => a.split("=")[0] === "--hearing");
    if (own !== undefined) throw new UsageError("--hearing is set by the peers command for each run with --against hearing-off");
  }
  // Both sides' command lines must parse before anything starts.
  const options: PeersOptions = { against, pairs, maxRatio: maxRatio ?? BASELINE_WORDS[against].maxRatio, auditedRun, resultsDir, load };
  for (const side of ["stealth", "plain"] as const) parseLoadTestArgs(runArgs(options, side, "x.json"));
  if (auditedRun > 0) parseLoadTestArgs(auditedRunArgs(options, "x.json"));
  return options;
}

/**
 * The load-test CLI arguments of one side's run (`stealth`: ours; `plain`: the baseline). The plain peer
 * has no audit: `--audit 0` says so in its JSON.
 */
export function runArgs(o: PeersOptions, side: "stealth" | "plain", output: string): string[] {
  const tail = ["--label", `peers-${BASELINE_WORDS[o.against].runs[side]}`, "--results-dir", o.resultsDir, "--output", output];
  // The capacity shape, doors and smoke included: hearing's distractions are part of what it costs.
  if (o.against === "hearing-off") return ["--local", "--level-play", "on", ...o.load, "--hearing", side === "stealth" ? "on" : "off", "--server", "stealth", ...tail];
  // Like for like: the plain peer has no doors or smoke, so ours runs its level without them too.
  return ["--local", ...o.load, ...(side === "plain" ? ["--audit", "0"] : ["--level-play", "off"]), "--server", side, ...tail];
}

/** The audited run's arguments: ours at the same load as its ratio runs, the audit on `auditedRun` of its clients. */
export function auditedRunArgs(o: PeersOptions, output: string): string[] {
  const tail = ["--audit", String(o.auditedRun), "--server", "stealth", "--label", `peers-${BASELINE_WORDS[o.against].runs.stealth}-audited`, "--results-dir", o.resultsDir, "--output", output];
  if (o.against === "hearing-off") return ["--local", "--level-play", "on", ...o.load, "--hearing", "on", ...tail];
  return ["--local", ...o.load, "--level-play", "off", ...tail];
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
export function formatPeers(pairs: readonly PeerPair[], against: PeerBaseline = "plain"): string {
  const other = BASELINE_WORDS[against].column;
  const header = ["figure", "ours", other, `ours/${other}`, ...pairs.map((_, i) => `pair ${i + 1}: ours / ${other} = ratio`)];
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

/** Each pair's CPU per client, ours / plain (undefined where a run lacks the figure). */
export function cpuRatios(pairs: readonly PeerPair[]): (number | undefined)[] {
  const perClient = FIGURES.find((f) => f.label.startsWith("server CPU per client"))!;
  const read = (s: LoadTestSummary | undefined) => (s === undefined ? undefined : num(perClient.read(s)));
  // A side that reports no CPU at all measured nothing: its ratio is unknown, never a met 0.
  const spent = (v: number | undefined) => (v === undefined || v <= 0 ? undefined : v);
  return pairs.map((p) => ratio(spent(read(p.stealth)), spent(read(p.plain))));
}

/**
 * Why a pair's CPU ratio does not compare like with like (a side saturated, or ours sending fewer patches
 * than the peer), or undefined when it does. A saturated pair never counts as meeting the target.
 */
export function pairNotComparable(pair: PeerPair, against: PeerBaseline = "plain"): string | undefined {
  const why: string[] = [];
  const other = BASELINE_WORDS[against].other;
  for (const side of ["stealth", "plain"] as const) {
    // A core is what one process can spend: with several processes, the busiest one is the one to saturate.
    const server = pair[side]?.server;
    const cpu = num(server?.processes == null ? server?.cpuPercentOfCore : Math.max(...server.processes.map((p) => p.cpuPercentOfCore)));
    if (cpu !== undefined && cpu >= SATURATED_CPU_PERCENT) why.push(`${side === "stealth" ? "ours" : other} at ${cpu.toFixed(1)}% of a core${server?.processes == null ? "" : " in its busiest process"}`);
  }
  // A saturated load generator sends its inputs late: the server it drives does less than the load says.
  for (const side of ["stealth", "plain"] as const) {
    const lag = num(pair[side]?.generator?.loopLagP99Ms);
    if (lag !== undefined && lag > GENERATOR_SATURATED_LAG_MS) why.push(`the load generator of ${side === "stealth" ? "ours" : other} lagging ${lag.toFixed(1)} ms (p99)`);
  }
  const ours = num(pair.stealth?.server?.patchRatePerRoom.min);
  const plain = num(pair.plain?.server?.patchRatePerRoom.min);
  if (ours !== undefined && plain !== undefined && ours < MIN_PATCH_RATE_SHARE * plain) why.push(`ours sent ${ours.toFixed(1)} patches a second in its slowest room, ${other} ${plain.toFixed(1)}`);
  return why.length === 0 ? undefined : why.join(", ");
}

/** The ratio target's line: each pair's CPU-per-client ratio and in how many pairs it held (a pair not comparable never does). */
export function formatRatioVerdict(pairs: readonly PeerPair[], maxRatio: number, against: PeerBaseline = "plain"): string {
  const ratios = cpuRatios(pairs);
  const comparable = pairs.map((p) => pairNotComparable(p, against) === undefined);
  const met = ratios.filter((r, i) => r !== undefined && r <= maxRatio && comparable[i]).length;
  const shown = ratios.map((r, i) => `${r === undefined ? "n/a" : r.toFixed(3)}${comparable[i] ? "" : " (not comparable)"}`);
  return `CPU per client, ours / ${BASELINE_WORDS[against].column}, by pair: ${shown.join(", ")} (target at most ${maxRatio}: met in ${met} of ${pairs.length} pairs)`;
}

/** The audited run's line: what the audit found, and over how much. */
export function formatAuditedRun(run: LoadTestSummary | undefined, share: number): string {
  const c = run?.server?.culling;
  if (run === undefined || c == null) return `audited run of ours (--audit ${share}): did not complete`;
  return `audited run of ours (--audit ${share}): leaks / pop-ins / misses / sound leaks ${c.leaks} / ${c.popIns} / ${c.misses} / ${c.soundLeaks} over ${c.auditedClientTicks} client-ticks and ${c.soundsAudited} sounds audited`;
}

/**
 * Every reason the peers command's result is not ok: runs that did not complete or were not ok, pairs
 * whose CPU-per-client ratio is over `maxRatio` (or unknown), and an audited run that did not come back
 * clean or audited nothing. Empty when all held.
 */
export function peersVerdict(pairs: readonly PeerPair[], maxRatio: number, audited?: { share: number; run: LoadTestSummary | undefined }, against: PeerBaseline = "plain"): string[] {
  const problems = peerProblems(pairs, against);
  const other = BASELINE_WORDS[against].others;
  cpuRatios(pairs).forEach((r, i) => {
    if (r === undefined) problems.push(`pair ${i + 1}: no CPU-per-client ratio`);
    else if (r > maxRatio) problems.push(`pair ${i + 1}: our CPU per client ${r.toFixed(3)} times ${other}, above ${maxRatio}`);
    const why = pairNotComparable(pairs[i]!, against);
    if (why !== undefined) problems.push(`pair ${i + 1}: not comparable (${why})`);
  });
  if (audited !== undefined) {
    const run = audited.run;
    if (run === undefined) problems.push("the audited run did not complete");
    else if (!run.ok) problems.push(`the audited run: ${run.problems.join("; ")}`);
    else if ((run.server?.culling?.auditedClientTicks ?? 0) === 0) problems.push("the audited run audited no client-tick");
  }
  return problems;
}

/** Each run that did not complete or was not ok, as a sentence; empty when every run was clean. */
export function peerProblems(pairs: readonly PeerPair[], against: PeerBaseline = "plain"): string[] {
  const problems: string[] = [];
  const name = BASELINE_WORDS[against].runs;
  pairs.forEach((p, i) => {
    for (const side of ["stealth", "plain"] as const) {
      const s = p[side];
      if (s === undefined) problems.push(`the ${name[side]} run of pair ${i + 1} did not complete`);
      else if (!s.ok) problems.push(`the ${name[side]} run of pair ${i + 1}: ${s.problems.join("; ")}`);
    }
  });
  return problems;
}
