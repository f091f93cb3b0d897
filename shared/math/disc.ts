/**
 * True when the circle (cx, cy, radius) and the disc (dx, dy, discRadius) share at least one point.
 * Touching counts. `discRadius` may be Infinity. Meters.
 */
export function circleIntersectsDisc(
  cx: number, cy: number, radius: number,
  dx: number, dy: number, discRadius: number,
): boolean {
  if (discRadius === Infinity) return true;
  const ex = cx - dx;
  const ey = cy - dy;
  const reach = radius + discRadius;
  return ex * ex + ey * ey <= reach * reach;
}
