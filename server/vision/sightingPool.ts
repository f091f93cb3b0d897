/**
 * The sightings pool: who sees whom as of each observer's last evaluation, kept in step four ways (the
 * observer's `visible` ids, the target's `seenBy` ids, the observer's chain of {@link PairSighting}s and the
 * list of observers that see someone), with lost pairs' objects kept for reuse. Apart from the scheduler
 * and the registry, which both change pairs, so those four records have one keeper and stay consistent.
 */
import type { Sighting } from "./awareness/types.js";
import { wrapAngle } from "../../shared/math/angle.js";
import type { Observable } from "./observable.js";
import type { Observer } from "./observer.js";
import { PairSighting } from "./pairSighting.js";
import type { SightRule } from "./sightRule.js";

/** The pairs currently seen and the spare sighting objects. @internal */
export class SightingPool {
  /** Observers that currently see someone (`Observer.seeingSlot` indexes it): what `sightings()` walks. */
  private readonly seeing: Observer[] = [];
  /** Sightings of lost pairs, for reuse. */
  private readonly spareSightings: PairSighting[] = [];
  private readonly sightingList: Sighting[] = [];

  /** Records a pair just seen (the observer did not see the target before). */
  see(o: Observer, t: Observable): void {
    o.visible.add(t.id);
    t.seenBy.add(o.id);
    this.startSighting(o, t);
    if (o.visible.size === 1) this.updateSeeing(o);
  }

  /** Forgets one pair (the target is going away). */
  unsee(o: Observer, t: Observable): void {
    o.visible.delete(t.id);
    this.dropSighting(o, t);
    this.updateSeeing(o);
  }

  /** Forgets every pair of the observer: it sees nobody now. */
  unseeAll(o: Observer): void {
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

  /**
   * After an evaluation stamped `stamp`, sweeps the sightings it no longer has (including targets that
   * left the view, which needed no ray): those whose target's `seenStamp` is not `stamp`.
   */
  sweep(o: Observer, stamp: number): void {
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

  /** What `VisionSystem.sightings()` returns: every pair seen, measured now; see its doc comment. */
  sightings(rule: SightRule): readonly Sighting[] {
    const list = this.sightingList;
    let n = 0;
    for (const o of this.seeing) {
      // Without a proximity sense, everything it sees is in its cone: no test needed.
      const cone = o.proximityRadius <= 0 ? null : rule.seenCone(o);
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

  /** A sighting for a pair just seen, appended to the observer's chain (after the pairs it already sees). */
  private startSighting(o: Observer, t: Observable): void {
    const s = this.spareSightings.pop() ?? new PairSighting();
    s.observerId = o.id;
    s.targetId = t.id;
    s.target = t;
    s.observer = o;
    s.pool = this;
    s.checkedAt = -1;
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
    s.observer = null;
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
}
