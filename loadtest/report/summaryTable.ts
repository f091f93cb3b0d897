import type { Spread } from "./quantiles.js";
import { GENERATOR_SATURATED_LAG_MS, type LoadTestSummary } from "./summary.js";
import { TARGETS } from "./targets.js";

/** The report as an aligned two-column table (what `npm run loadtest` prints). */
export function formatTable(s: LoadTestSummary): string {
  const rows: [string, string][] = [];
  const add = (label: string, value: string) => rows.push([label, value]);
  const ms = (v: number) => (Number.isFinite(v) ? `${v} ms` : "-");
  add("result", s.ok ? "ok" : `FAILED: ${s.problems.join("; ")}`);
  add("clients connected / failed", `${s.clients.joined} / ${s.clients.failed} (peak ${s.clients.peak} at once, ${s.clients.decoding} decoding, ${s.clients.churned} churned)`);
  add("rooms", String(s.rooms));
  add("measured", `${s.seconds.measured} s after a ${s.seconds.ramp} s ramp and ${s.options.warmup} s warm-up`);
  add("bytes / client / s received", String(s.traffic.bytesPerClientPerSecond));
  add("patches / client / s received", String(s.traffic.patchesPerClientPerSecond));
  // Summaries saved before hearing have none of its figures.
  const hearing = s.hearing ?? { on: false, noisesReceived: 0, noiseMessages: 0 };
  const deaf = s.options.server === "plain" ? "the plain peer has no hearing" : "--hearing off";
  add("noises / client / s received", `${s.traffic.noisesPerClientPerSecond ?? 0}${hearing.on ? ` (${hearing.noisesReceived} in ${hearing.noiseMessages} noise messages, whole run)` : ` (${deaf})`}`);
  add("messages / s in, out", `${s.traffic.messagesPerSecondIn}, ${s.traffic.messagesPerSecondOut}`);
  add("round trip p50 / p99 / max", `${ms(s.roundTripMs.p50)} / ${ms(s.roundTripMs.p99)} / ${ms(s.roundTripMs.max)} (${s.roundTripMs.samples} pings)`);
  const joinTrip = (j: (Spread & { samples: number }) | null) => (j === null ? "-" : `${j.p50} / ${j.p99} / ${j.max} ms (${j.samples})`);
  const probe = s.joinProbeMs;
  const crossTarget = s.options.targets ? ` (target p99 < ${TARGETS.crossProcessJoinP99Ms})` : "";
  add("join round trip p50 / p99 / max, same process", joinTrip(s.joinRoundTripMs.local));
  if (s.joinRoundTripMs.crossProcess !== null) add("  across processes", `${joinTrip(s.joinRoundTripMs.crossProcess)}${probe === null ? crossTarget : " (timed on the bots' loop)"}`);
  if (probe !== null) {
    add("join probe p50 / p99 / max, same process", `${joinTrip(probe.local)}; ${probe.perSecond} joins/s, ${probe.failed} failed, probe loop lag p99 ${probe.loopLagP99Ms} ms`);
    add("  across processes", `${joinTrip(probe.crossProcess)}${probe.crossProcess === null ? "" : crossTarget}`);
  }
  add("errors", s.errors.total === 0 ? "0" : `${s.errors.total} (${Object.entries(s.errors.byKind).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ")})`);
  const lp = s.levelPlay;
  add("level play: bots' door opens, shuts, grenades", lp.on ? `${lp.sent.doorOpens}, ${lp.sent.doorShuts}, ${lp.sent.smokes} sent; ${lp.refused} refused by the room (not errors)` : "off (--level-play off)");
  add("level play: bots' distractions thrown / refused", !lp.on ? "off (--level-play off)" : !hearing.on ? `none (${deaf})` : `${lp.sent.distractions ?? 0} / ${lp.distractionsRefused ?? 0} (refusals are not errors)`);
  const g = s.gaits;
  const pct = (f: number) => `${Math.round(f * 1000) / 10}%`;
  if (g !== undefined && g.frames > 0) add("bots' gaits, share of input frames", `run ${pct(g.run)}, walk ${pct(g.walk)}, crouch ${pct(g.crouch)}, standing ${pct(g.still)}`);
  add("decoding clients: mean view, far leaks", `${s.clientChecks.meanEntitiesHeld} entities, ${s.clientChecks.farLeaks} beyond ${s.clientChecks.holdLimitM ?? "-"} m`);
  const v = s.server;
  if (v === null) {
    add("server figures", s.serverNote ?? "none");
  } else {
    const guards = s.options.guards as number[] | undefined;
    add("server: guards per room, culling", `${guards !== undefined && guards.length > 1 ? guards.join(", ") + " in turn" : v.guardsPerRoom}, ${s.options.server === "plain" ? "none (the plain peer: no vision, no culling)" : v.cullingEnabled ? "on" : "off"}`);
    // Targets are printed only when the run is held to them: a run never says ok next to a missed target.
    const target = (text: string) => (s.options.targets ? `; target ${text}` : "");
    add("patch rate per room min / p50", `${v.patchRatePerRoom.min} / ${v.patchRatePerRoom.p50} per s${s.options.targets ? ` (target >= ${TARGETS.patchRateMin})` : ""}`);
    add("event-loop lag p99 over the run (worst / median window), max", `${v.loopLagMs.p99} ms (${v.loopLagMs.worstWindowP99} / ${v.loopLagMs.p99Median} ms), ${v.loopLagMs.max} ms (${v.loopLagMs.windows} windows${target(`p99 <= ${TARGETS.loopLagP99Ms}${(s.options.churn as number) > 0 ? `, max <= ${TARGETS.soakStallMs}` : ""}`)})`);
    add("tick p50 / p99 / max", `${v.tickMs.p50} / ${v.tickMs.p99} / ${v.tickMs.max} ms`);
    add("join on the loop p50 / p99 / max", `${v.joinMs.p50} / ${v.joinMs.p99} / ${v.joinMs.max} ms (${v.joinMs.joins} joins${s.options.targets ? `; target p99 <= ${TARGETS.joinP99Ms}` : ""})`);
    add("  of which the join's own work, GC pauses taken off", `${v.joinWorkMs.p50} / ${v.joinWorkMs.p99} / ${v.joinWorkMs.max} ms`);
    add("patch broadcast p50 / p99 / max", `${v.patchMs.p50} / ${v.patchMs.p99} / ${v.patchMs.max} ms`);
    if (v.lateMs !== null) add("firing lateness p50 / p99 / max", `${v.lateMs.p50} / ${v.lateMs.p99} / ${v.lateMs.max} ms (how long a room's due step waited for the loop)`);
    add("server CPU", `${v.cpuPercentOfCore}% of a core, ${v.cpuMsPerClientSecond} ms per client per s`);
    add("RSS start / end", `${v.memoryMB.rssStart} / ${v.memoryMB.rssEnd} MB`);
    add("heap start / after warm-up / end", `${v.memoryMB.heapStart} / ${v.memoryMB.heapAfterWarmup} / ${v.memoryMB.heapEnd} MB`);
    const live = v.liveHeapMB;
    add("live heap after major GCs, first / last third", `${live.firstThird ?? "-"} / ${live.lastThird ?? "-"} MB (${live.majorGcs} major GCs)`);
    add("heap growth after warm-up", v.heapGrowthPercent === null ? "- (too few major GCs)" : `${v.heapGrowthPercent}% (${s.options.targets ? `target < ${TARGETS.heapGrowthPercent}; ` : ""}floor of the polls: ${v.heapFloorGrowthPercent ?? "-"}%)`);
    add("vision rays / tick, staleness max", v.visionRaysPerTick === null ? NA : `${v.visionRaysPerTick}, ${v.stalenessMaxTicks ?? NA} ticks`);
    add("awareness events / room / s", v.awarenessEventsPerRoomPerSecond === null ? NA : String(v.awarenessEventsPerRoomPerSecond));
    add("view churn / client / tick", v.viewChurnPerClientTick === null ? NA : String(v.viewChurnPerClientTick));
    const c = v.culling;
    const counts = c === null ? "" : `${c.leaks} / ${c.popIns} / ${c.misses} / ${c.soundLeaks ?? 0}`;
    add("leaks / pop-ins / misses / sound leaks", c === null ? `${NA} (no culling to audit)` : c.auditedClientTicks === 0 ? `${counts} (NOT audited: 0 proves nothing)` : `${counts} (${c.auditedClientTicks} client-ticks, ${c.soundsAudited ?? 0} sounds audited)`);
    const play = v.play;
    add("doors toggled, smoke grenades landed (whole run)", play === null ? `${NA} (the server does not count them)` : `${play.doorsToggled}, ${play.smokesThrown}`);
    if (play !== null) add("escapes, captures (whole run)", `${play.escapes}, ${play.captures ?? NA}`);
    const noises = v.noises ?? null;
    add("noises made: footsteps and thuds (whole run)", noises === null ? `${NA} (the server does not count them)` : `${noises}${hearing.on ? "" : ` (${deaf})`}`);
    add("rejected inputs, error closes, exceptions", `${v.rejectedInputs}, ${v.errorDisconnects}, ${v.exceptions}`);
    add("steps dropped by late loops (whole run)", String(v.stepsDropped));
    for (const p of v.processes ?? []) {
      add(`process ${p.processId}`, `${p.rooms} rooms, ${p.clients} clients, ${p.guards} guards; CPU ${p.cpuPercentOfCore}% (${p.cpuMsPerClientSecond} ms per client per s); lag p99 ${p.loopLagMs.p99} ms, max ${p.loopLagMs.max} ms; patch rate min ${p.patchRateMin}; join p99 ${p.joinP99Ms} ms; leaks / pop-ins / misses / sound leaks ${p.leaks} / ${p.popIns} / ${p.misses} / ${p.soundLeaks ?? 0}`);
    }
  }
  add("load generator", `${s.generator.cpuPercentOfCore}% of a core, loop lag p99 ${s.generator.loopLagP99Ms} ms${s.generator.loopLagP99Ms > GENERATOR_SATURATED_LAG_MS ? " (saturated: its round trips and rates are partly its own)" : ""}`);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join("\n");
}

/** What the table prints for a figure the server does not have (the plain peer's vision and culling). */
const NA = "n/a";
