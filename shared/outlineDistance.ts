/**
 * How far the point (x, y) is from a simple polygon's area, meters: 0 inside or on it, else the distance
 * to its nearest edge. The demo's rule for doors, on the server and in the viewer alike: who is in a
 * doorway, and who stands close enough (`DOOR_REACH`) to open or shut a door. Browser-safe: no imports.
 */
export function distanceToOutline(outline: readonly { x: number; y: number }[], x: number, y: number): number {
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const a = outline[j]!;
    const b = outline[i]!;
    if ((b.y > y) !== (a.y > y) && x < ((a.x - b.x) * (y - b.y)) / (a.y - b.y) + b.x) inside = !inside;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const len2 = ex * ex + ey * ey;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - a.x) * ex + (y - a.y) * ey) / len2));
    const d = Math.hypot(a.x + t * ex - x, a.y + t * ey - y);
    if (d < best) best = d;
  }
  return inside ? 0 : best;
}
