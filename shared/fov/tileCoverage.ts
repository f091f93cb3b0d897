import type { Point } from "./rasterizeOpacity.js";

/**
 * The one rule for when a tile of an opacity grid blocks sight, for every shape that can cover it: a tile
 * is opaque when an opaque shape covers more than {@link OPAQUE_AREA_SHARE} of its area (a polygon, a
 * circle), or, for a wall with no thickness (a segment), when the segment runs through the tile's inside.
 * So a wall thinner than a tile still makes the tiles it crosses opaque, and an edge lying on a tile
 * boundary does not spill into the next tile. `rasterizeOpacity` and `OccluderOpacity` both apply it.
 */

/**
 * Share of a tile's area an outline must cover for the tile to count as opaque. Only there to absorb
 * rounding: an outline that merely touches a tile along its edge covers no area and leaves it clear.
 */
export const OPAQUE_AREA_SHARE = 1e-6;

/** Whether covering `area` of a tile of `tileArea` (both square meters) makes it opaque. @internal */
export function coversTile(area: number, tileArea: number): boolean {
  return area > OPAQUE_AREA_SHARE * tileArea;
}

/**
 * Area (square meters) of the disc of centre (cx, cy) and radius r inside the box [x0, x1] x [y0, y1],
 * exactly: the area below and left of each corner, combined. @internal
 */
export function discBoxArea(cx: number, cy: number, r: number, x0: number, y0: number, x1: number, y1: number): number {
  if (r <= 0) return 0;
  const area = cornerArea(x1 - cx, y1 - cy, r) - cornerArea(x0 - cx, y1 - cy, r) - cornerArea(x1 - cx, y0 - cy, r) + cornerArea(x0 - cx, y0 - cy, r);
  return area > 0 ? area : 0;
}

/** The antiderivative over X of the disc's chord 2 sqrt(r^2 - X^2), for |X| <= r. */
function chordIntegral(X: number, r: number): number {
  const u = X / r;
  return X * Math.sqrt(Math.max(0, r * r - X * X)) + r * r * Math.asin(u < -1 ? -1 : u > 1 ? 1 : u);
}

/** The integral over X in [from, min(to, right)] of the part of the chord below y, when that part is y + h(X). */
function lowerSpan(from: number, to: number, right: number, y: number, r: number): number {
  const hi = to < right ? to : right;
  return hi > from ? y * (hi - from) + (chordIntegral(hi, r) - chordIntegral(from, r)) / 2 : 0;
}

/** The integral over X in [from, min(to, right)] of the whole chord. */
function chordSpan(from: number, to: number, right: number, r: number): number {
  const hi = to < right ? to : right;
  return hi > from ? chordIntegral(hi, r) - chordIntegral(from, r) : 0;
}

/** Area of the disc of radius r at the origin with X <= x and Y <= y. */
function cornerArea(x: number, y: number, r: number): number {
  if (x <= -r || y <= -r) return 0;
  const right = x < r ? x : r;
  if (y >= r) return chordSpan(-r, r, right, r);
  // Where the chord reaches y: |X| < s has h > |y|.
  const s = Math.sqrt(r * r - y * y);
  if (y < 0) return lowerSpan(-s, s, right, y, r);
  return chordSpan(-r, -s, right, r) + lowerSpan(-s, s, right, y, r) + chordSpan(s, r, right, r);
}

/**
 * Whether the segment (ax, ay)-(bx, by) runs through the inside of the box [x0, x1] x [y0, y1] (a part of
 * positive length strictly inside it). @internal
 */
export function segmentCrossesTile(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q > 0;
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  if (!clip(-dx, ax - x0) || !clip(dx, x1 - ax) || !clip(-dy, ay - y0) || !clip(dy, y1 - ay) || t1 <= t0) return false;
  const mx = ax + dx * (t0 + t1) / 2;
  const my = ay + dy * (t0 + t1) / 2;
  return mx > x0 && mx < x1 && my > y0 && my < y1;
}

/**
 * Area of a polygon inside an axis-aligned box: Sutherland-Hodgman clipping against the box's four
 * sides (right for concave polygons too, as far as the area goes), then the shoelace formula.
 * Keeps two scratch buffers of coordinates between calls.
 * @internal
 */
export class TileClipper {
  private a: number[] = [];
  private b: number[] = [];

  overlapArea(outline: readonly Point[], x0: number, y0: number, x1: number, y1: number): number {
    let src = this.a;
    src.length = 0;
    for (const p of outline) src.push(p.x, p.y);
    let dst = this.b;
    // Each side keeps points with sign * coordinate >= sign * bound: x >= x0, x <= x1, y >= y0, y <= y1.
    for (let side = 0; side < 4 && src.length > 0; side++) {
      const axis = side < 2 ? 0 : 1;
      const sign = side % 2 === 0 ? 1 : -1;
      const bound = side === 0 ? x0 : side === 1 ? x1 : side === 2 ? y0 : y1;
      dst.length = 0;
      const n = src.length / 2;
      for (let i = 0; i < n; i++) {
        const px = src[2 * i]!;
        const py = src[2 * i + 1]!;
        const j = (i + 1) % n;
        const qx = src[2 * j]!;
        const qy = src[2 * j + 1]!;
        const pIn = sign * ((axis === 0 ? px : py) - bound) >= 0;
        const qIn = sign * ((axis === 0 ? qx : qy) - bound) >= 0;
        if (pIn) dst.push(px, py);
        if (pIn !== qIn) {
          const pv = axis === 0 ? px : py;
          const qv = axis === 0 ? qx : qy;
          const t = (bound - pv) / (qv - pv);
          dst.push(axis === 0 ? bound : px + t * (qx - px), axis === 0 ? py + t * (qy - py) : bound);
        }
      }
      const swap = src;
      src = dst;
      dst = swap;
    }
    let twice = 0;
    const n = src.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      twice += src[2 * i]! * src[2 * j + 1]! - src[2 * j]! * src[2 * i + 1]!;
    }
    return Math.abs(twice) / 2;
  }
}
