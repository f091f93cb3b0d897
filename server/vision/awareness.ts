/**
 * Awareness meters and detection events: turns the vision engine's sightings into what stealth players
 * experience, a meter that fills, a "?" and then a "!", a search at the last known position.
 *
 * Plain data and callbacks: no Colyseus, no planck. Deterministic: the same sequence of `step` calls
 * produces the same levels, states and events (sightings are processed in the order given; pairs and
 * observers in the order they first appeared).
 */

/** One (observer, target) pair seen during a step. Distances in meters, angles in radians. */
export interface Sighting {
  observerId: string;
  targetId: string;
  /** Eye to target centre, meters. */
  distance: number;
  /** Angle between the observer's facing and the direction to the target; 0 = dead centre. */
  offAxis: number;
  /** The observer's half cone angle (PI for all around). */
  halfFov: number;
  /** The observer's range, meters (Infinity allowed). */
  range: number;
  /** Seen only through the proximity sense (the "sixth sense"), not the cone. */
  proximity?: boolean;
  /** How exposed the target is, in [0, 1]: 1 = in plain view; crouching or shadow lower it. Default 1. */
  visibility?: number;
  /** Where the target was seen, meters. */
  position: { x: number; y: number };
  /**
   * A slot for a consumer's own record of this pair, offered (null) by a producer that keeps one object
   * per pair from step to step, as `VisionSystem.sightings()` does; undefined when not offered. The
   * producer never reads it and clears it when the object moves to another pair. `AwarenessModel` keeps
   * its meter there, checking on each use that it is its own and for this pair, so it reaches the meter
   * without an id lookup.
   */
  memo?: unknown;
}

export type ObserverState = "idle" | "suspicious" | "alerted" | "searching";
export type DetectionEventType = "noticed" | "suspicious" | "spotted" | "lost" | "cleared";

/** What a detection event says; `seq` increases by one per event in this model. */
export interface DetectionEvent {
  seq: number;
  tick: number;
  type: DetectionEventType;
  observerId: string;
  targetId: string;
  /** The target's last known position, meters. */
  position: { x: number; y: number };
}

/** Rates, thresholds and windows of the model; every field optional, defaults in `DEFAULT_AWARENESS_OPTIONS`. */
export interface AwarenessOptions {
  /** Fill per second at `referenceDistance`, dead centre, idle observer, fully visible target. */
  fillRate?: number;
  /** Meters at which the fill rate equals `fillRate`. */
  referenceDistance?: number;
  /** Fill scales with (referenceDistance / distance) ^ this: closer fills faster. */
  distanceExponent?: number;
  /** Distances below this (meters) count as this, so the fill stays finite. */
  minDistance?: number;
  /** Fill is multiplied by 1 - this x (distance / range)^2: slower near the end of the range. */
  rangeEdgeSlowdown?: number;
  /** Fill is multiplied by 1 - this x (offAxis / halfFov)^2: a softer periphery, not a hard edge. */
  peripherySlowdown?: number;
  /** Fill multiplier when the target is sensed only through the proximity sense. */
  proximityFactor?: number;
  /** Fill multipliers by observer state: an alerted guard acquires faster. */
  stateFactor?: Partial<Record<ObserverState, number>>;
  /** Seconds a pair may go unseen before its level starts to decay. */
  graceSeconds?: number;
  /** Level lost per second once decaying. */
  decayRate?: number;
  /** Level at which an idle observer becomes suspicious. */
  suspiciousAt?: number;
  /** A pair can be `noticed` again only after its level has sat at 0 for this many seconds. */
  noticeRearmSeconds?: number;
  /** The last-known window: seconds an alerted observer keeps its target unseen before `lost`. */
  lostAfterSeconds?: number;
  /** Seconds a search lasts before the observer gives up (`cleared`). */
  searchSeconds?: number;
  /** Called for every event, in order, as well as returned by `step`. */
  onEvent?: (event: DetectionEvent) => void;
}

/** Defaults, calibrated so a guard (15 m range) staring at an exposed player spots them in about 2.4 s at 10 m and 0.5 s at 2 m. */
export const DEFAULT_AWARENESS_OPTIONS = Object.freeze({
  fillRate: 0.4,
  referenceDistance: 10,
  distanceExponent: 0.85,
  minDistance: 0.5,
  rangeEdgeSlowdown: 0.4,
  peripherySlowdown: 0.6,
  proximityFactor: 0.35,
  stateFactor: Object.freeze({ idle: 1, suspicious: 1.5, alerted: 3, searching: 2 }),
  graceSeconds: 1,
  decayRate: 0.25,
  suspiciousAt: 0.35,
  noticeRearmSeconds: 3,
  lostAfterSeconds: 3,
  searchSeconds: 8,
});

type Resolved = Omit<Required<AwarenessOptions>, "stateFactor" | "onEvent"> & {
  stateFactor: Record<ObserverState, number>;
  onEvent: ((event: DetectionEvent) => void) | null;
};

/**
 * One (observer, target) meter, stored lazily: its level as of `seenAt` (model seconds), from which the
 * level at any later time follows (hold for the grace period, then decay linearly). Unseen pairs are
 * therefore never touched step by step; a busy room pays for its sightings, not for its memory.
 *
 * Fields are declared in the order a step reads them (the engine lays them out in that order): a pair is
 * usually cold in memory when its sighting comes, and every extra cache line it spans costs a miss.
 */
class Pair {
  readonly rec: ObserverRecord;
  readonly targetId: string;
  /** Set once the pair is dropped, so a sighting's memo cannot revive it. */
  dropped = false;
  /** Step stamps: last sighting (duplicates within a step count once), and the step the meter filled. */
  seenStep = -1;
  /** Level at `seenAt`. */
  level = 0;
  /** Model time of the last sighting, seconds. */
  seenAt = 0;
  /** Whether the next fill from zero may announce `noticed`. */
  armed = true;
  reachedStep = -1;
  /** First-appearance rank within its observer: ties go to the lowest. */
  readonly order: number;
  /** Where the target was last seen, meters. */
  x = 0;
  y = 0;

  constructor(rec: ObserverRecord, targetId: string, order: number) {
    this.rec = rec;
    this.targetId = targetId;
    this.order = order;
  }

  /** Level at model time `t` (>= seenAt). */
  levelAt(t: number, o: Resolved): number {
    const late = t - this.seenAt - o.graceSeconds;
    if (late <= TIME_EPS) return this.level;
    const v = this.level - o.decayRate * late;
    return v > 0 ? v : 0;
  }

  /** Model time at which the level reaches 0 if unseen from now on. */
  zeroAt(o: Resolved): number {
    return this.seenAt + o.graceSeconds + this.level / o.decayRate;
  }
}

/** One observer's state machine and meters. Fields in the order a step reads them (see `Pair`). */
class ObserverRecord {
  readonly owner: AwarenessModel;
  readonly id: string;
  /** Index in the model's dense record list (and its deadline / touched arrays); -1 once dropped. */
  slot = -1;
  /** Step stamp of the last step with a sighting, and what those sightings found (see `step`). */
  touchedStep = -1;
  /** The first pair (in first-appearance order) seen this step at full awareness that may be spotted. */
  spot: Pair | null = null;
  /** The pair seen this step with the highest level (the earliest on ties). */
  seenTop: Pair | null = null;
  state: ObserverState = "idle";
  /** The focus target's pair while it exists (cleared by `remove`). */
  focusPair: Pair | null = null;
  /** Model time by which every meter is back at 0 if nothing is seen again (suspicious calms down). */
  calmAt = 0;
  /**
   * At least the level of every pair it holds, as of the end of the last step that touched it (meters
   * only fall while unseen, so it stays a bound): when the pair seen this step is above it, that pair is
   * the most aware one and the other pairs need not be visited. Exact again after each full scan.
   */
  levelCap = 0;
  /** Model time the focus was last seen (alerted), or the search began (searching). */
  since = 0;
  /** Last known position of the focus, meters; meaningful once `hasKnown`. */
  knownX = 0;
  knownY = 0;
  hasKnown = false;
  /** Target the state is about (the one spotted, or the most suspicious). */
  focus: string | null = null;
  readonly pairs = new Map<string, Pair>();
  /** The same pairs, densely, in the order they first appeared. */
  readonly pairList: Pair[] = [];
  nextOrder = 0;

  constructor(owner: AwarenessModel, id: string) {
    this.owner = owner;
    this.id = id;
  }
}

const NO_EVENTS: readonly DetectionEvent[] = Object.freeze([]);

/** Timers add up dt each step; 60 x 0.05 s sums to 2.9999999999999996, which must count as 3 s. */
const TIME_EPS = 1e-9;

/**
 * Per (observer, target) awareness in [0, 1] and a per-observer state machine
 * idle -> suspicious -> alerted -> searching -> idle, producing `noticed`, `suspicious`, `spotted`,
 * `lost` and `cleared` events.
 *
 * ```ts
 * const awareness = new AwarenessModel({ onEvent: (e) => broadcast(e) });
 * // each tick, after vision.tick():
 * const events = awareness.step(tick, 1 / 20, vision.sightings());
 * awareness.state("guard-1");              // "suspicious"
 * awareness.level("guard-1", "player-7");  // 0.42
 * ```
 */
export class AwarenessModel {
  private readonly o: Resolved;
  private readonly observers = new Map<string, ObserverRecord>();
  /** The same records, densely, in the order they first appeared (event order follows it). */
  private readonly records: ObserverRecord[] = [];

  private seq = 0;
  private stepCount = 0;
  /** Model time, seconds: the sum of every step's dt. */
  private time = 0;
  private events: DetectionEvent[] = [];
  private tickNow = 0;
  /**
   * Per record slot: the step that last saw it touched, and the model time from which it needs attention
   * while untouched (a timer of its state machine; Infinity when idle). The state-machine pass reads
   * these dense arrays and visits only the records they flag: in a crowded room most records are neither
   * seen this step nor due, and touching each of them every step was a cache miss apiece.
   */
  private touchedAt = new Int32Array(64).fill(-1);
  private due = new Float64Array(64).fill(Infinity);

  /** Invalid options throw a RangeError naming the field. */
  constructor(options: AwarenessOptions = {}) {
    this.o = resolveOptions(options);
  }

  /**
   * Advances every meter by `dt` seconds. `sightings` are all the (observer, target) pairs seen during
   * this step; pairs not listed count as unseen. Returns the events of this step in order (a shared empty
   * array when there are none: do not mutate it). A malformed sighting throws a RangeError naming the
   * field, and nothing changes.
   */
  step(tick: number, dt: number, sightings: Iterable<Sighting>): readonly DetectionEvent[] {
    if (!Number.isInteger(tick)) throw new RangeError(`tick must be an integer (got ${tick})`);
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`dt must be a finite number of seconds > 0 (got ${dt})`);
    const list = Array.isArray(sightings) ? (sightings as Sighting[]) : [...sightings];
    for (let i = 0; i < list.length; i++) checkSighting(list[i]!);

    const step = ++this.stepCount;
    const before = this.time;
    const now = (this.time += dt);
    this.tickNow = tick;
    this.events = [];
    const o = this.o;

    // 1. Fill the pairs seen this step. A sighting's memo usually holds its pair already (the vision
    // engine keeps one object per pair): in a crowded room each id lookup was a chain of cache misses.
    const touchedAt = this.touchedAt;
    let last: ObserverRecord | undefined;
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      const memo = s.memo;
      let pair: Pair;
      if (memo instanceof Pair && this.owns(memo, s)) pair = memo;
      else {
        if (last === undefined || last.id !== s.observerId) last = this.record(s.observerId);
        pair = this.pairOf(last, s.targetId);
        if (memo !== undefined) s.memo = pair;
      }
      const rec = pair.rec;
      if (rec.touchedStep !== step) {
        rec.touchedStep = step;
        touchedAt[rec.slot] = step;
        rec.spot = null;
        rec.seenTop = null;
      }
      if (pair.seenStep === step) continue;
      pair.seenStep = step;
      // Where the meter stood at the end of the last step (it held or decayed while unseen).
      const was = pair.levelAt(before, o);
      if (!pair.armed && was === 0 && before - pair.zeroAt(o) >= o.noticeRearmSeconds - TIME_EPS) pair.armed = true;
      // A full meter stays full: most sightings in a busy room are of targets already spotted.
      const level = was < 1 ? Math.min(1, was + rate(s, rec.state, o) * dt) : 1;
      pair.level = level;
      pair.seenAt = now;
      pair.x = s.position.x;
      pair.y = s.position.y;
      if (was === 0 && level > 0 && pair.armed) {
        pair.armed = false;
        this.emit("noticed", rec.id, pair.targetId, pair.x, pair.y);
      }
      if (was < 1 && level >= 1) pair.reachedStep = step;
      const top = rec.seenTop;
      if (top === null || level > top.level || (level === top.level && pair.order < top.order)) rec.seenTop = pair;
      const zero = pair.zeroAt(o);
      if (zero > rec.calmAt) rec.calmAt = zero;
      // The spotting candidate: at full awareness, not the alerted focus, and for an alerted observer
      // only on the step its meter fills (no repeats); the earliest pair wins.
      if (level >= 1 && !(rec.state === "alerted" && (rec.focusPair === pair || pair.reachedStep !== step))) {
        if (rec.spot === null || pair.order < rec.spot.order) rec.spot = pair;
      }
    }

    // 2. Each observer's state machine, in record order, for those that saw something or whose timer is
    // due (an untouched record before its due time would not change: see `dueTime`).
    const records = this.records;
    const due = this.due;
    for (let r = 0; r < records.length; r++) {
      if (touchedAt[r] !== step && now < due[r]!) continue;
      const rec = records[r]!;
      this.advance(rec, step, now);
      due[r] = dueTime(rec, o);
      if (touchedAt[r] === step && rec.seenTop!.level > rec.levelCap) rec.levelCap = rec.seenTop!.level;
    }

    // 3. Every 16 steps, forget what no longer matters: calm, re-armed pairs of idle observers. Stable
    // compaction keeps the first-appearance order, so iteration (and event order) stays deterministic.
    if (step % 16 === 0) this.compact(now);
    return this.events.length === 0 ? NO_EVENTS : this.events;
  }

  private compact(now: number): void {
    const o = this.o;
    const records = this.records;
    let keptRecords = 0;
    for (let r = 0; r < records.length; r++) {
      const rec = records[r]!;
      if (rec.state === "idle") {
        const pairs = rec.pairList;
        let kept = 0;
        for (let i = 0; i < pairs.length; i++) {
          const pair = pairs[i]!;
          const calmFor = now - pair.zeroAt(o);
          if (pair.levelAt(now, o) === 0 && (pair.armed || calmFor >= o.noticeRearmSeconds - TIME_EPS)) {
            rec.pairs.delete(pair.targetId);
            pair.dropped = true;
          } else pairs[kept++] = pair;
        }
        pairs.length = kept;
        if (kept === 0) {
          this.observers.delete(rec.id);
          rec.slot = -1;
          continue;
        }
      }
      this.touchedAt[keptRecords] = this.touchedAt[r]!;
      this.due[keptRecords] = this.due[r]!;
      rec.slot = keptRecords;
      records[keptRecords++] = rec;
    }
    records.length = keptRecords;
  }

  /** Whether a memo found on sighting `s` is this model's live pair for that sighting's observer and target. */
  private owns(pair: Pair, s: Sighting): boolean {
    const rec = pair.rec;
    return !pair.dropped && rec.owner === this && rec.slot >= 0 && pair.targetId === s.targetId && rec.id === s.observerId;
  }

  /** The observer's pair for `targetId`, created on its first sighting. */
  private pairOf(rec: ObserverRecord, targetId: string): Pair {
    let pair = findPair(rec, targetId);
    if (pair === undefined) {
      pair = new Pair(rec, targetId, rec.nextOrder++);
      rec.pairs.set(targetId, pair);
      rec.pairList.push(pair);
    }
    return pair;
  }

  /** The record of an observer, created (in the next slot) on its first sighting. */
  private record(id: string): ObserverRecord {
    let rec = this.observers.get(id);
    if (rec !== undefined) return rec;
    rec = new ObserverRecord(this, id);
    this.observers.set(id, rec);
    rec.slot = this.records.length;
    this.records.push(rec);
    if (rec.slot >= this.due.length) {
      const touchedAt = new Int32Array(this.due.length * 2).fill(-1);
      touchedAt.set(this.touchedAt);
      const due = new Float64Array(this.due.length * 2).fill(Infinity);
      due.set(this.due);
      this.touchedAt = touchedAt;
      this.due = due;
    }
    this.touchedAt[rec.slot] = -1;
    this.due[rec.slot] = Infinity;
    return rec;
  }

  /** Takes records out of the dense list (removal, stand-down), keeping order, slots and arrays in step. */
  private dropRecords(drop: (rec: ObserverRecord) => boolean): void {
    const records = this.records;
    let kept = 0;
    for (let r = 0; r < records.length; r++) {
      const rec = records[r]!;
      if (drop(rec)) {
        rec.slot = -1;
        continue;
      }
      this.touchedAt[kept] = this.touchedAt[r]!;
      this.due[kept] = this.due[r]!;
      rec.slot = kept;
      records[kept++] = rec;
    }
    records.length = kept;
  }

  /** Awareness of `observerId` about `targetId`, in [0, 1]; 0 for unknown ids. */
  level(observerId: string, targetId: string): number {
    return this.observers.get(observerId)?.pairs.get(targetId)?.levelAt(this.time, this.o) ?? 0;
  }

  /** The observer's state; "idle" for unknown ids. */
  state(observerId: string): ObserverState {
    return this.observers.get(observerId)?.state ?? "idle";
  }

  /** The target the observer's state is about (spotted, searched for, or most suspicious), if any. */
  focus(observerId: string): string | undefined {
    const rec = this.observers.get(observerId);
    return rec === undefined || rec.state === "idle" ? undefined : rec.focus ?? undefined;
  }

  /** Where the observer last knew its focus target to be, meters; undefined while idle. */
  lastKnown(observerId: string): { x: number; y: number } | undefined {
    const rec = this.observers.get(observerId);
    if (rec === undefined || rec.state === "idle" || !rec.hasKnown) return undefined;
    return { x: rec.knownX, y: rec.knownY };
  }

  /**
   * Every pair with a level above 0, for syncing meters: calls `visit(observerId, targetId, level)`.
   */
  forEachLevel(visit: (observerId: string, targetId: string, level: number) => void): void {
    for (const rec of this.records) {
      for (const pair of rec.pairList) {
        const level = pair.levelAt(this.time, this.o);
        if (level > 0) visit(rec.id, pair.targetId, level);
      }
    }
  }

  /**
   * Drops `id` as an observer and as a target, without events. Observers that were alerted on it keep
   * its last known position and lose it after the last-known window, as if it had slipped away.
   */
  remove(id: string): void {
    if (this.observers.delete(id)) this.dropRecords((r) => r.id === id);
    for (const rec of this.records) {
      const pair = rec.pairs.get(id);
      if (pair === undefined) continue;
      rec.pairs.delete(id);
      rec.pairList.splice(rec.pairList.indexOf(pair), 1);
      pair.dropped = true;
      if (rec.focusPair === pair) rec.focusPair = null;
    }
  }

  /**
   * Ends an observer's alert at once, outside the usual timeline (a capture, a scripted reset): every
   * meter it holds drops to 0 and it is idle again. Returns the `cleared` event (stamped with the last
   * step's tick, also passed to `onEvent`), or undefined when it was already idle.
   */
  standDown(observerId: string): DetectionEvent | undefined {
    const rec = this.observers.get(observerId);
    if (rec === undefined) return undefined;
    this.observers.delete(observerId);
    this.dropRecords((r) => r === rec);
    if (rec.state === "idle") return undefined;
    const event: DetectionEvent = { seq: ++this.seq, tick: this.tickNow, type: "cleared", observerId, targetId: rec.focus!, position: { x: rec.knownX, y: rec.knownY } };
    this.o.onEvent?.(event);
    return event;
  }

  /** The observer's state machine for one step. */
  private advance(rec: ObserverRecord, step: number, now: number): void {
    const o = this.o;
    const touched = rec.touchedStep === step;
    if (touched && rec.spot !== null) {
      const spotted = rec.spot;
      if (rec.state === "idle") this.emit("suspicious", rec.id, spotted.targetId, spotted.x, spotted.y);
      this.enter(rec, "alerted", spotted, now);
      this.emit("spotted", rec.id, spotted.targetId, spotted.x, spotted.y);
      return;
    }
    switch (rec.state) {
      case "idle": {
        // Meters only rise when seen, so only an observer that saw something can become suspicious.
        if (!touched) return;
        if (rec.levelCap < o.suspiciousAt && rec.seenTop!.level < o.suspiciousAt) return; // no meter is there
        const top = mostAware(rec, now, o);
        if (top.levelAt(now, o) >= o.suspiciousAt) {
          this.enter(rec, "suspicious", top, now);
          this.emit("suspicious", rec.id, top.targetId, top.x, top.y);
        }
        return;
      }
      case "suspicious": {
        if (now >= rec.calmAt - TIME_EPS) {
          this.emit("cleared", rec.id, rec.focus!, rec.knownX, rec.knownY);
          this.enter(rec, "idle", null, now);
        } else if (touched) {
          // Investigate where the most suspicious target was last seen.
          const top = mostAware(rec, now, o);
          rec.focus = top.targetId;
          rec.focusPair = top;
          rec.knownX = top.x;
          rec.knownY = top.y;
        }
        return;
      }
      case "alerted": {
        const focus = rec.focusPair;
        if (focus !== null && focus.seenStep === step) {
          rec.since = now;
          rec.knownX = focus.x;
          rec.knownY = focus.y;
          return;
        }
        if (now - rec.since >= o.lostAfterSeconds - TIME_EPS) {
          this.emit("lost", rec.id, rec.focus!, rec.knownX, rec.knownY);
          this.enter(rec, "searching", null, now);
        }
        return;
      }
      case "searching": {
        if (now - rec.since >= o.searchSeconds - TIME_EPS) {
          this.emit("cleared", rec.id, rec.focus!, rec.knownX, rec.knownY);
          this.enter(rec, "idle", null, now);
        }
        return;
      }
    }
  }

  private enter(rec: ObserverRecord, state: ObserverState, about: Pair | null, now: number): void {
    rec.state = state;
    rec.since = now;
    if (about !== null) {
      rec.focus = about.targetId;
      rec.focusPair = about;
      rec.knownX = about.x;
      rec.knownY = about.y;
      rec.hasKnown = true;
    }
  }

  private emit(type: DetectionEventType, observerId: string, targetId: string, x: number, y: number): void {
    const event: DetectionEvent = { seq: ++this.seq, tick: this.tickNow, type, observerId, targetId, position: { x, y } };
    this.events.push(event);
    this.o.onEvent?.(event);
  }
}

/** Fill per second for one sighting by an observer in `state`, with the given options (see the README's model). */
export function fillRate(s: Sighting, state: ObserverState, options: AwarenessOptions = {}): number {
  checkSighting(s);
  return rate(s, state, resolveOptions(options));
}

function rate(s: Sighting, state: ObserverState, o: Resolved): number {
  const d = Math.max(s.distance, o.minDistance);
  let rate = o.fillRate * Math.pow(o.referenceDistance / d, o.distanceExponent);
  if (Number.isFinite(s.range) && s.range > 0) {
    const u = Math.min(1, s.distance / s.range);
    rate *= 1 - o.rangeEdgeSlowdown * u * u;
  }
  if (s.proximity === true) rate *= o.proximityFactor;
  else if (s.halfFov > 0 && s.halfFov < Math.PI) {
    const a = Math.min(1, s.offAxis / s.halfFov);
    rate *= 1 - o.peripherySlowdown * a * a;
  }
  rate *= s.visibility ?? 1;
  const f = o.stateFactor;
  rate *= state === "idle" ? f.idle : state === "suspicious" ? f.suspicious : state === "alerted" ? f.alerted : f.searching;
  return rate;
}

/**
 * Model time from which an observer that sees nothing may change state: `advance` is a no-op for an
 * untouched record before it (idle never changes unseen; the others wait on one timer each). A little
 * early on purpose: `advance` re-checks the exact condition.
 */
function dueTime(rec: ObserverRecord, o: Resolved): number {
  switch (rec.state) {
    case "idle": return Infinity;
    case "suspicious": return rec.calmAt - 2 * TIME_EPS;
    case "alerted": return rec.since + o.lostAfterSeconds - 2 * TIME_EPS;
    case "searching": return rec.since + o.searchSeconds - 2 * TIME_EPS;
  }
}

/** Scanning one or two pairs beats hashing the id; beyond that each compared id is a cache miss. */
function findPair(rec: ObserverRecord, targetId: string): Pair | undefined {
  const pairs = rec.pairList;
  if (pairs.length > 2) return rec.pairs.get(targetId);
  for (let i = 0; i < pairs.length; i++) if (pairs[i]!.targetId === targetId) return pairs[i];
  return undefined;
}

/**
 * The pair with the highest level now (the earliest on ties) of an observer that saw something this step.
 * The pairs not seen this step are cold in memory; they are visited only when `levelCap` cannot rule them
 * out, and the cap is exact again afterwards.
 */
function mostAware(rec: ObserverRecord, now: number, o: Resolved): Pair {
  const seen = rec.seenTop!;
  if (rec.levelCap < seen.level) return seen;
  let best = seen;
  let bestLevel = -1;
  const pairs = rec.pairList;
  for (let i = 0; i < pairs.length; i++) {
    const level = pairs[i]!.levelAt(now, o);
    if (level > bestLevel) {
      best = pairs[i]!;
      bestLevel = level;
    }
  }
  rec.levelCap = bestLevel;
  return best;
}

function resolveOptions(options: AwarenessOptions): Resolved {
  if (typeof options !== "object" || options === null) throw new RangeError("AwarenessOptions must be an object");
  const d = DEFAULT_AWARENESS_OPTIONS;
  const r: Resolved = {
    ...d,
    ...options,
    stateFactor: { ...d.stateFactor, ...(options.stateFactor ?? {}) },
    onEvent: options.onEvent ?? null,
  } as Resolved;
  const positive = ["fillRate", "referenceDistance", "minDistance", "decayRate", "lostAfterSeconds", "searchSeconds"] as const;
  for (const k of positive) {
    const v = r[k];
    if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) throw new RangeError(`AwarenessOptions.${k} must be a finite number > 0 (got ${String(v)})`);
  }
  const nonNegative = ["distanceExponent", "graceSeconds", "noticeRearmSeconds"] as const;
  for (const k of nonNegative) {
    const v = r[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`AwarenessOptions.${k} must be a finite number >= 0 (got ${String(v)})`);
  }
  const unit = ["rangeEdgeSlowdown", "peripherySlowdown", "proximityFactor"] as const;
  for (const k of unit) {
    const v = r[k];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new RangeError(`AwarenessOptions.${k} must be in [0, 1] (got ${String(v)})`);
  }
  if (!(r.suspiciousAt > 0 && r.suspiciousAt < 1)) throw new RangeError(`AwarenessOptions.suspiciousAt must be in (0, 1) (got ${String(r.suspiciousAt)})`);
  for (const [state, v] of Object.entries(r.stateFactor)) {
    if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) throw new RangeError(`AwarenessOptions.stateFactor.${state} must be a finite number > 0 (got ${String(v)})`);
  }
  if (r.onEvent !== null && typeof r.onEvent !== "function") throw new RangeError("AwarenessOptions.onEvent must be a function");
  return r;
}

function checkFinite(field: string, v: unknown): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`Sighting.${field} must be a finite number (got ${String(v)})`);
}

/** Throws a RangeError naming the first bad field. No closures: it runs for every sighting of every step. */
function checkSighting(s: Sighting): void {
  if (typeof s !== "object" || s === null) throw new RangeError("Sighting must be an object");
  if (typeof s.observerId !== "string" || s.observerId === "") throw new RangeError("Sighting.observerId must be a non-empty string");
  if (typeof s.targetId !== "string" || s.targetId === "") throw new RangeError("Sighting.targetId must be a non-empty string");
  checkFinite("distance", s.distance);
  checkFinite("offAxis", s.offAxis);
  checkFinite("halfFov", s.halfFov);
  if (typeof s.range !== "number" || Number.isNaN(s.range) || s.range < 0) throw new RangeError(`Sighting.range must be >= 0 (got ${String(s.range)})`);
  if (s.distance < 0) throw new RangeError(`Sighting.distance must be >= 0 (got ${s.distance})`);
  if (typeof s.position !== "object" || s.position === null) throw new RangeError("Sighting.position must be {x, y}");
  checkFinite("position.x", s.position.x);
  checkFinite("position.y", s.position.y);
  if (s.visibility !== undefined && !(s.visibility >= 0 && s.visibility <= 1)) {
    throw new RangeError(`Sighting.visibility must be in [0, 1] (got ${String(s.visibility)})`);
  }
}
