import type { ServerSummary } from "./serverSummary.js";

/** The capacity targets a run held to them (`--targets`) must meet, each miss as a sentence. */
export const TARGETS = Object.freeze({ patchRateMin: 19, loopLagP99Ms: 25, joinP99Ms: 5, heapGrowthPercent: 10, soakStallMs: 100, crossProcessJoinP99Ms: 100 });

/**
 * Each target the figures miss, as a sentence starting with the target's name. `soak` (a run with churn)
 * adds the soak's own target: no single stall over {@link TARGETS.soakStallMs}.
 */
export function missedTargets(v: Pick<ServerSummary, "patchRatePerRoom" | "loopLagMs" | "heapGrowthPercent" | "joinMs">, soak = false): string[] {
  const missed: string[] = [];
  if (v.patchRatePerRoom.min < TARGETS.patchRateMin) missed.push(`patch rate ${v.patchRatePerRoom.min} per s in the slowest room (target >= ${TARGETS.patchRateMin})`);
  if (v.loopLagMs.p99 > TARGETS.loopLagP99Ms) missed.push(`event-loop lag p99 ${v.loopLagMs.p99} ms (target <= ${TARGETS.loopLagP99Ms})`);
  if (v.joinMs.p99 > TARGETS.joinP99Ms) missed.push(`join on the loop p99 ${v.joinMs.p99} ms (target <= ${TARGETS.joinP99Ms})`);
  if (soak && v.loopLagMs.max > TARGETS.soakStallMs) missed.push(`stall of ${v.loopLagMs.max} ms, the longest (target <= ${TARGETS.soakStallMs} in a soak)`);
  if (v.heapGrowthPercent !== null && v.heapGrowthPercent >= TARGETS.heapGrowthPercent) missed.push(`live heap growth ${v.heapGrowthPercent}% (target < ${TARGETS.heapGrowthPercent})`);
  return missed;
}
