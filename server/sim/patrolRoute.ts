import type { Waypoint } from "./navGrid.js";

/**
 * Where a guard is along its patrol: a closed route is walked round and round, an open one back and
 * forth (turning at each end). A route of fewer than two points is a post to stand at.
 */
export class PatrolRoute {
  /** Index of the route point being walked to. */
  private target = 0;
  private direction = 1;

  /**
   * @param points route points, meters (copied)
   * @param loop true for a closed route (polygon), false to walk back and forth (polyline)
   */
  constructor(points: readonly Waypoint[], readonly loop: boolean) {
    this.points = points.map((p) => ({ x: p.x, y: p.y }));
  }

  readonly points: readonly Waypoint[];

  /** The route point being walked to (undefined for an empty route). */
  get current(): Waypoint | undefined {
    return this.points[this.target];
  }

  /** True when the route is a single post or empty: nothing to walk. */
  get stationary(): boolean {
    return this.points.length < 2;
  }

  /**
   * Moves on to the next route point after arriving at the current one. Returns true when the guard just
   * reached an end of an open route (a moment to pause and turn round).
   */
  advance(): boolean {
    const n = this.points.length;
    if (n < 2) return false;
    if (this.loop) {
      this.target = (this.target + 1) % n;
      return false;
    }
    let next = this.target + this.direction;
    let atEnd = false;
    if (next < 0 || next >= n) {
      this.direction = -this.direction;
      next = this.target + this.direction;
      atEnd = true;
    }
    this.target = next;
    return atEnd;
  }

  /** Resumes at the route point nearest to (x, y), meters: where a guard rejoins after a chase. */
  rejoinNearest(x: number, y: number): Waypoint | undefined {
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < this.points.length; i++) {
      const p = this.points[i]!;
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best >= 0) this.target = best;
    return this.points[best];
  }
}
