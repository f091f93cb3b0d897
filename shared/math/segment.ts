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
