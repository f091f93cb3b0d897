import type { AuditCounts } from "sightline/culling";
import { TICK_RATE } from "../../shared/gameRules.js";

/** What one culling update reports (the plugin's `update()`). */
export interface CullingTick {
  adds: number;
  removes: number;
  maxPerClient: number;
  potentiallyVisible: number;
}

/** What the stats read from the culling plugin. */
export interface CullingFigures {
  readonly audit: { readonly counts: AuditCounts; readonly failures: readonly string[] } | null;
  readonly counters: { readonly roundTrips: { p50: number; max: number; measured: number } };
}

/**
 * A room's own figures: tick cost, what the scheduler and awareness did, and every rejected input,
 * message or frame, by reason. Plain counters, read by tests, by `GET /stats` and by the load test.
 */
export class RoomStats {
  ticks = 0;
  /**
   * Fixed steps the game loop dropped because it fired more than 5 steps late (the simulation then runs
   * slower than real time: overload, or a stall of a quarter second at 20 Hz). 0 on a healthy server.
   */
  stepsDropped = 0;
  /** Where this room's steps fall in the step period, ms (rooms of one process are spread over it). */
  stepPhaseMs = 0;
  /** Input frames simulated. */
  inputsApplied = 0;
  /** Input frames dropped because a number in them was NaN or Infinity (see `sanitizeMoveFrame`). */
  inputsNonFinite = 0;
  /** Input frames skipped because a client had queued more than the backlog limit (latency bound). */
  inputsSkipped = 0;
  /** Messages of a type the room does not handle. */
  messagesUnknown = 0;
  /** Messages of a known type whose payload failed validation. */
  messagesInvalid = 0;
  /** Frames whose protocol code the server does not accept from clients (dropped by Colyseus). */
  framesGarbage = 0;
  /** Clients disconnected for sending more than `maxMessagesPerSecond` frames (close 4002). */
  floodDisconnects = 0;
  /** Clients closed by the server with an error (4002: undecodable frame, flood, ...). */
  errorDisconnects = 0;
  /** Clients closed for a frame over the transport's size limit (close 1009). */
  oversizedDisconnects = 0;
  /** Joins turned down for bad options (invalid team, unknown spawn). */
  joinsRefused = 0;
  /** Exceptions caught by `onUncaughtException` (the room kept running). */
  exceptions = 0;
  /** Detection events produced. */
  detectionEvents = 0;
  /** Round outcomes. */
  escapes = 0;
  captures = 0;
  /** Doors opened or shut (by players and guards), and smoke grenades that landed. */
  doorsToggled = 0;
  smokesThrown = 0;
  /** Footsteps and thuds made (hearing on). */
  noises = 0;
  /** Sight rays cast, summed over ticks. */
  rays = 0;
  /** Scheduler staleness (ticks) after the last tick: the worst pending observer. */
  stalenessMax = 0;
  /** Culling: entities added to / removed from client views, summed; the largest per client in one tick. */
  viewAdds = 0;
  viewRemoves = 0;
  viewChurnMaxPerClient = 0;
  /** Client-ticks of view upkeep (the denominator of churn per client per tick). */
  viewClientTicks = 0;
  /** Entities potentially visible after the last tick, summed over teams. */
  potentiallyVisible = 0;
  /** Truth harness (when `culling.audit` is on): leaks, pop-ins and misses (all must stay 0), client-ticks audited. */
  leaks = 0;
  popIns = 0;
  misses = 0;
  auditedClientTicks = 0;
  /** Noises delivered that the client's team could not hear or that named an emitter out of view (must stay 0), and deliveries audited. */
  soundLeaks = 0;
  soundsAudited = 0;
  /** The truth harness's first failures, each a sentence naming the tick, client, entity and positions (at most 20). */
  auditFailures: readonly string[] = [];
  /** Players' tile field of view (explored memory): recomputes, and the time spent updating it, ms, summed over ticks. */
  tileVisionRecomputes = 0;
  tileVisionMs = 0;
  /** Round-trip estimates (ms) from the WebSocket pings, p50 and max over clients, refreshed about once a second. */
  roundTripMs = { p50: 0, max: 0, clients: 0 };
  /**
   * State patches broadcast (Colyseus `broadcastPatch` runs, on its own `patchRate` timer). Under overload
   * the room's fixed step catches up with extra steps and hides it from tick time; the patch rate falls.
   */
  patches = 0;

  /** When the last patches were broadcast (ms, a ring), for the recent patch rate. */
  private readonly patchTimes = new Float64Array(256);
  /** What the last patches cost (ms, a ring the size of the tick window): encoding and sending. */
  private readonly patchMs: Float64Array;

  private readonly tickMs: Float64Array;
  /** What the last joins cost the loop (ms, a ring of 256): `onJoin` plus the first full-state encode. */
  private readonly joinMs = new Float64Array(256);
  /** Joins recorded. */
  joins = 0;
  /** The same joins without the garbage-collection pauses that fell inside them, ms (a ring of 256). */
  private readonly joinWorkMs = new Float64Array(256);
  private joinWorks = 0;
  private readonly stepMs: Float64Array;
  private readonly cullMs: Float64Array;
  /** How late each firing of the game loop ran after its grid time, ms (waiting behind other rooms, GC). */
  private readonly lateMs: Float64Array;
  private firings = 0;
  private tickSamples = 0;
  private sortScratch = new Float64Array(0);

  /** @param window number of recent ticks the tick-time percentiles cover (default: a minute at the demo's tick rate) */
  constructor(window = 60 * TICK_RATE) {
    this.tickMs = new Float64Array(window);
    this.stepMs = new Float64Array(window);
    this.cullMs = new Float64Array(window);
    this.patchMs = new Float64Array(window);
    this.lateMs = new Float64Array(window);
  }

  /** Records how late one firing of the game loop ran after its grid time, ms. */
  recordLateness(ms: number): void {
    this.lateMs[this.firings % this.lateMs.length] = Math.max(0, ms);
    this.firings++;
  }

  /** Firing lateness over the recent window (how long a due firing waited for the loop), milliseconds. */
  lateness(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.lateMs, this.firings);
  }

  /** Records one tick's cost, milliseconds: the whole tick, and the simulation step and culling inside it. */
  recordTick(ms: number, stepMs: number, cullMs = 0): void {
    const slot = this.tickSamples % this.tickMs.length;
    this.tickMs[slot] = ms;
    this.stepMs[slot] = stepMs;
    this.cullMs[slot] = cullMs;
    this.tickSamples++;
    this.ticks++;
  }

  /** Records one update of the tile field of view: its cost, ms, and the recomputes so far. */
  recordTileVision(ms: number, recomputes: number): void {
    this.tileVisionMs += ms;
    this.tileVisionRecomputes = recomputes;
  }

  /**
   * Records one culling update of `clients` views (the plugin's report), the audit's totals when it runs,
   * and, once a second at 20 Hz, the round trips the culling is using.
   */
  recordCulling(r: CullingTick, clients: number, culling: CullingFigures): void {
    this.viewAdds += r.adds;
    this.viewRemoves += r.removes;
    this.viewClientTicks += clients;
    if (r.maxPerClient > this.viewChurnMaxPerClient) this.viewChurnMaxPerClient = r.maxPerClient;
    this.potentiallyVisible = r.potentiallyVisible;
    const audit = culling.audit;
    if (audit !== null) {
      this.leaks = audit.counts.leaks;
      this.popIns = audit.counts.popIns;
      this.misses = audit.counts.misses;
      this.auditedClientTicks = audit.counts.clientTicks - audit.counts.excused;
      this.soundLeaks = audit.counts.soundLeaks;
      this.soundsAudited = audit.counts.soundsAudited;
      this.auditFailures = audit.failures;
    }
    // Once a second at the demo's tick rate: round trips change slower than ticks.
    if (this.ticks % TICK_RATE === 0) {
      const rtt = culling.counters.roundTrips;
      this.roundTripMs = { p50: rtt.p50, max: rtt.max, clients: rtt.measured };
    }
  }

  /** Records one patch broadcast at `nowMs` (a monotonic clock, e.g. `performance.now()`) that took `ms`. */
  recordPatch(nowMs: number, ms: number): void {
    this.patchTimes[this.patches % this.patchTimes.length] = nowMs;
    this.patchMs[this.patches % this.patchMs.length] = ms;
    this.patches++;
  }

  /** Records what one join cost the loop, ms: the room's `onJoin` and the full state sent on the client's ack. */
  recordJoin(ms: number): void {
    this.joinMs[this.joins % this.joinMs.length] = ms;
    this.joins++;
  }

  /** Records one join's own work on the loop, ms: its cost less the collection pauses inside it. */
  recordJoinWork(ms: number): void {
    this.joinWorkMs[this.joinWorks % this.joinWorkMs.length] = Math.max(0, ms);
    this.joinWorks++;
  }

  /** Joins' own work over the last 256 joins (collection pauses taken off), milliseconds. */
  joinWorkTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.joinWorkMs, this.joinWorks);
  }

  /** Join cost on the loop over the last 256 joins, milliseconds. */
  joinTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.joinMs, this.joins);
  }

  /** Patch broadcast cost over the recent window (encoding every view and sending), milliseconds. */
  patchTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.patchMs, this.patches);
  }

  /** Patches per second over the `seconds` before `nowMs` (at most 10 s: the ring holds 256 patches). */
  patchRate(nowMs: number, seconds = 5): number {
    const n = Math.min(this.patches, this.patchTimes.length);
    let count = 0;
    for (let i = 0; i < n; i++) if (nowMs - this.patchTimes[i]! <= seconds * 1000) count++;
    return count / seconds;
  }

  /** Tick cost over the recent window (inputs + simulation + state sync), milliseconds. */
  tickTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.tickMs);
  }

  /** Simulation step cost over the recent window (physics, vision, awareness, guards), milliseconds. */
  stepTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.stepMs);
  }

  /** Culling cost over the recent window (potential sight + view upkeep, plus the audit when on), milliseconds. */
  cullTime(): { p50: number; p99: number; max: number; samples: number } {
    return this.window(this.cullMs);
  }

  private window(samples: Float64Array, count = this.tickSamples): { p50: number; p99: number; max: number; samples: number } {
    const n = Math.min(count, samples.length);
    if (n === 0) return { p50: 0, p99: 0, max: 0, samples: 0 };
    // Sorted in a scratch buffer: /stats and /metrics are polled every second, and copying to an array
    // and sorting with a comparator was a few percent of all the server's allocations at 300 clients.
    if (this.sortScratch.length < n) this.sortScratch = new Float64Array(samples.length);
    const sorted = this.sortScratch.subarray(0, n);
    sorted.set(samples.subarray(0, n));
    sorted.sort();
    const at = (q: number) => sorted[Math.min(n - 1, Math.floor(q * n))]!;
    return { p50: at(0.5), p99: at(0.99), max: sorted[n - 1]!, samples: n };
  }


  /** Every rejection, summed. */
  get rejections(): number {
    return this.inputsNonFinite + this.joinsRefused + this.messagesUnknown + this.messagesInvalid + this.framesGarbage + this.floodDisconnects + this.oversizedDisconnects;
  }

  /** A JSON-ready copy. */
  snapshot(): Record<string, unknown> {
    return {
      ticks: this.ticks,
      stepsDropped: this.stepsDropped,
      stepPhaseMs: this.stepPhaseMs,
      patches: this.patches,
      patchesPerSecond: this.patchRate(performance.now()),
      patchMs: this.patchTime(),
      tickMs: this.tickTime(),
      lateMs: this.lateness(),
      joinMs: this.joinTime(),
      joinWorkMs: this.joinWorkTime(),
      // Each join's figures too (a room sees few joins): a reader pooling rooms needs the samples, not percentiles.
      joinSamplesMs: Array.from(this.joinMs.subarray(0, Math.min(this.joins, this.joinMs.length))),
      joinWorkSamplesMs: Array.from(this.joinWorkMs.subarray(0, Math.min(this.joinWorks, this.joinWorkMs.length))),
      stepMs: this.stepTime(),
      rays: this.rays,
      stalenessMax: this.stalenessMax,
      culling: {
        ms: this.cullTime(),
        potentiallyVisible: this.potentiallyVisible,
        viewAdds: this.viewAdds,
        viewRemoves: this.viewRemoves,
        churnPerClientTick: this.viewClientTicks === 0 ? 0 : (this.viewAdds + this.viewRemoves) / this.viewClientTicks,
        churnMaxPerClient: this.viewChurnMaxPerClient,
        leaks: this.leaks,
        popIns: this.popIns,
        misses: this.misses,
        auditedClientTicks: this.auditedClientTicks,
        soundLeaks: this.soundLeaks,
        soundsAudited: this.soundsAudited,
        auditFailures: this.auditFailures,
        roundTripMs: this.roundTripMs,
      },
      tileVision: { recomputes: this.tileVisionRecomputes, msPerTick: this.ticks === 0 ? 0 : this.tileVisionMs / this.ticks },
      detectionEvents: this.detectionEvents,
      escapes: this.escapes,
      captures: this.captures,
      doorsToggled: this.doorsToggled,
      smokesThrown: this.smokesThrown,
      noises: this.noises,
      inputsApplied: this.inputsApplied,
      rejected: {
        total: this.rejections,
        inputsNonFinite: this.inputsNonFinite,
        inputsSkipped: this.inputsSkipped,
        joinsRefused: this.joinsRefused,
        messagesUnknown: this.messagesUnknown,
        messagesInvalid: this.messagesInvalid,
        framesGarbage: this.framesGarbage,
        floodDisconnects: this.floodDisconnects,
        oversizedDisconnects: this.oversizedDisconnects,
      },
      errorDisconnects: this.errorDisconnects,
      exceptions: this.exceptions,
    };
  }
}
