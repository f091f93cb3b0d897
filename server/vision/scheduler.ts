/**
 * The deferred priority scheduler: each tick, a cheap scan of every observer (no rays) finds whose results
 * may have changed, then the ones with ray work are evaluated by priority, urgency and time waited (the
 * starvation aging) until the ray or time budget is spent; the staleness bound is its published promise.
 * Apart from the registry, which only records poses and specs, and from the sight rule, which answers for
 * one pair whenever it is asked: this unit decides when each observer is asked.
 */
import type { SightMedium } from "./sightMedium.js";
import type { Observable } from "./observable.js";
import type { ObservableIndex } from "./observableIndex.js";
import type { Observer } from "./observer.js";
import { PendingQueue } from "./pendingQueue.js";
import type { SightRule } from "./sightRule.js";
import type { SightingPool } from "./sightingPool.js";
import type { DirtyAreas } from "./dirtyAreas.js";
import type { VisionOptions, VisionTickReport } from "./types.js";

// Outcomes of phase 1 for one observer.
/** Nothing changed and something is in view: its results stand. */
const SCAN_FRESH = 0;
/** Nothing changed and nothing is in view. */
const SCAN_IDLE = 1;
/** Something changed but nothing is in view: settled to "sees nobody" without rays. */
const SCAN_SETTLED = 2;
/** Needs rays: queued. */
const SCAN_PENDING = 3;

/** Urgency of an observer that has a candidate in its cone it does not see yet (acquiring). */
const URGENCY_ACQUIRE = 2;
/** Urgency of an observer whose only candidates are targets it already sees (tracking). */
const URGENCY_TRACK = 1;

/** Runs the engine's ticks over the registry's observers. @internal */
export class Scheduler {
  private readonly queue = new PendingQueue();
  /** Most tree rays any single evaluation has cost so far (the C of the staleness bound). */
  private maxEvaluationRays = 1;
  private readonly backlog: number[] = [];
  private evalStamp = 0;
  private pairsThisTick = 0;
  private cacheHitsThisTick = 0;
  private stillBlockedThisTick = 0;
  // Scan state for the observer being scanned (phase 1 of a tick).
  private current: Observer | null = null;
  private scanChanged = false;
  private scanInView = 0;
  private scanUnseen = 0;
  private readonly visitScan = (t: Observable): void => {
    const o = this.current!;
    if (t.id === o.id) return;
    // Most observers see nobody: they skip the set lookup, and the widened cone only matters for targets seen.
    const wasVisible = o.visible.size > 0 && o.visible.has(t.id);
    const inView = this.rule.inView(o, t, wasVisible);
    // Only a candidate that is (or was) in view can change what this observer sees.
    if ((inView || wasVisible) && t.changedAt > o.freshAt) this.scanChanged = true;
    if (inView) {
      this.scanInView++;
      if (!wasVisible) this.scanUnseen++;
      o.candidates[o.candidateCount++] = t;
    }
  };

  /**
   * @param observerList the registry's observers, densely packed (`Observer.slot` indexes it); it changes
   * them, the scheduler reads them
   */
  constructor(
    private readonly observerList: readonly Observer[],
    private readonly observables: ReadonlyMap<string, Observable>,
    private readonly index: ObservableIndex,
    private readonly los: SightMedium,
    private readonly rule: SightRule,
    private readonly pool: SightingPool,
    private readonly dirtyAreas: DirtyAreas,
    private readonly options: Required<VisionOptions>,
  ) {}

  /** `VisionSystem.tick()` for tick number `now`, recording its rays when `record` (see its doc comment). */
  tick(now: number, record: boolean): VisionTickReport {
    this.los.refresh();
    const started = this.options.timeBudgetUs === Infinity ? 0 : performance.now();
    const raysBefore = this.los.segments;
    this.pairsThisTick = 0;
    this.cacheHitsThisTick = 0;
    this.stillBlockedThisTick = 0;
    const rule = this.rule;
    rule.recording = record;
    if (record) rule.rays!.clear();
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
    this.dirtyAreas.clear();

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
    rule.recording = false;

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

  /** `VisionSystem.stalenessBound()`: the formula and its terms are in that method's doc comment. */
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

  /** Phase 1 for one observer: is its last result still exact, settled without rays, or pending? */
  private scan(o: Observer, now: number): number {
    const reach = this.rule.queryReach(o);
    let dirty = o.dirty || o.changedAt > o.freshAt || this.dirtyAreas.overlap(o.x, o.y, reach);
    this.current = o;
    this.scanChanged = false;
    this.scanInView = 0;
    this.scanUnseen = 0;
    o.candidateCount = 0;
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
      this.pool.unseeAll(o);
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
          if (this.rule.hiddenBy(o, t, hint)) {
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
    const candidates = o.candidates;
    for (let i = 0; i < o.candidateCount; i++) this.rayTest(o, candidates[i]!, stamp);
    o.candidateCount = 0;
    o.freshAt = now;
    o.dirty = false;
    this.pool.sweep(o, stamp);
  }

  /** Rays for one in-view candidate during an evaluation; records the sighting. */
  private rayTest(o: Observer, t: Observable, stamp: number): void {
    this.pairsThisTick++;
    const wasVisible = o.visible.has(t.id);
    const useCache = this.options.blockerCache;
    if (this.rule.lineOfSight(o, t, useCache)) {
      t.seenStamp = stamp;
      if (!wasVisible) this.pool.see(o, t);
      if (useCache) o.blockers.delete(t);
    }
  }
}
