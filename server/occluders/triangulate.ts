import type { Point as Vec } from "./point.js";

/**
 * Splits a simple polygon (convex or not, either winding) into triangles by ear clipping.
 * Why: planck builds a polygon fixture from the convex hull of its points, so a concave wall (an L, a U)
 * would silently fill its notch and block sight there. O(n^2), fine for level geometry loaded once.
 * Throws a RangeError for fewer than 3 distinct points or a degenerate (zero-area) polygon; its message
 * starts with `field`, the caller's name for the outline.
 */
export function triangulate(points: readonly Vec[], field: string): Vec[][] {
  const pts = dedupe(points);
  if (pts.length < 3) throw new RangeError(`${field}: a polygon needs at least 3 distinct points (got ${pts.length})`);
  const area = signedArea(pts);
  if (Math.abs(area) < 1e-12) throw new RangeError(`${field}: the polygon has no area (its points are collinear)`);
  // Work counter-clockwise (in a y-up reading of the coordinates) so "convex corner" means cross > 0.
  const ring = area > 0 ? pts.slice() : pts.slice().reverse();
  const triangles: Vec[][] = [];
  let guard = ring.length * ring.length;
  while (ring.length > 3 && guard-- > 0) {
    let clipped = false;
    for (let i = 0; i < ring.length; i++) {
      const a = ring[(i + ring.length - 1) % ring.length]!;
      const b = ring[i]!;
      const c = ring[(i + 1) % ring.length]!;
      if (cross(a, b, c) <= 1e-12) continue; // reflex or flat corner
      if (ring.some((p) => p !== a && p !== b && p !== c && inTriangle(p, a, b, c))) continue;
      triangles.push([a, b, c]);
      ring.splice(i, 1);
      clipped = true;
      break;
    }
    if (!clipped) {
      // Only collinear leftovers remain (or the polygon self-intersects): drop one flat corner and go on.
      const flat = ring.findIndex((b, i) => Math.abs(cross(ring[(i + ring.length - 1) % ring.length]!, b, ring[(i + 1) % ring.length]!)) <= 1e-12);
      if (flat < 0) throw new RangeError(`${field}: the polygon intersects itself`);
      ring.splice(flat, 1);
    }
  }
  if (ring.length === 3 && Math.abs(cross(ring[0]!, ring[1]!, ring[2]!)) > 1e-12) triangles.push([ring[0]!, ring[1]!, ring[2]!]);
  return triangles;
}

/** Twice the signed area (positive when counter-clockwise in a y-up reading). */
export function signedArea(pts: readonly Vec[]): number {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    const q = pts[(i + 1) % pts.length]!;
    a += p.x * q.y - q.x * p.y;
  }
  return a / 2;
}

function dedupe(points: readonly Vec[]): Vec[] {
  const out: Vec[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last === undefined || Math.abs(last.x - p.x) > 1e-9 || Math.abs(last.y - p.y) > 1e-9) out.push({ x: p.x, y: p.y });
  }
  while (out.length > 1 && Math.abs(out[0]!.x - out[out.length - 1]!.x) <= 1e-9 && Math.abs(out[0]!.y - out[out.length - 1]!.y) <= 1e-9) out.pop();
  return out;
}

function cross(a: Vec, b: Vec, c: Vec): number {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

function inTriangle(p: Vec, a: Vec, b: Vec, c: Vec): boolean {
  return cross(a, b, p) >= -1e-12 && cross(b, c, p) >= -1e-12 && cross(c, a, p) >= -1e-12;
}
