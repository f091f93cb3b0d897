import type { World } from "planck";
import { silhouettePoints, type SilhouetteOut } from "../../shared/math/tangent.js";
import { LineOfSight } from "./lineOfSight.js";
import { Observable } from "./observable.js";
import { ObservableIndex } from "./observableIndex.js";
import { RayLog } from "./rayLog.js";
import { Observer } from "./observer.js";
import {
  checkId, checkObservableFields, checkObserverComplete, checkObserverFields,
} from "./specValidation.js";
import type { ObservableSpec, ObserverSpec, VisionOptions, VisionTickReport } from "./types.js";

/** Silhouette samples sit this fraction of the radius inside the body, so a ray grazing the rim counts. */
const SILHOUETTE_INSET = 0.1;

const EMPTY: ReadonlySet<string> = new Set<string>();

/**
 * Answers "can this observer see that entity?" over a planck `World`, exactly: range, then the facing
 * cone (or the proximity sense), then line-of-sight rays against the world's fixtures.
 *
 * Units: meters and radians (0 = +x, counter-clockwise positive); ticks are calls to `tick()`.
 * The caller owns the physics: it steps the world and copies poses in with `update*`/`move*` each tick.
 *
 * ```ts
 * const vision = new VisionSystem(world, { opaqueMask: WALLS });
 * vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 12, fov: Math.PI / 2 });
 * vision.addObservable("player", { position: { x: 5, y: 1 }, radius: 0.4, body: playerBody });
 * vision.tick();
 * vision.canSee("guard", "player"); // last evaluated answer
 * ```
 */
export class VisionSystem {
  private readonly observers = new Map<string, Observer>();
  private readonly observables = new Map<string, Observable>();
  /** Observers densely packed for iteration; `Observer.slot` indexes it. */
  private readonly observerList: Observer[] = [];
  private readonly index = new ObservableIndex();
  private readonly los: LineOfSight;
  private tickCount = 0;
  /** The rays cast by the last `tick()`, when `recordRays` is on; otherwise null. */
  readonly rayLog: RayLog | null;
  private evalStamp = 0;

  // Per-evaluation scratch, so the hot path allocates nothing.
  private readonly silhouette: SilhouetteOut = { ax: 0, ay: 0, bx: 0, by: 0 };
  private current: Observer | null = null;
  private recording = false;
  private pairsThisTick = 0;
  private readonly visitCandidate = (t: Observable): void => {
    const o = this.current!;
    if (t.id === o.id) return;
    this.pairsThisTick++;
    if (this.sees(o, t)) {
      t.seenStamp = this.evalStamp;
      if (!o.visible.has(t.id)) {
        o.visible.add(t.id);
        t.seenBy.add(o.id);
      }
    }
  };

  constructor(world: World, options: VisionOptions = {}) {
    const mask = options.opaqueMask ?? 0xffff;
    if (typeof mask !== "number" || !Number.isInteger(mask) || mask < 0 || mask > 0xffff) {
      throw new RangeError(`VisionOptions.opaqueMask must be an integer in [0, 0xFFFF] (got ${String(mask)})`);
    }
    this.los = new LineOfSight(world, mask);
    this.rayLog = options.recordRays === true ? new RayLog() : null;
  }

  /** Category bits that block sight (see {@link VisionOptions.opaqueMask}). */
  get opaqueMask(): number {
    return this.los.opaqueMask;
  }

  /** Registers an observer. Throws a RangeError naming the bad field, or a duplicate id; changes nothing then. */
  addObserver(id: string, spec: ObserverSpec): void {
    checkId("observer", id);
    checkObserverComplete(spec);
    if (this.observers.has(id)) throw new RangeError(`observer id ${JSON.stringify(id)} is already registered`);
    const o = new Observer(id);
    this.applyObserver(o, spec);
    o.slot = this.observerList.length;
    this.observerList.push(o);
    this.observers.set(id, o);
  }

  /** Changes some fields of an observer. Validates the whole patch before applying any of it. */
  updateObserver(id: string, patch: Partial<ObserverSpec>): void {
    const o = this.observers.get(id);
    if (o === undefined) throw new RangeError(`observer id ${JSON.stringify(id)} is not registered`);
    checkObserverFields(patch);
    this.applyObserver(o, patch);
  }

  /**
   * Moves an observer without building a patch object: the per-tick path. Meters and radians.
   * Non-finite values throw a RangeError and change nothing.
   */
  moveObserver(id: string, x: number, y: number, facing: number): void {
    const o = this.observers.get(id);
    if (o === undefined) throw new RangeError(`observer id ${JSON.stringify(id)} is not registered`);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(facing)) {
      checkObserverFields({ position: { x, y }, facing });
    }
    o.x = x;
    o.y = y;
    o.facing = facing;
    o.syncSector();
  }

  /** Registers an observable. Throws a RangeError naming the bad field, or a duplicate id; changes nothing then. */
  addObservable(id: string, spec: ObservableSpec): void {
    checkId("observable", id);
    if (typeof spec !== "object" || spec === null) throw new RangeError("ObservableSpec must be an object");
    if (spec.position === undefined) throw new RangeError("ObservableSpec.position is required (got undefined)");
    if (this.observables.has(id)) throw new RangeError(`observable id ${JSON.stringify(id)} is already registered`);
    const radius = spec.radius ?? 0;
    const samples = spec.samples ?? (radius > 0 ? 3 : 1);
    checkObservableFields(spec, samples, spec.required ?? 1);
    const t = new Observable(id);
    this.applyObservable(t, spec);
    this.index.insert(t);
    this.observables.set(id, t);
  }

  /** Changes some fields of an observable. Validates the whole patch before applying any of it. */
  updateObservable(id: string, patch: Partial<ObservableSpec>): void {
    const t = this.observables.get(id);
    if (t === undefined) throw new RangeError(`observable id ${JSON.stringify(id)} is not registered`);
    const radius = patch.radius ?? t.radius;
    const samples = patch.samples ?? (t.samplesSpec !== 0 ? t.samplesSpec : radius > 0 ? 3 : 1);
    checkObservableFields(patch, samples, patch.required ?? t.required);
    const oldX = t.x;
    const oldY = t.y;
    this.applyObservable(t, patch);
    this.index.move(t, t.x - oldX, t.y - oldY);
  }

  /** Moves an observable without building a patch object: the per-tick path. Meters. */
  moveObservable(id: string, x: number, y: number): void {
    const t = this.observables.get(id);
    if (t === undefined) throw new RangeError(`observable id ${JSON.stringify(id)} is not registered`);
    if (!Number.isFinite(x) || !Number.isFinite(y)) checkObservableFields({ position: { x, y } }, 1, 1);
    const dx = x - t.x;
    const dy = y - t.y;
    t.x = x;
    t.y = y;
    this.index.move(t, dx, dy);
  }

  /** Drops `id` as an observer and as an observable, with every sighting that involves it. Unknown ids are ignored. */
  remove(id: string): void {
    const o = this.observers.get(id);
    if (o !== undefined) {
      for (const seen of o.visible) this.observables.get(seen)?.seenBy.delete(id);
      const last = this.observerList.pop()!;
      if (last !== o) {
        this.observerList[o.slot] = last;
        last.slot = o.slot;
      }
      this.observers.delete(id);
    }
    const t = this.observables.get(id);
    if (t !== undefined) {
      for (const by of t.seenBy) this.observers.get(by)?.visible.delete(id);
      this.index.remove(t);
      this.observables.delete(id);
    }
  }

  /**
   * Exact answer for the current poses: no scheduler, no cache, nothing remembered. Casts rays.
   * False for unknown ids and for an entity asking about itself.
   */
  check(observerId: string, observableId: string): boolean {
    const o = this.observers.get(observerId);
    const t = this.observables.get(observableId);
    if (o === undefined || t === undefined || o.id === t.id) return false;
    return this.sees(o, t);
  }

  /** The answer from the observer's last evaluation (by `tick()`). False for unknown ids. */
  canSee(observerId: string, observableId: string): boolean {
    return this.observers.get(observerId)?.visible.has(observableId) ?? false;
  }

  /** Ids the observer saw at its last evaluation. A live set: copy it to keep it past the next tick. */
  visibleTo(observerId: string): ReadonlySet<string> {
    return this.observers.get(observerId)?.visible ?? EMPTY;
  }

  /** Ids of observers that saw this observable at their last evaluation. A live set, like `visibleTo`. */
  seenBy(observableId: string): ReadonlySet<string> {
    return this.observables.get(observableId)?.seenBy ?? EMPTY;
  }

  /** Number of observers and observables registered. */
  get size(): { observers: number; observables: number } {
    return { observers: this.observers.size, observables: this.observables.size };
  }

  /** Sight rays cast since construction, by `tick()` and `check()` alike. */
  get raysCast(): number {
    return this.los.segments;
  }

  /** One step: evaluates every observer against the candidates in its reach and updates the results. */
  tick(): VisionTickReport {
    this.tickCount++;
    const raysBefore = this.los.segments;
    this.pairsThisTick = 0;
    this.recording = this.rayLog !== null;
    this.rayLog?.clear();
    const list = this.observerList;
    for (let i = 0; i < list.length; i++) this.evaluate(list[i]!);
    this.recording = false;
    return {
      tick: this.tickCount,
      rays: this.los.segments - raysBefore,
      evaluated: list.length,
      skipped: 0,
      pairs: this.pairsThisTick,
      // A full pass leaves no observer with pending work.
      staleness: { p50: 0, p99: 0, max: 0 },
    };
  }

  /** Re-evaluates one observer against its candidates and sweeps sightings it no longer has. */
  private evaluate(o: Observer): void {
    const stamp = ++this.evalStamp;
    this.current = o;
    const reach = o.reach;
    this.index.query(o.x - reach, o.y - reach, o.x + reach, o.y + reach, this.visitCandidate);
    this.current = null;
    o.lastEvaluated = this.tickCount;
    // Most observers see nobody; skip the sweep (and its iterator) then.
    if (o.visible.size === 0) return;
    for (const id of o.visible) {
      const t = this.observables.get(id)!;
      if (t.seenStamp !== stamp) {
        o.visible.delete(id);
        t.seenBy.delete(o.id);
      }
    }
  }

  /** The sight rule, cheapest test first: range and cone (or proximity), then rays. */
  private sees(o: Observer, t: Observable): boolean {
    const r = t.radius;
    const inCone = o.sector.intersectsCircle(t.x, t.y, r);
    if (!inCone) {
      const p = o.proximityRadius;
      if (p <= 0) return false;
      const dx = t.x - o.x;
      const dy = t.y - o.y;
      const reach = p + r;
      if (dx * dx + dy * dy > reach * reach) return false;
    }
    return this.lineOfSight(o, t);
  }

  /** k-of-n rays to the centre and the silhouette; stops as soon as the outcome is settled. */
  private lineOfSight(o: Observer, t: Observable): boolean {
    const n = t.samples;
    const k = t.required;
    const s = this.silhouette;
    // A point target, or an eye inside the body circle, has no silhouette: every sample is the centre.
    if (t.radius === 0 || n === 1 || !silhouettePoints(o.x, o.y, t.x, t.y, t.radius, SILHOUETTE_INSET, s)) {
      return this.rayClear(o, t, t.x, t.y);
    }
    let clear = 0;
    let blocked = 0;
    const chordSteps = n - 2;
    for (let i = 0; i < n; i++) {
      let px: number;
      let py: number;
      if (i === 0) {
        px = t.x;
        py = t.y;
      } else {
        const u = (i - 1) / chordSteps;
        px = s.ax + (s.bx - s.ax) * u;
        py = s.ay + (s.by - s.ay) * u;
      }
      if (this.rayClear(o, t, px, py)) {
        if (++clear >= k) return true;
      } else if (n - ++blocked < k) {
        return false;
      }
    }
    return false;
  }

  /** One sight ray from the eye to a sample point; it ends, clear, where it first meets the target's body. */
  private rayClear(o: Observer, t: Observable, px: number, py: number): boolean {
    const end = t.body === null ? 1 : this.los.entryFraction(o.x, o.y, px, py, t.body);
    const clear = !this.los.blocked(o.x, o.y, px, py, o.body, t.body, end);
    if (this.recording) this.rayLog!.push(o.x, o.y, o.x + (px - o.x) * end, o.y + (py - o.y) * end, clear);
    return clear;
  }

  private applyObserver(o: Observer, spec: Partial<ObserverSpec>): void {
    if (spec.position !== undefined) {
      o.x = spec.position.x;
      o.y = spec.position.y;
    }
    if (spec.facing !== undefined) o.facing = spec.facing;
    if (spec.range !== undefined) o.range = spec.range;
    if (spec.fov !== undefined) o.fov = spec.fov;
    if ("proximityRadius" in spec) o.proximityRadius = spec.proximityRadius ?? 0;
    if ("body" in spec) o.body = spec.body ?? null;
    if ("priority" in spec) o.priority = spec.priority ?? 1;
    o.syncSector();
  }

  private applyObservable(t: Observable, spec: Partial<ObservableSpec>): void {
    if (spec.position !== undefined) {
      t.x = spec.position.x;
      t.y = spec.position.y;
    }
    if ("radius" in spec) t.radius = spec.radius ?? 0;
    if ("samples" in spec) t.samplesSpec = spec.samples ?? 0;
    if ("required" in spec) t.required = spec.required ?? 1;
    if ("body" in spec) t.body = spec.body ?? null;
  }
}
