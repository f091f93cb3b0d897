/**
 * Box2D's segment casts against the three convex shapes sight rays meet: each returns the fraction of
 * the segment (x1, y1) + t (dx, dy), t in [0, maxFraction], at which it first enters the shape, or
 * {@link MISS}. A segment that starts inside a polygon or a circle does not hit it (an eye inside its own
 * body sees out); segments are two-sided. Allocation-free.
 */

/** No hit. */
export const MISS = -1;

/** A point or a direction, as planck keeps a polygon's vertices and normals. */
export interface XY {
  readonly x: number;
  readonly y: number;
}

/**
 * A convex polygon of `count` vertices, counter-clockwise, with the outward unit normal of each edge
 * (from vertex i to i + 1). Any frame, as long as the segment is given in the same one.
 */
export function castConvexPolygon(
  vertices: readonly XY[], normals: readonly XY[], count: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  let lower = 0;
  let upper = maxFraction;
  let hit = false;
  for (let i = 0; i < count; i++) {
    const n = normals[i]!;
    const v = vertices[i]!;
    const numerator = n.x * (v.x - x1) + n.y * (v.y - y1);
    const denominator = n.x * dx + n.y * dy;
    if (denominator === 0) {
      if (numerator < 0) return MISS;
    } else if (denominator < 0 && numerator < lower * denominator) {
      lower = numerator / denominator;
      hit = true;
    } else if (denominator > 0 && numerator < upper * denominator) {
      upper = numerator / denominator;
    }
    if (upper < lower) return MISS;
  }
  return hit ? lower : MISS;
}

/**
 * {@link castConvexPolygon} over one flat array: vertex i of the polygon and the outward unit normal of
 * the edge it starts, as (x, y, nx, ny) at `4 * (start + i)` of `edges`. The same arithmetic in the same
 * order, so the same answer to the bit; packed snapshots read it because a polygon's few numbers side by
 * side stay in a cache line or two, where its point objects, one per vertex and normal, are scattered.
 */
export function castConvexPolygonAt(
  edges: Float64Array, start: number, count: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  let lower = 0;
  let upper = maxFraction;
  let hit = false;
  for (let e = 4 * start; e < 4 * (start + count); e += 4) {
    const nx = edges[e + 2]!;
    const ny = edges[e + 3]!;
    const numerator = nx * (edges[e]! - x1) + ny * (edges[e + 1]! - y1);
    const denominator = nx * dx + ny * dy;
    if (denominator === 0) {
      if (numerator < 0) return MISS;
    } else if (denominator < 0 && numerator < lower * denominator) {
      lower = numerator / denominator;
      hit = true;
    } else if (denominator > 0 && numerator < upper * denominator) {
      upper = numerator / denominator;
    }
    if (upper < lower) return MISS;
  }
  return hit ? lower : MISS;
}

/** A circle of centre (cx, cy). */
export function castCircle(
  cx: number, cy: number, radius: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  const sx = x1 - cx;
  const sy = y1 - cy;
  const b = sx * sx + sy * sy - radius * radius;
  const cc = sx * dx + sy * dy;
  const rr = dx * dx + dy * dy;
  const sigma = cc * cc - rr * b;
  if (sigma < 0 || rr < Number.EPSILON) return MISS;
  const a = -(cc + Math.sqrt(sigma));
  if (a >= 0 && a <= maxFraction * rr) return a / rr;
  return MISS;
}

/**
 * A disc of fog (a smoke cloud): unlike a solid circle, a ray that starts inside it is blocked at once (0),
 * so an eye in the smoke sees nothing out of it; from outside, the fraction where the ray enters the open
 * disc (a ray that only grazes its edge passes).
 */
export function castFog(
  cx: number, cy: number, radius: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  const sx = x1 - cx;
  const sy = y1 - cy;
  const b = sx * sx + sy * sy - radius * radius;
  if (b < 0) return 0;
  const cc = sx * dx + sy * dy;
  const rr = dx * dx + dy * dy;
  const sigma = cc * cc - rr * b;
  if (sigma <= 0 || rr < Number.EPSILON) return MISS;
  const a = -(cc + Math.sqrt(sigma));
  if (a >= 0 && a < maxFraction * rr) return a / rr;
  return MISS;
}

/** A two-sided segment from (ax, ay) to (bx, by). */
export function castEdge(
  ax: number, ay: number, bx: number, by: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  const ex = bx - ax;
  const ey = by - ay;
  const len = Math.sqrt(ex * ex + ey * ey);
  if (len === 0) return MISS;
  const nx = ey / len;
  const ny = -ex / len;
  const numerator = nx * (ax - x1) + ny * (ay - y1);
  const denominator = nx * dx + ny * dy;
  if (denominator === 0) return MISS;
  const t = numerator / denominator;
  if (t < 0 || maxFraction < t) return MISS;
  const qx = x1 + t * dx - ax;
  const qy = y1 + t * dy - ay;
  const s = (qx * ex + qy * ey) / (len * len);
  if (s < 0 || s > 1) return MISS;
  return t;
}

/** Exact slab test: does the segment, clipped to [0, maxFraction], touch the closed box? */
export function segmentTouchesBox(
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
  minX: number, minY: number, maxX: number, maxY: number,
): boolean {
  let tMin = 0;
  let tMax = maxFraction;
  if (dx === 0) {
    if (x1 < minX || x1 > maxX) return false;
  } else {
    let a = (minX - x1) / dx;
    let b = (maxX - x1) / dx;
    if (a > b) { const s = a; a = b; b = s; }
    if (a > tMin) tMin = a;
    if (b < tMax) tMax = b;
    if (tMin > tMax) return false;
  }
  if (dy === 0) {
    if (y1 < minY || y1 > maxY) return false;
  } else {
    let a = (minY - y1) / dy;
    let b = (maxY - y1) / dy;
    if (a > b) { const s = a; a = b; b = s; }
    if (a > tMin) tMin = a;
    if (b < tMax) tMax = b;
    if (tMin > tMax) return false;
  }
  return true;
}

/**
 * {@link segmentTouchesBox} with the segment's inverse direction (`1 / dx`, `1 / dy`) given: a slab test of
 * multiplications, for a ray tested against many boxes (one division per ray, not four per box). The
 * products may round otherwise than the quotients: a caller that must not miss a box it only grazes
 * widens it.
 */
export function segmentTouchesBoxBy(
  x1: number, y1: number, dx: number, dy: number, invDx: number, invDy: number, maxFraction: number,
  minX: number, minY: number, maxX: number, maxY: number,
): boolean {
  let tMin = 0;
  let tMax = maxFraction;
  if (dx === 0) {
    if (x1 < minX || x1 > maxX) return false;
  } else {
    const a = (minX - x1) * invDx;
    const b = (maxX - x1) * invDx;
    tMin = Math.max(tMin, Math.min(a, b));
    tMax = Math.min(tMax, Math.max(a, b));
    if (tMin > tMax) return false;
  }
  if (dy === 0) return y1 >= minY && y1 <= maxY;
  const a = (minY - y1) * invDy;
  const b = (maxY - y1) * invDy;
  return Math.max(tMin, Math.min(a, b)) <= Math.min(tMax, Math.max(a, b));
}

/**
 * The outward unit normal of each edge (vertex i to i + 1) of a counter-clockwise outline: x of every
 * edge, then y of every edge.
 */
export function outwardNormals(xs: readonly number[], ys: readonly number[]): Float64Array {
  const m = xs.length;
  const out = new Float64Array(2 * m);
  for (let i = 0; i < m; i++) {
    const j = i + 1 < m ? i + 1 : 0;
    const ex = xs[j]! - xs[i]!;
    const ey = ys[j]! - ys[i]!;
    const len = Math.hypot(ex, ey);
    out[i] = ey / len;
    out[m + i] = -ex / len;
  }
  return out;
}
