/**
 * The sight rule for one (observer, target) pair: range and cone (or the proximity sense), with the lose
 * margins for a target already seen, then k-of-n rays to the target's centre and silhouette, ending on its
 * body, helped by the pair's cached blocker. Apart from the scheduler, which decides when a pair is asked,
 * and from the facade, whose `check` asks it without anything remembered: one home for what "sees" means.
 */
import { silhouettePoints, type SilhouetteOut } from "../../shared/math/tangent.js";
import type { Sector } from "../../shared/math/sector.js";
import type { Blocker, SightMedium } from "./sightMedium.js";
import type { Observable } from "./observable.js";
import { Observer } from "./observer.js";
import type { Pose } from "./awareness/types.js";
import type { RayLog } from "./rayLog.js";
import type { VisionOptions } from "./types.js";

/** Silhouette samples sit this fraction of the radius inside the body, so a ray grazing the rim counts. */
const SILHOUETTE_INSET = 0.1;

/** Answers the sight rule for one pair at a time, allocation-free. @internal */
export class SightRule {
  // Read for every candidate of every observer every tick: kept as plain fields.
  readonly loseRangeMargin: number;
  readonly loseAngleMargin: number;
  readonly hysteresis: boolean;
  /** Where rays are recorded; created the first time recording is switched on. */
  rays: RayLog | null = null;
  /** Whether rays are being recorded into `rays` (only inside a tick with recording on). */
  recording = false;

  // Per-evaluation scratch, so the hot path allocates nothing.
  private readonly silhouette: SilhouetteOut = { ax: 0, ay: 0, bx: 0, by: 0 };
  private readonly sample = { x: 0, y: 0 };
  /** Whether the sight ray being cast may consult the pair's cached blocker (never for `check`). */
  private cacheAllowed = false;
  /** An observer put where another one was shown (for {@link seesFrom}); never registered. */
  private readonly elsewhere = new Observer("(elsewhere)");

  constructor(private readonly los: SightMedium, options: Required<VisionOptions>) {
    this.loseRangeMargin = options.loseRangeMargin;
    this.loseAngleMargin = options.loseAngleMargin;
    this.hysteresis = this.loseRangeMargin > 0 || this.loseAngleMargin > 0;
  }

  /** How far candidate queries look: the widest sense, widened by the lose margin for seen targets. */
  queryReach(o: Observer): number {
    const reach = o.reach;
    return o.visible.size > 0 ? reach * (1 + this.loseRangeMargin) : reach;
  }

  /** The cone a target the observer already sees is judged against: widened by the lose margins. */
  seenCone(o: Observer): Sector {
    return this.hysteresis ? o.lose(this.loseRangeMargin, this.loseAngleMargin) : o.sector;
  }

  /**
   * The geometric half of the sight rule: range and cone, or the proximity sense. A target the observer
   * already sees is judged against the cone widened by the lose margins (hysteresis).
   */
  inView(o: Observer, t: Observable, wasVisible: boolean): boolean {
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
  sees(o: Observer, t: Observable): boolean {
    if (!this.inView(o, t, false)) return false;
    return this.lineOfSight(o, t, false);
  }

  /**
   * {@link sees} for observer `o` as if it stood at `pose` (where a client was shown it): its range, cone and
   * senses from there, the target where it is now.
   */
  seesFrom(o: Observer, t: Observable, pose: Pose): boolean {
    const g = this.elsewhere;
    g.range = o.range;
    g.fov = o.fov;
    g.proximityRadius = o.proximityRadius;
    g.body = o.body;
    g.x = pose.x;
    g.y = pose.y;
    g.facing = pose.facing;
    g.syncSector();
    return this.sees(g, t);
  }

  /**
   * k-of-n rays to the centre and the silhouette; stops as soon as the outcome is settled. With
   * `useCache`, each ray tries the pair's last blocker first and a blocked ray remembers its blocker.
   */
  lineOfSight(o: Observer, t: Observable, useCache: boolean): boolean {
    this.cacheAllowed = useCache;
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

  /** True when `fixture` alone blocks more than `samples - required` of the pair's sample rays. */
  hiddenBy(o: Observer, t: Observable, fixture: Blocker): boolean {
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
}
