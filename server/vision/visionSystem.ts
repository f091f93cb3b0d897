import type { World } from "planck";
import type { Occluders } from "../occluders/occluders.js";
import { silhouettePoints, type SilhouetteOut } from "../../shared/math/tangent.js";
import { fail } from "../../shared/validation/rangeChecks.js";
import { checkOpaqueMask, EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import type { Blocker, SightMedium } from "./sightMedium.js";
import { sightMediumFor } from "./sightMediumFor.js";
import { Observable } from "./observable.js";
import { ObservableIndex } from "./observableIndex.js";
import { PendingQueue } from "./pendingQueue.js";
import { RayLog } from "./rayLog.js";
import { Observer } from "./observer.js";
import { PairSighting } from "./pairSighting.js";
import {
  checkId, checkObservableFields, checkObserverComplete, checkObserverFields,
} from "./specValidation.js";
import type { ObservableSpec, ObserverSpec, VisionOptions, VisionTickReport } from "./types.js";
import type { Sighting } from "./awareness.js";
import { wrapAngle } from "../../shared/math/angle.js";
import type { Sector } from "../../shared/math/sector.js";

/** Silhouette samples sit this fraction of the radius inside the body, so a ray grazing the rim counts. */
const SILHOUETTE_INSET = 0.1;

const EMPTY: ReadonlySet<string> = new Set<string>();

// Outcomes of phase 1 for one observer.
/** Nothing changed and something is in view: its results stand. */
const SCAN_FRESH = 0;
/** Nothing changed and nothing is in view. */
const SCAN_IDLE = 1;
/** Something changed but nothing is in view: settled to "sees nobody" without rays. */
const SCAN_SETTLED = 2;
/** Needs rays: queued. */
const SCAN_PENDING = 3;

/** Changed areas tracked one by one per tick before the engine just marks everyone pending. */
const MAX_DIRTY_AREAS = 64;

/** Urgency of an observer that has a candidate in its cone it does not see yet (acquiring). */
const URGENCY_ACQUIRE = 2;
/** Urgency of an observer whose only candidates are targets it already sees (tracking). */
const URGENCY_TRACK = 1;

/** Defaults of every {@link VisionOptions} field. */
export const DEFAULT_VISION_OPTIONS = Object.freeze({
  opaqueMask: EVERY_CATEGORY,
  recordRays: false,
  raysPerTick: 256,
  agingRate: 0.25,
  timeBudgetUs: Infinity,
  loseRangeMargin: 0.1,
  loseAngleMargin: (5 * Math.PI) / 180,
  blockerCache: true,
});

function checkOptions(options: VisionOptions): Required<VisionOptions> {
  if (typeof options !== "object" || options === null) throw new RangeError("VisionOptions must be an object");
  const o = { ...DEFAULT_VISION_OPTIONS, ...options } as Required<VisionOptions>;
  const bad = (field: string, rule: string, v: unknown) =>
    new RangeError(`VisionOptions.${field} ${rule} (got ${String(v)})`);
  checkOpaqueMask("VisionOptions.opaqueMask", o.opaqueMask);
  if (typeof o.raysPerTick !== "number" || !(o.raysPerTick > 0)) throw bad("raysPerTick", "must be > 0 (Infinity allowed)", o.raysPerTick);
  if (typeof o.agingRate !== "number" || !Number.isFinite(o.agingRate) || !(o.agingRate > 0)) {
    throw bad("agingRate", "must be a finite number > 0", o.agingRate);
  }
  if (typeof o.timeBudgetUs !== "number" || !(o.timeBudgetUs > 0)) throw bad("timeBudgetUs", "must be > 0 microseconds (Infinity = off)", o.timeBudgetUs);
  for (const field of ["loseRangeMargin", "loseAngleMargin"] as const) {
    const v = o[field];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw bad(field, "must be a finite number >= 0", v);
  }
  return o;
}

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
  // Read for every candidate of every observer every tick: kept as plain fields.
  private readonly loseRangeMargin: number;
  private readonly loseAngleMargin: number;
  private readonly hysteresis: boolean;
  private readonly queue = new PendingQueue();
  /** Occluder changes reported since the last tick, as flat (minX, minY, maxX, maxY) boxes. */
  private dirtyAreas: number[] = [];
  /** Most tree rays any single evaluation has cost so far (the C of the staleness bound). */
  private maxEvaluationRays = 1;
  private readonly backlog: number[] = [];
  /** Observers that currently see someone (`Observer.seeingSlot` indexes it): what `sightings()` walks. */
  private readonly seeing: Observer[] = [];
  /** Sightings of lost pairs, for reuse. */
  private readonly spareSightings: PairSighting[] = [];
  private readonly sightingList: Sighting[] = [];
  private tickCount = 0;
  /** Where rays are recorded; created the first time recording is switched on. */
  private rays: RayLog | null = null;
  private recordRaysOn = false;
  private evalStamp = 0;

  // Per-evaluation scratch, so the hot path allocates nothing.
  private readonly silhouette: SilhouetteOut = { ax: 0, ay: 0, bx: 0, by: 0 };
  private readonly sample = { x: 0, y: 0 };
  private current: Observer | null = null;
  private recording = false;
  private pairsThisTick = 0;
  private cacheHitsThisTick = 0;
  private stillBlockedThisTick = 0;
  /** Whether the sight ray being cast may consult the pair's cached blocker (never for `check`). */
  private cacheAllowed = false;
  // Scan state for the observer being scanned (phase 1 of a tick).
  private scanChanged = false;
  private scanInView = 0;
  private scanUnseen = 0;
  private readonly visitScan = (t: Observable): void => {
    const o = this.current!;
    if (t.id === o.id) return;
    // Most observers see nobody: they skip the set lookup, and the widened cone only matters for targets seen.
    const wasVisible = o.visible.size > 0 && o.visible.has(t.id);
    const inView = this.inView(o, t, wasVisible);
    // Only a candidate that is (or was) in view can change what this observer sees.
    if ((inView || wasVisible) && t.changedAt > o.freshAt) this.scanChanged = true;
    if (inView) {
      this.scanInView++;
      if (!wasVisible) this.scanUnseen++;
      o.candidates[o.candidateCount++] = t;
    }
  };

  /**
   * @param world what blocks sight: a planck `World` (its fixtures, moving ones included, filtered by
   * `opaqueMask`; the caller steps it), or an `Occluders` from `sightline/occluders` for a game without
   * physics (then specs take no `body`). Anything else throws a RangeError saying what was expected.
   * @param options scheduler budget, aging, hysteresis and sight options; see {@link VisionOptions}.
   * Invalid options throw a RangeError naming the field.
   */
  constructor(world: World | Occluders, options: VisionOptions = {}) {
    this.options = checkOptions(options);
    this.loseRangeMargin = this.options.loseRangeMargin;
    this.loseAngleMargin = this.options.loseAngleMargin;
    this.hysteresis = this.loseRangeMargin > 0 || this.loseAngleMargin > 0;
    this.los = sightMediumFor(world, options.opaqueMask);
    this.bodies = this.los.hasBodies;
    // Occluders that appear, vanish, move or change filter make the observers looking there pending.
    this.los.onAreaChanged((minX, minY, maxX, maxY) => this.markDirty(minX, minY, maxX, maxY));
    this.setRecordRays(this.options.recordRays === true);
  }

  /** The rays cast by the last `tick()` while recording is on (option `recordRays`, {@link setRecordRays}); otherwise null. */
  get rayLog(): RayLog | null {
    return this.recordRaysOn ? this.rays : null;
  }

  /**
   * Switches ray recording on or off from the next `tick()`. A room records only while someone watches
   * the rays (a spectator), so an unwatched room pays nothing for them.
   */
  setRecordRays(on: boolean): void {
    this.recordRaysOn = on;
    if (on && this.rays === null) this.rays = new RayLog();
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
    checkId("observer", id);
    checkObserverComplete(spec);
    this.checkBodyAllowed("ObserverSpec", spec);
    if (this.observers.has(id)) throw new RangeError(`observer id ${JSON.stringify(id)} is already registered`);
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
    if (o === undefined) throw new RangeError(`observer id ${JSON.stringify(id)} is not registered`);
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
    if (o === undefined) throw new RangeError(`observer id ${JSON.stringify(id)} is not registered`);
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
    checkId("observable", id);
    if (typeof spec !== "object" || spec === null) throw new RangeError("ObservableSpec must be an object");
    if (spec.position === undefined) throw new RangeError("ObservableSpec.position is required (got undefined)");
    if (this.observables.has(id)) throw new RangeError(`observable id ${JSON.stringify(id)} is already registered`);
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
    if (t === undefined) throw new RangeError(`observable id ${JSON.stringify(id)} is not registered`);
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
    if (t === undefined) throw new RangeError(`observable id ${JSON.stringify(id)} is not registered`);
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
      this.dropAllSightings(o);
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
        o.visible.delete(id);
        this.dropSighting(o, t);
        this.updateSeeing(o);
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
      throw new RangeError(`invalidateArea needs numbers with min <= max (got ${minX}, ${minY}, ${maxX}, ${maxY})`);
    }
    this.markDirty(minX, minY, maxX, maxY);
  }

  /**
   * Records a changed area for the next scan. Past {@link MAX_DIRTY_AREAS} in one tick (a crowd of moving
   * occluders) every observer is simply marked pending: checking each observer against every box would
   * cost more than the re-evaluations it saves.
   */
  private markDirty(minX: number, minY: number, maxX: number, maxY: number): void {
    const a = this.dirtyAreas;
    if (a.length === 4 && a[0] === -Infinity && a[2] === Infinity) return; // already everywhere
    if (a.length >= 4 * MAX_DIRTY_AREAS) {
      a.length = 0;
      a.push(-Infinity, -Infinity, Infinity, Infinity);
      return;
    }
    a.push(minX, minY, maxX, maxY);
  }

  /**
   * The published fairness bound, in ticks: no observer with pending work stays stale (its results
   * older than the current tick) for more than this many ticks, whatever the load:
   *
   *   W = ceil(uMax x pMax / agingRate) + ceil((N - 1) / m),   m = max(1, ceil(raysPerTick / C))
   *
   * with N observers, pMax their largest priority, uMax = 2 the largest urgency, and C the most tree rays
   * one evaluation has cost so far. With `raysPerTick = Infinity` (and no time budget) nothing is ever left
   * pending: 0. With a time budget, m = 1. The README derives it.
   */
  stalenessBound(): number {
    const n = this.observerList.length;
    if (n === 0) return 0;
    const { raysPerTick, timeBudgetUs, agingRate } = this.options;
    if (raysPerTick === Infinity && timeBudgetUs === Infinity) return 0;
    let pMax = 0;
    for (const o of this.observerList) if (o.priority > pMax) pMax = o.priority;
    const perTick = timeBudgetUs !== Infinity ? 1 : Math.max(1, Math.ceil(raysPerTick / this.maxEvaluationRays));
    return Math.ceil((URGENCY_ACQUIRE * pMax) / agingRate) + Math.ceil((n - 1) / perTick);
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
    const list = this.sightingList;
    let n = 0;
    for (const o of this.seeing) {
      // Without a proximity sense, everything it sees is in its cone: no test needed.
      const cone = o.proximityRadius <= 0 ? null : this.hysteresis ? o.lose(this.loseRangeMargin, this.loseAngleMargin) : o.sector;
      for (let s = o.firstSeen; s !== null; s = s.next) {
        const t = s.target!;
        const dx = t.x - o.x;
        const dy = t.y - o.y;
        s.observerId = o.id;
        s.targetId = t.id;
        s.distance = Math.sqrt(dx * dx + dy * dy);
        s.offAxis = s.distance === 0 ? 0 : Math.abs(wrapAngle(Math.atan2(dy, dx) - o.facing));
        s.halfFov = o.halfFov;
        s.range = o.range;
        s.proximity = cone !== null && !cone.intersectsCircle(t.x, t.y, t.radius);
        s.visibility = 1;
        const at = t.sightedAt;
        at.x = t.x;
        at.y = t.y;
        s.position = at;
        list[n++] = s;
      }
    }
    list.length = n;
    return list;
  }

  /** Number of observers and observables registered. */
  get size(): { observers: number; observables: number } {
    return { observers: this.observers.size, observables: this.observables.size };
  }

  /** Sight rays cast since construction, by `tick()` and `check()` alike. */
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
    const now = ++this.tickCount;
    this.los.refresh();
    const started = this.options.timeBudgetUs === Infinity ? 0 : performance.now();
    const raysBefore = this.los.segments;
    this.pairsThisTick = 0;
    this.cacheHitsThisTick = 0;
    this.stillBlockedThisTick = 0;
    this.recording = this.recordRaysOn;
    if (this.recording) this.rays!.clear();
    const list = this.observerList;
    const queue = this.queue;
    queue.clear();
    let evaluated = 0;
    let skipped = 0;

    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      const outcome = this.scan(o, now);
      if (outcome === SCAN_FRESH) skipped++;
      else if (outcome === SCAN_SETTLED) evaluated++;
      else if (outcome === SCAN_PENDING) queue.push(o.slot, o.priority * (this.scanUnseen > 0 ? URGENCY_ACQUIRE : URGENCY_TRACK) + this.options.agingRate * (now - o.freshAt), o.freshAt);
    }
    this.dirtyAreas.length = 0;

    const budget = this.options.raysPerTick;
    const timeBudgetMs = this.options.timeBudgetUs / 1000;
    while (queue.size > 0 && this.los.segments - raysBefore < budget) {
      if (timeBudgetMs !== Infinity && evaluated > 0 && performance.now() - started >= timeBudgetMs) break;
      const o = list[queue.pop()]!;
      const before = this.los.segments;
      this.evaluate(o, now);
      const cost = this.los.segments - before;
      if (cost > this.maxEvaluationRays) this.maxEvaluationRays = cost;
      evaluated++;
    }
    this.recording = false;

    return {
      tick: now,
      rays: this.los.segments - raysBefore,
      evaluated,
      skipped,
      queue: queue.size,
      pairs: this.pairsThisTick,
      staleness: this.backlogStaleness(now),
      blockerCacheHits: this.cacheHitsThisTick,
      stillBlocked: this.stillBlockedThisTick,
    };
  }

  /** Phase 1 for one observer: is its last result still exact, settled without rays, or pending? */
  private scan(o: Observer, now: number): number {
    let dirty = o.dirty || o.changedAt > o.freshAt || this.inDirtyArea(o);
    this.current = o;
    this.scanChanged = false;
    this.scanInView = 0;
    this.scanUnseen = 0;
    o.candidateCount = 0;
    const reach = this.queryReach(o);
    this.index.query(o.x - reach, o.y - reach, o.x + reach, o.y + reach, this.visitScan);
    this.current = null;
    if (this.scanChanged) dirty = true;
    // Pairs still hidden by the fixture that hid them last time are settled here, exactly, with no tree ray:
    // only observers with real ray work are queued, so the budget goes to targets that may have appeared.
    if (dirty && this.options.blockerCache && o.candidateCount > 0) this.settleCachedPairs(o);
    // A target it saw that has since moved out of the query box still has to be dropped.
    if (!dirty && o.visible.size > 0) {
      for (const id of o.visible) {
        if (this.observables.get(id)!.changedAt > o.freshAt) { dirty = true; break; }
      }
    }
    if (!dirty) {
      o.freshAt = now;
      o.candidateCount = 0;
      return this.scanInView > 0 ? SCAN_FRESH : SCAN_IDLE;
    }
    if (this.scanInView === 0) {
      // Nothing in view: the answer is "sees nobody", known without a ray.
      this.dropAllSightings(o);
      o.freshAt = now;
      o.dirty = false;
      return SCAN_SETTLED;
    }
    if (o.candidateCount === 0) {
      // Everything in view is still hidden by its cached blocker: settled without a tree ray.
      this.evaluate(o, now);
      return SCAN_SETTLED;
    }
    o.dirty = true;
    return SCAN_PENDING;
  }

  /**
   * Removes from the observer's candidate list the unseen pairs whose cached blocker still hides them
   * (enough samples blocked by that one fixture), counting them as cache hits. `scanUnseen` is recounted
   * over what is left, so urgency reflects only targets that may really have become visible.
   */
  private settleCachedPairs(o: Observer): void {
    const list = o.candidates;
    let kept = 0;
    let unseen = 0;
    const seesSomeone = o.visible.size > 0;
    for (let i = 0; i < o.candidateCount; i++) {
      const t = list[i]!;
      if (!seesSomeone || !o.visible.has(t.id)) {
        const hint = o.blockers.get(t);
        if (hint !== undefined) {
          this.stillBlockedThisTick++;
          if (this.hiddenBy(o, t, hint)) {
            this.cacheHitsThisTick++;
            continue;
          }
        }
        unseen++;
      }
      list[kept++] = t;
    }
    o.candidateCount = kept;
    this.scanUnseen = unseen;
  }

  /** True when `fixture` alone blocks more than `samples - required` of the pair's sample rays. */
  private hiddenBy(o: Observer, t: Observable, fixture: Blocker): boolean {
    if (!this.los.canBlock(fixture, o.body, t.body)) return false;
    const n = t.samples;
    const allowedClear = t.required - 1;
    const s = this.silhouette;
    if (t.radius === 0 || n === 1 || !silhouettePoints(o.x, o.y, t.x, t.y, t.radius, SILHOUETTE_INSET, s)) {
      return this.fixtureBlocksRay(o, t, fixture, t.x, t.y);
    }
    let notBlocked = 0;
    const p = this.sample;
    for (let i = 0; i < n; i++) {
      this.samplePoint(t, i, p);
      if (!this.fixtureBlocksRay(o, t, fixture, p.x, p.y) && ++notBlocked > allowedClear) return false;
    }
    return true;
  }

  /**
   * Sample `i` of a target whose silhouette is in `this.silhouette`: 0 is the centre, then `samples - 1`
   * points evenly along the chord between the two (inset) silhouette points, ends included.
   */
  private samplePoint(t: Observable, i: number, out: { x: number; y: number }): void {
    if (i === 0) {
      out.x = t.x;
      out.y = t.y;
      return;
    }
    const s = this.silhouette;
    const u = (i - 1) / (t.samples - 2);
    out.x = s.ax + (s.bx - s.ax) * u;
    out.y = s.ay + (s.by - s.ay) * u;
  }

  /** One sample ray against one fixture already known to be able to block (`LineOfSight.canBlock`). */
  private fixtureBlocksRay(o: Observer, t: Observable, fixture: Blocker, px: number, py: number): boolean {
    const end = t.body === null ? 1 : this.los.entryFraction(o.x, o.y, px, py, t.body);
    return this.los.crosses(fixture, o.x, o.y, px, py, end);
  }

  /** Whether an occluder change reported since the last tick overlaps the observer's reach. */
  private inDirtyArea(o: Observer): boolean {
    const a = this.dirtyAreas;
    if (a.length === 0) return false;
    const reach = this.queryReach(o);
    for (let i = 0; i < a.length; i += 4) {
      if (a[i]! <= o.x + reach && a[i + 2]! >= o.x - reach && a[i + 1]! <= o.y + reach && a[i + 3]! >= o.y - reach) return true;
    }
    return false;
  }

  /** How far candidate queries look: the widest sense, widened by the lose margin for seen targets. */
  private queryReach(o: Observer): number {
    const reach = o.reach;
    return o.visible.size > 0 ? reach * (1 + this.loseRangeMargin) : reach;
  }

  private dropAllSightings(o: Observer): void {
    if (o.visible.size === 0) return;
    for (let s = o.firstSeen; s !== null; ) {
      const next = s.next;
      s.target!.seenBy.delete(o.id);
      this.releaseSighting(s);
      s = next;
    }
    o.firstSeen = null;
    o.visible.clear();
    this.updateSeeing(o);
  }

  /** A sighting for a pair just seen, appended to the observer's chain (after the pairs it already sees). */
  private startSighting(o: Observer, t: Observable): void {
    const s = this.spareSightings.pop() ?? new PairSighting();
    s.observerId = o.id;
    s.targetId = t.id;
    s.target = t;
    s.next = null;
    if (o.firstSeen === null) o.firstSeen = s;
    else {
      let last = o.firstSeen;
      while (last.next !== null) last = last.next;
      last.next = s;
    }
  }

  /** Takes the pair (o, t) out of the observer's chain, keeping the others in order. */
  private dropSighting(o: Observer, t: Observable): void {
    let prev: PairSighting | null = null;
    for (let s = o.firstSeen; s !== null; prev = s, s = s.next) {
      if (s.target !== t) continue;
      if (prev === null) o.firstSeen = s.next;
      else prev.next = s.next;
      this.releaseSighting(s);
      return;
    }
  }

  /** A lost pair's sighting goes back for reuse, its memo cleared: no consumer's record follows it to another pair. */
  private releaseSighting(s: PairSighting): void {
    s.target = null;
    s.memo = null;
    s.next = null;
    this.spareSightings.push(s);
  }

  /** Keeps `seeing` in step with whether the observer's visible set is empty. */
  private updateSeeing(o: Observer): void {
    const sees = o.visible.size > 0;
    if (sees === (o.seeingSlot >= 0)) return;
    if (sees) {
      o.seeingSlot = this.seeing.length;
      this.seeing.push(o);
    } else {
      const last = this.seeing.pop()!;
      if (last !== o) {
        this.seeing[o.seeingSlot] = last;
        last.seeingSlot = o.seeingSlot;
      }
      o.seeingSlot = -1;
    }
  }

  /** Ticks since fresh, over the observers still queued: p50, p99, max (nearest rank). */
  private backlogStaleness(now: number): { p50: number; p99: number; max: number } {
    const q = this.queue;
    if (q.size === 0) return { p50: 0, p99: 0, max: 0 };
    // Ages are small integers: a counting pass instead of a sort.
    const counts = this.backlog;
    counts.length = 0;
    let max = 0;
    for (let i = 0; i < q.size; i++) {
      const age = now - this.observerList[q.slotAt(i)]!.freshAt;
      while (counts.length <= age) counts.push(0);
      counts[age]!++;
      if (age > max) max = age;
    }
    const rank = (p: number) => {
      const target = Math.max(1, Math.ceil(p * q.size));
      let seen = 0;
      for (let age = 0; age < counts.length; age++) {
        seen += counts[age]!;
        if (seen >= target) return age;
      }
      return max;
    };
    return { p50: rank(0.5), p99: rank(0.99), max };
  }

  /**
   * Re-evaluates one observer: rays for the candidates this tick's scan found in view, then sweeps the
   * sightings it no longer has (including targets that left the view, which need no ray).
   */
  private evaluate(o: Observer, now: number): void {
    const stamp = ++this.evalStamp;
    this.current = o;
    const candidates = o.candidates;
    for (let i = 0; i < o.candidateCount; i++) this.rayTest(o, candidates[i]!, stamp);
    o.candidateCount = 0;
    this.current = null;
    o.freshAt = now;
    o.dirty = false;
    // Most observers see nobody; skip the sweep then.
    if (o.visible.size === 0) return;
    let prev: PairSighting | null = null;
    for (let s = o.firstSeen; s !== null; ) {
      const next = s.next;
      const t = s.target!;
      if (t.seenStamp !== stamp) {
        o.visible.delete(t.id);
        t.seenBy.delete(o.id);
        if (prev === null) o.firstSeen = next;
        else prev.next = next;
        this.releaseSighting(s);
      } else prev = s;
      s = next;
    }
    this.updateSeeing(o);
  }

  /** Rays for one in-view candidate during an evaluation; records the sighting. */
  private rayTest(o: Observer, t: Observable, stamp: number): void {
    this.pairsThisTick++;
    const wasVisible = o.visible.has(t.id);
    this.cacheAllowed = this.options.blockerCache;
    if (this.lineOfSight(o, t)) {
      t.seenStamp = stamp;
      if (!wasVisible) {
        o.visible.add(t.id);
        t.seenBy.add(o.id);
        this.startSighting(o, t);
        if (o.visible.size === 1) this.updateSeeing(o);
      }
      if (this.cacheAllowed) o.blockers.delete(t);
    }
  }

  /**
   * The geometric half of the sight rule: range and cone, or the proximity sense. A target the observer
   * already sees is judged against the cone widened by the lose margins (hysteresis).
   */
  private inView(o: Observer, t: Observable, wasVisible: boolean): boolean {
    const r = t.radius;
    const keep = wasVisible && this.hysteresis;
    const sector: Sector = keep ? o.lose(this.loseRangeMargin, this.loseAngleMargin) : o.sector;
    if (sector.intersectsCircle(t.x, t.y, r)) return true;
    const p = keep ? o.proximityRadius * (1 + this.loseRangeMargin) : o.proximityRadius;
    if (p <= 0) return false;
    const dx = t.x - o.x;
    const dy = t.y - o.y;
    const reach = p + r;
    return dx * dx + dy * dy <= reach * reach;
  }

  /**
   * The sight rule with nothing remembered (what `check` answers): range and cone (or proximity), then rays,
   * without lose margins and without the blocker cache.
   */
  private sees(o: Observer, t: Observable): boolean {
    if (!this.inView(o, t, false)) return false;
    this.cacheAllowed = false;
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
    const p = this.sample;
    for (let i = 0; i < n; i++) {
      this.samplePoint(t, i, p);
      if (this.rayClear(o, t, p.x, p.y)) {
        if (++clear >= k) return true;
      } else if (n - ++blocked < k) {
        return false;
      }
    }
    return false;
  }

  /**
   * One sight ray from the eye to a sample point; it ends, clear, where it first meets the target's body.
   * The pair's last blocker is tried first: if it still lies across the ray, no tree ray is needed.
   */
  private rayClear(o: Observer, t: Observable, px: number, py: number): boolean {
    const end = t.body === null ? 1 : this.los.entryFraction(o.x, o.y, px, py, t.body);
    if (this.cacheAllowed) {
      const hint = o.blockers.get(t);
      if (hint !== undefined && this.los.canBlock(hint, o.body, t.body) && this.los.crosses(hint, o.x, o.y, px, py, end)) return false;
    }
    const clear = !this.los.blocked(o.x, o.y, px, py, o.body, t.body, end);
    if (!clear && this.cacheAllowed) o.blockers.set(t, this.los.lastBlocker!);
    if (this.recording) this.rays!.push(o.x, o.y, o.x + (px - o.x) * end, o.y + (py - o.y) * end, clear);
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
