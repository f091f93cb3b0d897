/**
 * Squared distance from point (px, py) to the segment that starts at (ax, ay) and runs `length` meters
 * along the unit direction (ux, uy). `length` may be Infinity (a ray).
 */
export function distanceSqToSegment(
  px: number, py: number,
  ax: number, ay: number, ux: number, uy: number, length: number,
): number {
  const vx = px - ax;
  const vy = py - ay;
  let t = vx * ux + vy * uy;
  if (t < 0) t = 0;
  else if (t > length) t = length;
  const ex = vx - t * ux;
  const ey = vy - t * uy;
  return ex * ex + ey * ey;
}

/**
 * Whether the projections on the axis (ax, ay) of a polygon (its vertices at `start .. start + n` of `xs`,
 * `ys`) and of the segment (x1, y1)-(x2, y2) overlap, closed intervals with a little slack: one axis of a
 * separating-axis test.
 */
export function overlapOnAxis(
  xs: Float64Array, ys: Float64Array, start: number, n: number, ax: number, ay: number,
  x1: number, y1: number, x2: number, y2: number,
): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = start; i < start + n; i++) {
    const p = xs[i]! * ax + ys[i]! * ay;
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  const p1 = x1 * ax + y1 * ay;
  const p2 = x2 * ax + y2 * ay;
  const eps = 1e-9 * (Math.abs(lo) + Math.abs(hi) + 1);
  return Math.max(p1, p2) >= lo - eps && Math.min(p1, p2) <= hi + eps;
}
