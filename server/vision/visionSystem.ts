/**
 * The vision engine's facade and registry: `VisionSystem`, the one class users construct. It keeps the
 * observers and observables with their specs and poses, validates what users pass, and answers queries
 * from the last results; the scheduler (when observers are evaluated), the sight rule (what "sees" means
 * for one pair), the sightings pool (who sees whom) and the dirty areas (where occluders changed) live in
 * their own files and are wired together here.
 */
import type { World } from "planck";
import type { Occluders } from "../occluders/occluders.js";
import { fail, finite, nonEmptyString, object } from "../../shared/validation/rangeChecks.js";
import type { SightMedium } from "./sightMedium.js";
import { sightMediumFor } from "./sightMediumFor.js";
import { Observable } from "./observable.js";
import { PairSighting } from "./pairSighting.js";
import { ObservableIndex } from "./observableIndex.js";
import { RayLog } from "./rayLog.js";
import { Observer } from "./observer.js";
import {
  checkObservableFields, checkObserverComplete, checkObserverFields,
} from "./specValidation.js";
import type { ObservableSpec, ObserverSpec, VisionOptions, VisionTickReport } from "./types.js";
import type { Pose, Sighting } from "./awareness/types.js";
import { checkOptions } from "./visionOptions.js";
import { DirtyAreas } from "./dirtyAreas.js";
import { SightRule } from "./sightRule.js";
import { SightingPool } from "./sightingPool.js";
import { Scheduler } from "./scheduler.js";

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
  private readonly los: SightMedium;
  /** False on occluders: there are no bodies to exclude from rays or end them on. */
  private readonly bodies: boolean;
  private readonly options: Required<VisionOptions>;
  private readonly dirtyAreas = new DirtyAreas();
  private readonly pool = new SightingPool();
  private readonly rule: SightRule;
  private readonly scheduler: Scheduler;
  private tickCount = 0;
  private recordRaysOn = false;

  /**
   * @param world what blocks sight: a planck `World` (its fixtures, moving ones included, filtered by
   * `opaqueMask`; the caller steps it), or an `Occluders` from `sightline/occluders` for a game without
   * physics (then specs take no `body`). Anything else throws a RangeError saying what was expected.
   * @param options scheduler budget, aging, hysteresis and sight options; see {@link VisionOptions}.
   * Invalid options throw a RangeError naming the field.
   */
  constructor(world: World | Occluders, options: VisionOptions = {}) {
    this.options = checkOptions(options);
    this.los = sightMediumFor(world, options.opaqueMask);
    this.bodies = this.los.hasBodies;
    this.rule = new SightRule(this.los, this.options);
    this.scheduler = new Scheduler(
      this.observerList, this.observables, this.index, this.los, this.rule, this.pool, this.dirtyAreas, this.options,
    );
    // Occluders that appear, vanish, move or change filter make the observers looking there pending.
    this.los.onAreaChanged((minX, minY, maxX, maxY) => this.dirtyAreas.mark(minX, minY, maxX, maxY));
    this.setRecordRays(this.options.recordRays === true);
  }

  /** The rays cast by the last `tick()` while recording is on (option `recordRays`, {@link setRecordRays}); otherwise null. */
  get rayLog(): RayLog | null {
    return this.recordRaysOn ? this.rule.rays : null;
  }

  /**
   * Switches ray recording on or off from the next `tick()`. A room records only while someone watches
   * the rays (a spectator), so an unwatched room pays nothing for them.
   */
  setRecordRays(on: boolean): void {
    this.recordRaysOn = on;
    if (on && this.rule.rays === null) this.rule.rays = new RayLog();
  }

  /** Detaches from the world (the engine listens to its fixture events). The system must not be used after. */
  dispose(): void {
    this.los.dispose();
  }

  /** Category bits that block sight (see {@link VisionOptions.opaqueMask}). */
  get opaqueMask(): number {
    return this.los.opaqueMask;
  }

  /** Registers an observer. Throws a RangeError naming the bad field, or a duplicate id; changes nothing then. */
  addObserver(id: string, spec: ObserverSpec): void {
    nonEmptyString("VisionSystem.addObserver id", id);
    checkObserverComplete(spec);
    this.checkBodyAllowed("ObserverSpec", spec);
    if (this.observers.has(id)) fail("VisionSystem.addObserver id", "is already registered as an observer", id);
    const o = new Observer(id);
    this.applyObserver(o, spec);
    o.slot = this.observerList.length;
    o.changedAt = this.tickCount + 1;
    this.observerList.push(o);
    this.observers.set(id, o);
  }

  /** Changes some fields of an observer. Validates the whole patch before applying any of it. */
  updateObserver(id: string, patch: Partial<ObserverSpec>): void {
    const o = this.observers.get(id);
    if (o === undefined) fail("VisionSystem.updateObserver id", "is not a registered observer", id);
    checkObserverFields(patch);
    this.checkBodyAllowed("ObserverSpec", patch);
    this.applyObserver(o, patch);
    o.changedAt = this.tickCount + 1;
  }

  /**
   * Moves an observer without building a patch object: the per-tick path. Meters and radians.
   * Non-finite values throw a RangeError and change nothing.
   */
  moveObserver(id: string, x: number, y: number, facing: number): void {
    const o = this.observers.get(id);
    if (o === undefined) fail("VisionSystem.moveObserver id", "is not a registered observer", id);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(facing)) {
      checkObserverFields({ position: { x, y }, facing });
    }
    if (x === o.x && y === o.y && facing === o.facing) return;
    o.x = x;
    o.y = y;
    o.facing = facing;
    o.syncSector();
    o.changedAt = this.tickCount + 1;
  }

  /** Registers an observable. Throws a RangeError naming the bad field, or a duplicate id; changes nothing then. */
  addObservable(id: string, spec: ObservableSpec): void {
    nonEmptyString("VisionSystem.addObservable id", id);
    object("ObservableSpec", spec);
    if (spec.position === undefined) fail("ObservableSpec.position", "is required", undefined);
    if (this.observables.has(id)) fail("VisionSystem.addObservable id", "is already registered as an observable", id);
    const radius = spec.radius ?? 0;
    const samples = spec.samples ?? (radius > 0 ? 3 : 1);
    checkObservableFields(spec, samples, spec.required ?? 1);
    this.checkBodyAllowed("ObservableSpec", spec);
    if (spec.body === undefined) this.checkNotInsideMovingBody(spec.position);
    const t = new Observable(id);
    this.applyObservable(t, spec);
    t.changedAt = this.tickCount + 1;
    this.index.insert(t);
    this.observables.set(id, t);
  }

  /** Changes some fields of an observable. Validates the whole patch before applying any of it. */
  updateObservable(id: string, patch: Partial<ObservableSpec>): void {
    const t = this.observables.get(id);
    if (t === undefined) fail("VisionSystem.updateObservable id", "is not a registered observable", id);
    const radius = patch.radius ?? t.radius;
    const samples = patch.samples ?? (t.samplesSpec !== 0 ? t.samplesSpec : radius > 0 ? 3 : 1);
    checkObservableFields(patch, samples, patch.required ?? t.required);
    this.checkBodyAllowed("ObservableSpec", patch);
    if ("body" in patch && patch.body === undefined) this.checkNotInsideMovingBody(patch.position ?? { x: t.x, y: t.y });
    const oldX = t.x;
    const oldY = t.y;
    this.applyObservable(t, patch);
    t.changedAt = this.tickCount + 1;
    this.index.move(t, t.x - oldX, t.y - oldY);
  }

  /** Moves an observable without building a patch object: the per-tick path. Meters. */
  moveObservable(id: string, x: number, y: number): void {
    const t = this.observables.get(id);
    if (t === undefined) fail("VisionSystem.moveObservable id", "is not a registered observable", id);
    if (!Number.isFinite(x) || !Number.isFinite(y)) checkObservableFields({ position: { x, y } }, 1, 1);
    const dx = x - t.x;
    const dy = y - t.y;
    if (dx === 0 && dy === 0) return;
    t.x = x;
    t.y = y;
    t.changedAt = this.tickCount + 1;
    this.index.move(t, dx, dy);
  }

  /** Drops `id` as an observer and as an observable, with every sighting that involves it. Unknown ids are ignored. */
  remove(id: string): void {
    const o = this.observers.get(id);
    if (o !== undefined) {
      this.pool.unseeAll(o);
      const last = this.observerList.pop()!;
      if (last !== o) {
        this.observerList[o.slot] = last;
        last.slot = o.slot;
      }
      this.observers.delete(id);
    }
    const t = this.observables.get(id);
    if (t !== undefined) {
      for (const by of t.seenBy) {
        const o = this.observers.get(by);
        if (o === undefined) continue;
        this.pool.unsee(o, t);
      }
      if (this.options.blockerCache) for (const other of this.observerList) other.blockers.delete(t);
      this.index.remove(t);
      this.observables.delete(id);
    }
  }

  /** Bodies only mean something in a planck world: on occluders a `body` is a mistake worth naming. */
  private checkBodyAllowed(kind: string, spec: { body?: unknown }): void {
    if (!this.bodies && spec.body !== undefined) {
      fail(`${kind}.body`, "needs a VisionSystem built on a planck World (this one is built on Occluders, which have no bodies)", spec.body);
    }
  }

  /**
   * An observable left without its body, standing inside that body's opaque fixture, would have every ray
   * to it stopped by its own fixture: seen by nobody, silently. Refused instead, with the fix.
   */
  private checkNotInsideMovingBody(at: { x: number; y: number }): void {
    if (!this.bodies || this.los.movingBodyAt(at.x, at.y) === null) return;
    fail(
      "ObservableSpec.body",
      `is required here: (${at.x}, ${at.y}) lies inside an opaque fixture of a moving body, which would hide the observable from everyone. ` +
        "Pass that body as `body` (its fixtures are then the target), or put the fixture on a category outside opaqueMask",
      undefined,
    );
  }

  /**
   * Tells the engine that sight changed inside a box, meters: every observer whose reach overlaps it gets
   * pending work at the next `tick()`. Fixtures created, destroyed, moved, re-typed, (de)activated or
   * re-filtered are noticed by themselves; call this for what the engine cannot see (a shape edited in
   * place, or a rule of your own). Infinite bounds are allowed (`-Infinity, -Infinity, Infinity, Infinity`
   * = everywhere); NaN throws a RangeError.
   */
  invalidateArea(minX: number, minY: number, maxX: number, maxY: number): void {
    if ([minX, minY, maxX, maxY].some((v) => typeof v !== "number" || Number.isNaN(v)) || minX > maxX || minY > maxY) {
      throw new RangeError(`VisionSystem.invalidateArea: needs numbers with min <= max (got ${minX}, ${minY}, ${maxX}, ${maxY})`);
    }
    this.dirtyAreas.mark(minX, minY, maxX, maxY);
  }

  /**
   * The published fairness bound, in ticks: no observer with pending work stays stale (its results
   * older than the current tick) for more than this many ticks, whatever the load:
   *
   *   W = ceil(uMax x pMax / agingRate) + ceil((N - 1) / m),   m = max(1, ceil(raysPerTick / C))
   *
   * with N observers, pMax their largest priority, uMax = 2 the largest urgency, and C the most tree rays
   * one evaluation has cost so far. With `raysPerTick = Infinity` (and no time budget) nothing is ever left
   * pending: 0. With a time budget, m = 1. docs/vision.md derives it.
   */
  stalenessBound(): number {
    return this.scheduler.stalenessBound();
  }

  /**
   * Exact answer for the current poses: no scheduler, no cache, no hysteresis, nothing remembered. Casts
   * rays. False for unknown ids and for an entity asking about itself. Fixtures created or destroyed count
   * at once; a moving body whose filter, sensor flag or type changed counts from the next `tick()`.
   */
  check(observerId: string, observableId: string): boolean {
    const o = this.observers.get(observerId);
    const t = this.observables.get(observableId);
    if (o === undefined || t === undefined || o.id === t.id) return false;
    return this.rule.sees(o, t);
  }

  /**
   * {@link check} from a pose the observer is not in now (where a client was shown it): its range, cone and
   * senses from `pose`, the target where it is now, rays against the occluders as they are now. Exact,
   * nothing remembered; casts rays (counted in {@link raysCast}). False for unknown ids.
   * @throws RangeError naming the field of a non-finite pose
   */
  checkFrom(observerId: string, observableId: string, pose: Pose): boolean {
    finite("VisionSystem.checkFrom pose.x", pose.x, "meters");
    finite("VisionSystem.checkFrom pose.y", pose.y, "meters");
    finite("VisionSystem.checkFrom pose.facing", pose.facing, "radians");
    const o = this.observers.get(observerId);
    const t = this.observables.get(observableId);
    if (o === undefined || t === undefined || o.id === t.id) return false;
    return this.rule.seesFrom(o, t, pose);
  }

  /**
   * The pair of one of this engine's own sightings (from {@link sightings}), still current: its observer
   * and target without an id lookup. Undefined for any other sighting. @internal
   */
  pairOf(s: Sighting): PairSighting | undefined {
    return s instanceof PairSighting && s.pool === this.pool && s.observer !== null && s.target !== null ? s : undefined;
  }

  /** {@link checkFrom} for a pair of {@link pairOf} (the pose already checked finite by its maker). @internal */
  checkPairFrom(pair: PairSighting, pose: Pose): boolean {
    return this.rule.seesFrom(pair.observer!, pair.target!, pose);
  }

  /** The observer's pose now (as last moved), written into `out`; false for an unknown id. */
  poseOf(observerId: string, out: Pose): boolean {
    const o = this.observers.get(observerId);
    if (o === undefined) return false;
    out.x = o.x;
    out.y = o.y;
    out.facing = o.facing;
    return true;
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

  /**
   * Every (observer, target) pair in the last results as an awareness {@link Sighting}: distance (meters,
   * eye to centre), off-axis angle and half cone (radians), range, and `proximity` when the target is
   * outside the cone and seen through the proximity sense alone. `visibility` is left at 1 for the caller
   * to set (crouching, shadow). The array and its objects are reused: valid until the next call. Each
   * object stands for the same pair for as long as the pair stays visible, and offers its `memo` slot
   * (null when the pair is first seen) for a consumer's own record of the pair. Sightings of the same
   * target share one `position` object: read it, do not write it.
   */
  sightings(): readonly Sighting[] {
    return this.pool.sightings(this.rule);
  }

  /** Number of observers and observables registered. */
  get size(): { observers: number; observables: number } {
    return { observers: this.observers.size, observables: this.observables.size };
  }

  /**
   * Tree rays cast since construction, by `tick()` and `check()` alike: the sum of every
   * {@link VisionTickReport.rays}, plus what `check()` cost, which no report counts.
   */
  get raysCast(): number {
    return this.los.segments;
  }

  /**
   * One scheduler step. Phase 1 looks at every observer cheaply (a candidate query and the cone tests, no
   * rays): those whose inputs have not changed keep their results; those with nothing in view are settled
   * without rays; the rest have pending work and are queued by `priority x urgency + agingRate x
   * ticksWaited`. Phase 2 evaluates the queue in that order until `raysPerTick` tree rays are spent (the
   * evaluation in progress may finish), or the optional time budget runs out.
   */
  tick(): VisionTickReport {
    return this.scheduler.tick(++this.tickCount, this.recordRaysOn);
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
