/**
 * Awareness meters and detection events: turns the vision engine's sightings into what stealth players
 * experience, a meter that fills, a "?" and then a "!", a search at the last known position.
 *
 * Plain data and callbacks: no Colyseus, no planck. Deterministic: the same sequence of `step` calls
 * produces the same levels, states and events (sightings are processed in the order given; pairs and
 * observers in the order they first appeared).
 *
 * This file holds the model's behaviour (the step, the state machine, the queries); its vocabulary
 * (`types.ts`), the meter law (`meterLaw.ts`), its records (`records.ts`) and the checks of what it is
 * given (`validation.ts`) sit beside it.
 */
import { fail, integer, isIterable, positive } from "../../../shared/validation/rangeChecks.js";
import type { AwarenessOptions, DetectionEvent, DetectionEventType, Explanation, Heard, JudgedPoses, ObserverState, Sense, Sighting } from "./types.js";
import { checkHeard, checkSighting, resolveOptions, type ResolvedOptions } from "./validation.js";
import { fillPerNoise, fillPerSecond, levelAt, TIME_EPS, zeroAt, type FillFactors } from "./meterLaw.js";
import { FillLogs } from "./fillLog.js";
import { dropCalmPairs, dueTime, mostAware, ObserverRecord, ownsPair, Pair, pairOf } from "./records.js";

const NO_EVENTS: readonly DetectionEvent[] = Object.freeze([]);

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
  private readonly o: ResolvedOptions;
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
  /** What the second check judged the sighting in hand from; the sight fill's factors (both when explaining). */
  private readonly judged: JudgedPoses = { present: { x: 0, y: 0, facing: 0 }, rewound: { x: 0, y: 0, facing: 0 }, rewoundMs: 0 };
  private readonly factors: FillFactors = { distance: 1, rangeEdge: 1, periphery: 1, visibility: 1, state: 1 };
  /** Explanation logs of dropped pairs, for the next meters that fill (a log is a few kilobytes). */
  private readonly logs = new FillLogs();

  /** Invalid options throw a RangeError naming the field. */
  constructor(options: AwarenessOptions = {}) {
    this.o = resolveOptions(options);
  }

  /**
   * Advances every meter by `dt` seconds. `sightings` are all the (observer, target) pairs seen during
   * this step; pairs not listed count as unseen. `heard` are the noises observers heard this step (from a
   * `Hearing`; undefined: none): each raises its (observer, emitter) meter by `hearingFill` x how loud it
   * still was (`level`) x its `salience` x the observer's `stateFactor`, up to `hearingCeiling`, and sets
   * the last-known position to where the noise was; a pair also seen this step keeps its sighting.
   * Returns the events of this step in order (a shared empty array when there are none: do not mutate
   * it). A malformed sighting or heard noise, or a `sightings` or `heard` that is not iterable, throws a
   * RangeError naming the field, and nothing changes.
   */
  step(tick: number, dt: number, sightings: Iterable<Sighting>, heardNoises?: Iterable<Heard>): readonly DetectionEvent[] {
    integer("AwarenessModel.step tick", tick, -Infinity);
    positive("AwarenessModel.step dt", dt, "seconds");
    // Arrays, the usual case, skip the iterable test; `null` is not "no noises": only undefined is.
    if (!Array.isArray(sightings) && !isIterable(sightings)) fail("AwarenessModel.step sightings", "must be an iterable of Sighting", sightings);
    if (heardNoises !== undefined && !Array.isArray(heardNoises) && !isIterable(heardNoises)) fail("AwarenessModel.step heard", "must be an iterable of Heard, or undefined", heardNoises);
    const list = Array.isArray(sightings) ? (sightings as Sighting[]) : [...sightings];
    for (let i = 0; i < list.length; i++) checkSighting(list[i]!);
    const heard = heardNoises === undefined ? undefined : Array.isArray(heardNoises) ? (heardNoises as Heard[]) : [...heardNoises];
    if (heard !== undefined) for (let i = 0; i < heard.length; i++) checkHeard(heard[i]!);

    const step = ++this.stepCount;
    const before = this.time;
    const now = (this.time += dt);
    this.tickNow = tick;
    this.events = [];
    const o = this.o;
    const check = o.check;
    const judged = check === null ? null : this.judged;
    const explain = o.explain;

    // 1. Fill the pairs seen this step. A sighting's memo usually holds its pair already (the vision
    // engine keeps one object per pair): in a crowded room each id lookup was a chain of cache misses.
    let last: ObserverRecord | undefined;
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      const memo = s.memo;
      let pair: Pair;
      if (memo instanceof Pair && ownsPair(this, memo, s)) pair = memo;
      else {
        if (last === undefined || last.id !== s.observerId) last = this.record(s.observerId);
        pair = pairOf(last, s.targetId);
        if (memo !== undefined) s.memo = pair;
      }
      if (pair.seenStep === step) continue;
      const was = levelAt(pair, before, o);
      // A meter that would rise asks the second check, if any (`SeenOnScreen`): unconfirmed, it was not seen.
      if (was < 1 && check !== null && !check.holds(s, judged)) continue;
      const gain = was < 1 ? fillPerSecond(s, pair.rec.state, o, explain ? this.factors : undefined) * dt : 0;
      this.fill(pair, was, gain, 1, s.position.x, s.position.y, "sight", step, before, now);
      if (explain && pair.level > was) this.logs.of(pair, was, o.explainFills).sight(tick, s, was, gain, pair.level, this.factors, judged);
    }

    // 1b. Then the noises heard: a pair seen this step already has its fill and its (better) position.
    if (heard !== undefined) {
      for (let i = 0; i < heard.length; i++) {
        const h = heard[i]!;
        if (last === undefined || last.id !== h.observerId) last = this.record(h.observerId);
        // A guard near a walker hears each of its steps: the pair it heard last is most often this one.
        let pair = last.heardPair;
        if (pair === null || pair.dropped || pair.targetId !== h.targetId) last.heardPair = pair = pairOf(last, h.targetId);
        if (pair.seenStep === step && pair.sense === "sight") continue;
        const was = levelAt(pair, pair.seenStep === step ? now : before, o);
        const gain = fillPerNoise(h, pair.rec.state, o);
        this.fill(pair, was, gain, o.hearingCeiling, h.position.x, h.position.y, "hearing", step, before, now);
        if (explain && pair.level > was) this.logs.of(pair, was, o.explainFills).heard(tick, h, was, gain, pair.level);
      }
    }

    // 2. Each observer's state machine, in record order, for those that saw something or whose timer is
    // due (an untouched record before its due time would not change: see `dueTime`).
    const records = this.records;
    const due = this.due;
    const touchedAt = this.touchedAt;
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

  /**
   * One step's fill of a pair whose level stood at `was` at the end of the last step: up by `gain`, to at
   * most `ceiling` (a meter above it from earlier sightings keeps its level), and what that means for
   * its observer this step (noticed, the most aware pair, a spotting candidate).
   */
  private fill(pair: Pair, was: number, gain: number, ceiling: number, x: number, y: number, sense: Sense, step: number, before: number, now: number): void {
    const o = this.o;
    const rec = pair.rec;
    if (rec.touchedStep !== step) {
      rec.touchedStep = step;
      this.touchedAt[rec.slot] = step;
      rec.spot = null;
      rec.seenTop = null;
    }
    const fresh = pair.seenStep !== step;
    pair.seenStep = step;
    if (fresh && !pair.armed && was === 0 && before - zeroAt(pair, o) >= o.noticeRearmSeconds - TIME_EPS) pair.armed = true;
    // A full meter stays full: most sightings in a busy room are of targets already spotted.
    const level = was >= ceiling ? was : Math.min(ceiling, was + gain);
    pair.level = level;
    if (pair !== rec.leader && level > rec.runnerUp) rec.runnerUp = level;
    pair.seenAt = now;
    pair.x = x;
    pair.y = y;
    pair.sense = sense;
    if (was === 0 && level > 0 && pair.armed) {
      pair.armed = false;
      this.emit("noticed", rec.id, pair.targetId, x, y, sense);
    }
    if (was < 1 && level >= 1) pair.reachedStep = step;
    const top = rec.seenTop;
    if (top === null || level > top.level || (level === top.level && pair.order < top.order)) rec.seenTop = pair;
    const zero = zeroAt(pair, o);
    if (zero > rec.calmAt) rec.calmAt = zero;
    // The spotting candidate: at full awareness, by a sense that may spot, not the alerted focus, and for
    // an alerted observer only on the step its meter fills (no repeats); the earliest pair wins.
    if (level >= 1 && ceiling >= 1 && !(rec.state === "alerted" && (rec.focusPair === pair || pair.reachedStep !== step))) {
      if (rec.spot === null || pair.order < rec.spot.order) rec.spot = pair;
    }
  }

  private compact(now: number): void {
    // Stable: the kept records keep their order, so iteration (and event order) stays deterministic.
    this.dropRecords((rec) => rec.state === "idle" && dropCalmPairs(rec, now, this.o, this.logs) === 0 && this.observers.delete(rec.id));
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
        for (const pair of rec.pairList) this.logs.giveBack(pair);
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
    const pair = this.observers.get(observerId)?.pairs.get(targetId);
    return pair === undefined ? 0 : levelAt(pair, this.time, this.o);
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
   * Every pair with a level above 0, for syncing meters: calls `visit(observerId, targetId, level, state)`,
   * `state` being the observer's (as {@link state} says), an observer's pairs one after another.
   */
  forEachLevel(visit: (observerId: string, targetId: string, level: number, state: ObserverState) => void): void {
    for (const rec of this.records) {
      for (const pair of rec.pairList) {
        const level = levelAt(pair, this.time, this.o);
        if (level > 0) visit(rec.id, pair.targetId, level, rec.state);
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
      this.logs.giveBack(pair);
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
    const event: DetectionEvent = { seq: ++this.seq, tick: this.tickNow, type: "cleared", observerId, targetId: rec.focus!, position: { x: rec.knownX, y: rec.knownY }, sense: rec.focusPair?.sense ?? "sight" };
    this.o.onEvent?.(event);
    return event;
  }

  /** The observer's state machine for one step. */
  private advance(rec: ObserverRecord, step: number, now: number): void {
    const o = this.o;
    const touched = rec.touchedStep === step;
    if (touched && rec.spot !== null) {
      const spotted = rec.spot;
      if (rec.state === "idle") this.emit("suspicious", rec.id, spotted.targetId, spotted.x, spotted.y, spotted.sense);
      this.enter(rec, "alerted", spotted, now);
      const why = o.explain && spotted.log !== null ? spotted.log.explain(rec.id, spotted.targetId, spotted.sense, o.fillRate) : undefined;
      this.emit("spotted", rec.id, spotted.targetId, spotted.x, spotted.y, spotted.sense, why);
      return;
    }
    switch (rec.state) {
      case "idle": {
        // Meters only rise when seen, so only an observer that saw something can become suspicious.
        if (!touched) return;
        if (rec.levelCap < o.suspiciousAt && rec.seenTop!.level < o.suspiciousAt) return; // no meter is there
        const top = mostAware(rec, now, o);
        if (levelAt(top, now, o) >= o.suspiciousAt) {
          this.enter(rec, "suspicious", top, now);
          this.emit("suspicious", rec.id, top.targetId, top.x, top.y, top.sense);
        }
        return;
      }
      case "suspicious": {
        if (now >= rec.calmAt - TIME_EPS) {
          this.emit("cleared", rec.id, rec.focus!, rec.knownX, rec.knownY, rec.focusPair?.sense ?? "sight");
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
          this.emit("lost", rec.id, rec.focus!, rec.knownX, rec.knownY, rec.focusPair?.sense ?? "sight");
          this.enter(rec, "searching", null, now);
        }
        return;
      }
      case "searching": {
        if (now - rec.since >= o.searchSeconds - TIME_EPS) {
          this.emit("cleared", rec.id, rec.focus!, rec.knownX, rec.knownY, rec.focusPair?.sense ?? "sight");
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

  private emit(type: DetectionEventType, observerId: string, targetId: string, x: number, y: number, sense: Sense, explanation?: Explanation): void {
    const event: DetectionEvent = { seq: ++this.seq, tick: this.tickNow, type, observerId, targetId, position: { x, y }, sense };
    if (explanation !== undefined) event.explanation = explanation;
    this.events.push(event);
    this.o.onEvent?.(event);
  }
}
