import { distanceSqToSegment } from "./segment.js";

/** Relative tolerance of the angular test, so "touching counts" survives rounding on irrational edges. */
const EDGE_SLACK = 1e-12;

/**
 * A circular sector (a vision cone): apex, facing, half-angle and radius, with the trigonometry
 * precomputed so that testing many circles against one cone costs no `atan2`, `sin` or `cos`.
 *
 * Mutable on purpose: an observer owns one and re-`set`s it when it moves, so the hot path allocates
 * nothing.
 */
export class Sector {
  /** Apex, meters. */
  x = 0;
  y = 0;
  /** Facing as an angle, radians (0 = +x, counter-clockwise positive). */
  facing = 0;
  /** Half of the full cone angle, radians, clamped to [0, PI]. PI means a full disc. */
  halfAngle = Math.PI;
  /** Radius, meters; may be Infinity. */
  range = Infinity;

  /** Unit facing vector. */
  dirX = 1;
  dirY = 0;
  /** cos(halfAngle) and sin(halfAngle). */
  cosHalf = -1;
  sinHalf = 0;
  /** Unit vectors along the two straight edges (facing rotated by +halfAngle and -halfAngle). */
  leftX = -1;
  leftY = 0;
  rightX = -1;
  rightY = 0;

  /**
   * @param fullAngle the FULL cone angle in radians; `>= 2*PI` means all around.
   */
  set(x: number, y: number, facing: number, fullAngle: number, range: number): this {
    this.x = x;
    this.y = y;
    const half = fullAngle >= 2 * Math.PI ? Math.PI : fullAngle * 0.5;
    if (half !== this.halfAngle) {
      this.halfAngle = half;
      this.cosHalf = Math.cos(half);
      this.sinHalf = Math.sin(half);
      this.facing = NaN; // force the edges to be recomputed below
    }
    if (facing !== this.facing) {
      this.facing = facing;
      const c = Math.cos(facing);
      const s = Math.sin(facing);
      const ch = this.cosHalf;
      const sh = this.sinHalf;
      this.dirX = c;
      this.dirY = s;
      this.leftX = c * ch - s * sh;
      this.leftY = s * ch + c * sh;
      this.rightX = c * ch + s * sh;
      this.rightY = s * ch - c * sh;
    }
    this.range = range;
    return this;
  }

  /** True when the full disc is covered (no straight edges). */
  get isFull(): boolean {
    return this.halfAngle >= Math.PI;
  }

  /**
   * True when the point lies in the angular span of the cone (ignoring range). The apex counts.
   */
  containsDirection(px: number, py: number): boolean {
    if (this.halfAngle >= Math.PI) return true;
    const vx = px - this.x;
    const vy = py - this.y;
    const along = vx * this.dirX + vy * this.dirY;
    const lenSq = vx * vx + vy * vy;
    // along >= |v| cos(half), without a square root when the signs settle it. The 1e-12 relative slack
    // keeps points exactly on an edge inside (cos^2(45 deg) rounds up, which would push them out).
    const edge = lenSq * this.cosHalf * this.cosHalf;
    if (this.cosHalf >= 0) return along >= 0 && along * along >= edge * (1 - EDGE_SLACK);
    return along >= 0 || along * along <= edge * (1 + EDGE_SLACK);
  }

  /**
   * Exact test: does the circle (px, py, radius) share a point with this sector? True when its centre
   * lies inside the sector, or the circle crosses either straight edge or the arc. Touching counts.
   */
  intersectsCircle(px: number, py: number, radius: number): boolean {
    const vx = px - this.x;
    const vy = py - this.y;
    const range = this.range;
    if (range !== Infinity) {
      const reach = range + radius;
      if (vx * vx + vy * vy > reach * reach) return false;
    }
    // Centre within the angular span: the nearest sector point is along the centre's own direction,
    // so the circle meets the sector iff it reaches the disc of radius `range` (checked above).
    if (this.containsDirection(px, py)) return true;
    // Otherwise the nearest sector point lies on one of the straight edges (the arc's endpoints
    // are the edges' far ends).
    const rSq = radius * radius;
    return (
      distanceSqToSegment(px, py, this.x, this.y, this.leftX, this.leftY, range) <= rSq ||
      distanceSqToSegment(px, py, this.x, this.y, this.rightX, this.rightY, range) <= rSq
    );
  }
}

const scratch = new Sector();

/**
 * Exact circle vs sector test without keeping a `Sector` around (allocation-free: uses a module
 * scratch sector). Meters and radians; `fullAngle` is the FULL cone angle, `>= 2*PI` means all around.
 */
export function circleIntersectsSector(
  px: number, py: number, radius: number,
  apexX: number, apexY: number, facing: number, fullAngle: number, range: number,
): boolean {
  return scratch.set(apexX, apexY, facing, fullAngle, range).intersectsCircle(px, py, radius);
}
