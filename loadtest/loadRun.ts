import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { TICK_SECONDS } from "../shared/gameRules.js";
import { seededRandom } from "../shared/seededRandom.js";
import { Bot, type BotContext, type ViewTally } from "./bot.js";
import { BOT_KINDS } from "./botBehaviour.js";
import { newGaitTally, type GaitTally } from "./botGait.js";
import { ErrorTally } from "./errorTally.js";
import { levelPlayOn, newLevelPlayTally, type LevelPlayTally } from "./levelPlay.js";
import { JoinProbe } from "./probe/joinProbe.js";
import type { ProbeReport } from "./probe/probeMessages.js";
import type { Traffic } from "./meteredClient.js";
import type { LoadTestOptions } from "./options.js";
import type { ProgressLine } from "./progress.js";
import { fetchPublicLevel } from "./publicMap.js";
import { ServerWatch } from "./serverWatch.js";

/**
 * Slack a decoding bot allows past the culling range before it calls something held a leak, meters: the
 * look-ahead on both the eye and the target (at most 3 m each) plus what a linger lets an entity travel.
 */
const HOLD_SLACK = 8;

/** Everything a run observed, raw; `report/summary.ts` turns it into the report. */
export interface RunRecord {
  options: LoadTestOptions;
  /** Where the bots matchmade, comma-separated when there are several processes. */
  endpoint: string;
  startedAt: string;
  aborted: boolean;
  clients: { target: number; joined: number; failed: number; peak: number; atEnd: number; churned: number; decoding: number };
  joinFailures: string[];
  roomIds: string[];
  /** Seconds: the ramp as it took, and the window rates are measured over (after warm-up). */
  rampSeconds: number;
  measuredSeconds: number;
  /** Traffic at the end of warm-up and at the end, and connected client-seconds in between. */
  traffic: { warm: Traffic; end: Traffic; framesOutWarm: number; framesOutEnd: number; clientSeconds: number };
  roundTripMs: { p50: number; p99: number; max: number; samples: number };
  views: ViewTally;
  holdLimit: number | undefined;
  errors: ErrorTally;
  generator: { cpuPercentOfCore: number; loopLagP99Ms: number };
  /** One watch per server process polled (empty when not polled). */
  servers: ServerWatch[];
  serverNote: string | undefined;
  /** Join round trips, ms, on the same process as the matchmaking or across processes. */
  joins: { local: number[]; cross: number[] };
  /** What the join probe timed while measuring (`--join-probe`), or why it has nothing; undefined without one. */
  probe: ProbeReport | { error: string } | undefined;
  /** What the bots asked of doors, smoke and distractions over the whole run, and what the room refused (all 0 with `--level-play off`). */
  play: LevelPlayTally;
  /** The bots' input frames by gait over the whole run. */
  gaits: GaitTally;
  /**
   * Noises the bots were told of (`noise` messages, each an array): over the whole run (`noises`,
   * `messages`), and the count at the end of warm-up and at the end, for the measured rate.
   */
  heard: { noises: number; messages: number; warmNoises: number; endNoises: number };
}

/**
 * Runs one load: fetches the public map, creates `rooms` rooms, spreads the other bots over them across
 * the ramp, drives every bot from one 20 Hz timer for `duration` seconds (replacing some per minute with
 * `churn`), then has every bot leave. Rates, latency and heap figures cover the time after warm-up.
 * Stops early (bots still leave) when `signal` aborts.
 */
export async function runLoad(options: LoadTestOptions, endpoints: string | string[], signal: AbortSignal, progress: ProgressLine): Promise<RunRecord> {
  const all = typeof endpoints === "string" ? [endpoints] : endpoints;
  const endpoint = all.join(", ");
  const httpBase = all[0]!.replace(/^ws/, "http");
  const level = await fetchPublicLevel(httpBase, options.map);
  if (level.map.spawns.length === 0) throw new Error(`map ${options.map} has no spawn: bots need named spawns to know where they start`);

  const servers: ServerWatch[] = [];
  let serverNote: string | undefined;
  if (options.serverStats) {
    for (const e of all) {
      const opened = await ServerWatch.open(e.replace(/^ws/, "http"));
      if (opened.watch !== undefined) servers.push(opened.watch);
      else serverNote = `no server figures from ${e} (${opened.reason}); pass --no-server-stats for a server without GET /stats`;
    }
  } else {
    serverNote = "server figures not polled (--no-server-stats)";
  }
  // Marks every process at (nearly) the same moment.
  const mark = async (name: string) => (await Promise.all(servers.map((w) => w.mark(name))))[0];

  const traffic: Traffic = { bytesIn: 0, messagesIn: 0, patchesIn: 0 };
  const ctx: BotContext = {
    endpoints: all,
    roomName: options.room,
    level,
    traffic,
    errors: new ErrorTally(),
    roundTrips: createHistogram({ lowest: 1, highest: 600e6, figures: 3 }),
    measuring: false,
    tickSeconds: TICK_SECONDS,
    holdLimit: undefined,
    views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] },
    sent: { frames: 0 },
    levelPlay: options.levelPlay === "on" ? levelPlayOn(level.map, options.hearing === "on") : undefined,
    play: newLevelPlayTally(),
    gaits: newGaitTally(),
    heard: { messages: 0, noises: 0 },
    joins: { local: [], cross: [] },
  };
  const random = seededRandom(options.seed);
  const bots: Bot[] = [];
  const joinFailures: string[] = [];
  let failed = 0;
  let peak = 0;
  let nextIndex = 0;
  const roomIds: string[] = [];
  // With level play off, our rooms are made without the map's doors too: the level without them, to set
  // beside one with doors and smoke in play (the plain peer has neither, and takes no such option).
  // With hearing off, rooms where nobody is heard (no footsteps, no thuds, deaf guards): what hearing costs
  // (the peer has no hearing either, and takes no such option).
  const turnedOff = {
    ...(options.levelPlay === "off" && options.server !== "plain" ? { doors: false } : {}),
    ...(options.hearing === "off" && options.server !== "plain" ? { hearing: false } : {}),
    ...(options.fairness === "off" && options.server !== "plain" ? { fairness: false } : {}),
  };
  const createOptions = (room: number): Record<string, unknown> =>
    options.guards === undefined ? { map: options.map, ...turnedOff } : { map: options.map, guards: options.guards[room % options.guards.length], ...turnedOff };

  /** Bot number `i` of the run: room i mod rooms, and within that room the k-th. */
  const newBot = (i: number): Bot => {
    const k = Math.floor(i / options.rooms);
    const r = i % options.rooms;
    const f = options.decodeSample;
    const spawn = level.map.spawns[k % level.map.spawns.length]!;
    // Each room gets its first bot decoding (unless the sample is 0), then one in every 1 / decodeSample.
    const decodes = Math.floor(k * f) !== Math.floor((k - 1) * f);
    const bot = new Bot(nextIndex++, BOT_KINDS[k % BOT_KINDS.length]!, decodes, `t${r}-${Math.floor(k / options.teamSize)}`, spawn, ctx, seededRandom(options.seed * 7919 + i));
    // Creators go through the endpoints in turn, and so do the bots of each room: which process a bot
    // asks never follows which room it joins, so with several processes some joins always cross.
    bot.via = k + r;
    return bot;
  };
  const join = async (bot: Bot, roomId: string | undefined, room = 0): Promise<void> => {
    bots.push(bot);
    try {
      await bot.join(roomId, createOptions(room));
    } catch (err) {
      failed++;
      if (joinFailures.length < 10) joinFailures.push(`bot ${bot.index}: ${(err as Error).message}`);
    }
  };
  const connected = () => {
    let n = 0;
    for (const b of bots) if (b.phase === "in") n++;
    return n;
  };

  const generatorLag = monitorEventLoopDelay({ resolution: 10 });
  generatorLag.enable();
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  const driver = setInterval(() => {
    const now = performance.now();
    for (const bot of bots) {
      try {
        bot.tick(now);
      } catch (err) {
        ctx.errors.add("bot", `bot ${bot.index}: ${(err as Error).stack ?? err}`);
      }
    }
  }, TICK_SECONDS * 1000);

  let last = { at: performance.now(), bytes: 0, messages: 0, frames: 0 };
  let phaseName = "ramp";
  let clientSeconds = 0;
  let churnDue = 0;
  let churned = 0;
  const pending: Promise<void>[] = [];
  const status = setInterval(() => {
    const now = performance.now();
    const dt = (now - last.at) / 1000;
    const n = connected();
    peak = Math.max(peak, n);
    if (ctx.measuring) clientSeconds += n * dt;
    if (phaseName !== "ramp" && options.churn > 0 && !signal.aborted) {
      churnDue += (options.churn * options.clients / 60) * dt;
      while (churnDue >= 1) {
        churnDue--;
        const inRoom = bots.filter((b) => b.phase === "in");
        const leaving = inRoom[Math.floor(random() * inRoom.length)];
        if (leaving === undefined) break;
        churned++;
        const replacement = new Bot(nextIndex++, leaving.kind, leaving.decodes, leaving.team, leaving.spawn, ctx, seededRandom(options.seed * 7919 + nextIndex));
        pending.push(leaving.leave().then(() => join(replacement, leaving.roomId)));
      }
    }
    const rtt = ctx.roundTrips.count > 0 ? `rtt p50 ${(ctx.roundTrips.percentile(50) / 1000).toFixed(2)} ms` : "rtt -";
    progress.update(elapsed(), [
      `${Math.round(elapsed())}s ${phaseName}`,
      `connected ${n}/${options.clients}${failed > 0 ? ` (${failed} failed)` : ""}`,
      `rooms ${roomIds.length}`,
      `in ${formatBytes((traffic.bytesIn - last.bytes) / dt)}/s ${Math.round((traffic.messagesIn - last.messages) / dt)} msg/s`,
      `out ${Math.round((ctx.sent.frames - last.frames) / dt)} msg/s`,
      rtt,
      `errors ${ctx.errors.total}`,
    ].join(" | "));
    last = { at: now, bytes: traffic.bytesIn, messages: traffic.messagesIn, frames: ctx.sent.frames };
  }, 1000);

  let warm: Traffic = { ...traffic };
  let framesOutWarm = 0;
  let noisesWarm = 0;
  let cpuWarm = process.cpuUsage();
  let measuredFrom = performance.now();
  let rampSeconds = 0;
  let record: RunRecord | undefined;
  let probe: JoinProbe | undefined;
  let probeReport: RunRecord["probe"];
  try {
    // Loaded before the ramp, so its start-up is not measured.
    if (options.joinProbe > 0) probe = await JoinProbe.start();
    // Rooms first, one bot each; then every other bot joins an existing room, spread over the ramp.
    for (let r = 0; r < options.rooms && !signal.aborted; r++) {
      const bot = newBot(r);
      await join(bot, undefined, r);
      if (bot.roomId !== undefined) roomIds.push(bot.roomId);
    }
    if (roomIds.length === 0) throw new Error(`no room could be created: ${joinFailures[0] ?? "aborted"}`);
    // Decoding bots check what they hold against the culling range the server reports.
    const created = (await Promise.all(servers.map((w) => w.mark("rooms")))).flatMap((r) => r?.rooms ?? []).find((room) => room.roomId === roomIds[0]);
    if (created?.cullingEnabled === true && created.cullingRange !== undefined) ctx.holdLimit = created.cullingRange + HOLD_SLACK;
    const rampStart = performance.now();
    for (let i = options.rooms; i < options.clients && !signal.aborted; i++) {
      await sleepUntil(rampStart + (options.ramp * 1000 * i) / options.clients, signal);
      pending.push(join(newBot(i), roomIds[(i % options.rooms) % roomIds.length]));
    }
    await Promise.allSettled(pending.splice(0));
    rampSeconds = (performance.now() - rampStart) / 1000;

    phaseName = "warm-up";
    const start = performance.now();
    await sleepUntil(start + options.warmup * 1000, signal);
    // Measuring starts here: traffic, round trips, generator CPU and loop lag, server marks.
    warm = { ...traffic };
    framesOutWarm = ctx.sent.frames;
    noisesWarm = ctx.heard.noises;
    cpuWarm = process.cpuUsage();
    generatorLag.reset();
    ctx.roundTrips.reset();
    ctx.measuring = true;
    measuredFrom = performance.now();
    await mark("warm");
    probe?.go({ endpoints: all, roomName: options.room, roomIds, joinOptions: { spawn: level.map.spawns[0]!.name, team: "join-probe" }, perSecond: options.joinProbe });
    phaseName = "measuring";
    await sleepUntil(start + options.duration * 1000, signal);
  } finally {
    const measuredSeconds = (performance.now() - measuredFrom) / 1000;
    ctx.measuring = false;
    const end = { ...traffic };
    const framesOutEnd = ctx.sent.frames;
    const noisesEnd = ctx.heard.noises;
    const cpu = process.cpuUsage(cpuWarm);
    const atEnd = connected();
    peak = Math.max(peak, atEnd);
    await mark("end");
    if (probe !== undefined) probeReport = await probe.stop().catch((err: Error) => ({ error: err.message }));
    phaseName = "leaving";
    await Promise.allSettled(pending.splice(0));
    await Promise.allSettled(bots.map((b) => b.leave()));
    clearInterval(driver);
    clearInterval(status);
    probe?.kill();
    for (const w of servers) w.stop();
    generatorLag.disable();
    progress.finish();
    const h = ctx.roundTrips;
    const lag = generatorLag.count > 0 ? Math.max(0, generatorLag.percentile(99) / 1e6 - 10) : 0;
    record = {
      options,
      endpoint,
      startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(),
      aborted: signal.aborted,
      clients: { target: options.clients, joined: bots.length - failed, failed, peak, atEnd, churned, decoding: bots.filter((b) => b.decodes && b.roomId !== undefined).length },
      joinFailures,
      roomIds,
      rampSeconds,
      measuredSeconds,
      traffic: { warm, end, framesOutWarm, framesOutEnd, clientSeconds },
      roundTripMs: h.count === 0 ? { p50: NaN, p99: NaN, max: NaN, samples: 0 } : { p50: h.percentile(50) / 1000, p99: h.percentile(99) / 1000, max: h.max / 1000, samples: h.count },
      views: ctx.views,
      holdLimit: ctx.holdLimit,
      errors: ctx.errors,
      generator: { cpuPercentOfCore: measuredSeconds > 0 ? (100 * (cpu.user + cpu.system)) / 1e6 / measuredSeconds : 0, loopLagP99Ms: lag },
      servers,
      serverNote,
      joins: ctx.joins,
      probe: probeReport,
      play: ctx.play,
      gaits: ctx.gaits,
      heard: { ...ctx.heard, warmNoises: noisesWarm, endNoises: noisesEnd },
    };
  }
  return record!;
}

/** Resolves at `at` (ms on performance.now()), or at once when `signal` aborts. */
function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
  const ms = at - performance.now();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** 1234567 -> "1.2 MB". */
function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "-";
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}
