/** Output of {@link silhouettePoints}: the two points, written in place. */
export interface SilhouetteOut {
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

/**
 * The two points where the tangents from the eye (ex, ey) touch the circle (cx, cy, radius), moved
 * `inset` (a fraction of the radius, 0 = on the circle) toward the centre. They bound what the eye
 * can see of the circle: its silhouette. Writes into `out` and returns true; returns false (and leaves
 * `out` alone) when the eye is inside or on the circle, where no tangent exists. Meters.
 */
export function silhouettePoints(
  ex: number, ey: number, cx: number, cy: number, radius: number, inset: number, out: SilhouetteOut,
): boolean {
  const dx = ex - cx;
  const dy = ey - cy;
  const dSq = dx * dx + dy * dy;
  const rSq = radius * radius;
  if (dSq <= rSq) return false;
  // Tangent point T = C + r * (cos(a) * w + sin(a) * w_perp), w the unit vector from C to the eye and
  // cos(a) = r / d; scaled here by (1 - inset) to pull it inside the body.
  const d = Math.sqrt(dSq);
  const k = radius * (1 - inset) / d;
  const cosA = radius / d;
  const sinA = Math.sqrt(1 - cosA * cosA);
  const along = k * cosA;
  const across = k * sinA;
  out.ax = cx + along * dx - across * dy;
  out.ay = cy + along * dy + across * dx;
  out.bx = cx + along * dx + across * dy;
  out.by = cy + along * dy - across * dx;
  return true;
}
