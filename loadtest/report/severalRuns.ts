import type { LoadTestSummary } from "./summary.js";
import { missedTargets } from "./targets.js";

/** Median and worst of one figure over runs; `worse` says which way is worse. */
function spread(values: readonly number[], worse: "low" | "high"): string {
  if (values.length === 0) return "-";
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const worst = worse === "low" ? sorted[0]! : sorted.at(-1)!;
  return `${round(median)} / ${round(worst)}   (${values.map(round).join(", ")})`;
}

const round = (v: number) => Math.round(v * 100) / 100;

/**
 * Several runs of one load side by side: the median and the worst of each figure (with every run's
 * value), and for each target, the runs that met it. A target met in fewer than all runs is reported as
 * met in K of N, never as met.
 */
export function formatSpread(runs: readonly LoadTestSummary[]): string {
  const rows: [string, string][] = [];
  const add = (label: string, value: string) => rows.push([label, value]);
  const servers = runs.map((r) => r.server).filter((s) => s !== null);
  add("runs", `${runs.length} (${runs.filter((r) => r.ok).length} ok)`);
  add("figure", "median / worst   (each run)");
  add("patch rate per room, slowest room", spread(servers.map((s) => s.patchRatePerRoom.min), "low"));
  add("event-loop lag p99 over the run, ms", spread(servers.map((s) => s.loopLagMs.p99), "high"));
  add("event-loop lag max, ms", spread(servers.map((s) => s.loopLagMs.max), "high"));
  add("join on the loop p99, ms", spread(servers.map((s) => s.joinMs.p99), "high"));
  add("  the join's own work p99 (GC taken off), ms", spread(servers.map((s) => s.joinWorkMs?.p99 ?? 0), "high"));
  add("server CPU, % of a core", spread(servers.map((s) => s.cpuPercentOfCore), "high"));
  add("tick p50, ms", spread(servers.map((s) => s.tickMs.p50), "high"));
  if (servers.every((s) => s.lateMs !== null && s.lateMs !== undefined)) add("firing lateness p99, ms", spread(servers.map((s) => s.lateMs!.p99), "high"));
  add("bytes / client / s", spread(runs.map((r) => r.traffic.bytesPerClientPerSecond), "high"));
  add("noises / client / s received", spread(runs.map((r) => r.traffic.noisesPerClientPerSecond ?? 0), "high"));
  const audited = servers.flatMap((s) => (s.culling === null ? [] : [s.culling.leaks + s.culling.popIns + s.culling.misses + (s.culling.soundLeaks ?? 0)]));
  add("leaks + pop-ins + misses + sound leaks", audited.length === 0 ? "n/a (no culling to audit)" : spread(audited, "high"));
  add("errors", spread(runs.map((r) => r.errors.total), "high"));
  if (runs.some((r) => r.options.targets === true)) {
    const misses = servers.map((s, i) => missedTargets(s, runs[i]!.options.churn as number > 0));
    const soak = runs.some((r) => (r.options.churn as number) > 0);
    const heapJudged = servers.some((s) => s.heapGrowthPercent !== null);
    const names = ["patch rate", "event-loop lag p99", "join on the loop", ...(heapJudged ? ["live heap growth"] : []), ...(soak ? ["stall"] : [])];
    for (const name of names) {
      const met = misses.filter((m) => !m.some((text) => text.startsWith(name))).length;
      add(`target: ${name}`, `met in ${met} of ${runs.length} runs`);
    }
  }
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return rows.map(([l, v]) => `${l.padEnd(width)}${v}`).join("\n");
}
