/**
 * The join probe's process: joins the run's rooms one at a time on a fixed cadence, times each join, and
 * leaves at once. It runs apart from the bots because the bots' own join timings are taken on a loop that
 * drives hundreds of clients: under load that loop is late, and its lateness lands in every join it times.
 * A process that does nothing else times a join as a player's client would.
 */
import { Client, type Room } from "@colyseus/sdk";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { servingHost } from "../servingHost.js";
import type { ProbeGo, ProbeMessage, ProbeReport } from "./probeMessages.js";

/** A join slower than this is a failure (the matchmaker's own seat reservation lasts longer). */
const JOIN_TIMEOUT_MS = 10_000;
/** Resolution of the probe's own loop-lag monitor, ms (subtracted from its readings). */
const LAG_RESOLUTION_MS = 10;

const send = (m: ProbeMessage) => process.send!(m);
const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
const joins = { local: [] as number[], cross: [] as number[] };
const failures: string[] = [];
let failed = 0;
let stopping = false;
let running: Promise<void> | undefined;

process.on("message", (m: ProbeMessage) => {
  if (m.kind === "go" && running === undefined) running = probe(m);
  if (m.kind === "stop") void stop();
});
// The parent is gone: nothing to report to.
process.on("disconnect", () => process.exit(0));
send({ kind: "ready" });

async function probe(go: ProbeGo): Promise<void> {
  lag.enable();
  /** Host serving each room, once a join has shown it. */
  const hostOf = new Map<string, string>();
  const gapMs = 1000 / go.perSecond;
  let next = performance.now();
  for (let n = 0; !stopping; n++) {
    const roomId = go.roomIds[n % go.roomIds.length]!;
    // Every other join goes through a process that does not host the room (once its host is known):
    // the same run then times joins on the room's own process and joins that cross.
    const host = hostOf.get(roomId);
    const wantCross = n % 2 === 1;
    const endpoint = go.endpoints.find((e) => host !== undefined && (new URL(e).host !== host) === wantCross) ?? go.endpoints[n % go.endpoints.length]!;
    const served = await joinOnce(endpoint, go, roomId);
    if (served !== undefined) hostOf.set(roomId, served);
    next += gapMs;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else next = performance.now(); // a slow join: start again from now rather than catch up in a burst
  }
}

/** One timed join and a consented leave; the host that served the room, or undefined when it failed. */
async function joinOnce(endpoint: string, go: ProbeGo, roomId: string): Promise<string | undefined> {
  const client = new Client(endpoint);
  const asked = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let room: Room | undefined;
  try {
    room = await Promise.race([
      client.joinById(roomId, go.joinOptions),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no join within ${JOIN_TIMEOUT_MS} ms`)), JOIN_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    failed++;
    if (failures.length < 10) failures.push(`join of ${roomId} through ${endpoint}: ${(err as Error).message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  const took = performance.now() - asked;
  const served = servingHost(room, endpoint);
  (served === new URL(endpoint).host ? joins.local : joins.cross).push(took);
  room.reconnection.enabled = false;
  await room.leave(true).catch(() => undefined);
  return served;
}

async function stop(): Promise<void> {
  stopping = true;
  await running;
  lag.disable();
  const lagP99 = lag.count > 0 ? Math.max(0, lag.percentile(99) / 1e6 - LAG_RESOLUTION_MS) : 0;
  const report: ProbeReport = { kind: "report", joins, failed, failures, loopLagP99Ms: lagP99 };
  send(report);
  process.disconnect();
}
