/**
 * Whether a convex occluder hides a whole disc from a whole disc: the conservative "could it see soon"
 * test of anti-wallhack culling. The eye may be anywhere in disc A (the character's body plus how far it
 * can move before the client hears back), the target anywhere in disc B (its body plus its possible
 * motion); the occluder hides B from A only when EVERY segment from a point of A to a point of B crosses
 * it. Then no eye position in A can see any point of B, whichever way either moves inside its disc.
 *
 * The occluder is a rounded convex polygon: the convex hull of `count` vertices (xs, ys), grown by
 * `radius` (0 for a polygon or a segment; a circle is one vertex with its radius). Meters.
 *
 * Why it works: a segment misses a convex set iff a line separates them, and that line can be slid onto
 * the occluder as a supporting line. So the occluder blocks every segment iff for every unit direction u,
 * A or B lies entirely on the occluder's side of its supporting line: min(hA(u), hB(u)) <= hP(u), with h
 * the support functions (hA(u) = a.u + ra). The largest value of min(hA, hB) - hP over the circle of
 * directions is reached at one of a finite set of directions: where hP has a kink (the edge normals),
 * where one disc's term peaks against a vertex (the direction from that vertex to the disc's centre), or
 * where the two disc terms cross. Evaluating those is exact, allocation-free and about 0.1 us.
 *
 * `winding` (optional) is the sign of a polygon's signed area when known: only its outward edge normals
 * are then tried. Returns that largest value (meters): <= 0 means hidden, > 0 means some segment gets past, and `witness`
 * (if given) receives the direction u of the largest value: the segment from a + ra.u to b + rb.u then
 * misses the occluder.
 */
export function occlusionMargin(
  xs: ArrayLike<number>, ys: ArrayLike<number>, offset: number, count: number, radius: number,
  ax: number, ay: number, ra: number, bx: number, by: number, rb: number,
  witness?: { x: number; y: number }, winding = 0,
): number {
  const end = offset + count;
  // Any direction is a valid sample; this one keeps degenerate inputs (every centre on one vertex) defined.
  let best = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, 1, 0);
  let bestX = 1;
  let bestY = 0;
  for (let i = offset; i < end; i++) {
    const vx = xs[i]!;
    const vy = ys[i]!;
    // Kinks of hP: both normals of every hull edge (orientation-agnostic; a segment has one edge).
    if (count > 1) {
      const j = i + 1 < end ? i + 1 : offset;
      const ex = xs[j]! - vx;
      const ey = ys[j]! - vy;
      const el = Math.sqrt(ex * ex + ey * ey);
      if (el > 0) {
        // Only outward normals are kinks; `winding` (the sign of the signed area, 0 = unknown) says which.
        if (winding <= 0) {
          const g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, -ey / el, ex / el);
          if (g > best) { best = g; bestX = -ey / el; bestY = ex / el; }
        }
        if (winding >= 0) {
          const g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, ey / el, -ex / el);
          if (g > best) { best = g; bestX = ey / el; bestY = -ex / el; }
        }
      }
    }
    // Peaks of each disc term against this vertex.
    for (let k = 0; k < 2; k++) {
      const dx = (k === 0 ? ax : bx) - vx;
      const dy = (k === 0 ? ay : by) - vy;
      const dl = Math.sqrt(dx * dx + dy * dy);
      if (dl === 0) continue;
      const g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, dx / dl, dy / dl);
      if (g > best) { best = g; bestX = dx / dl; bestY = dy / dl; }
    }
  }
  // Where hA = hB: (a - b).u = rb - ra.
  const cx = ax - bx;
  const cy = ay - by;
  const cl = Math.sqrt(cx * cx + cy * cy);
  if (cl > 0) {
    const c = (rb - ra) / cl;
    if (c >= -1 && c <= 1) {
      const s = Math.sqrt(1 - c * c);
      const nx = cx / cl;
      const ny = cy / cl;
      for (let k = -1; k <= 1; k += 2) {
        const ux = c * nx - k * s * ny;
        const uy = c * ny + k * s * nx;
        const g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, ux, uy);
        if (g > best) { best = g; bestX = ux; bestY = uy; }
      }
    }
  }
  if (witness !== undefined) {
    witness.x = bestX;
    witness.y = bestY;
  }
  return best;
}

/** min(hA(u), hB(u)) - hP(u) for one unit direction (ux, uy). */
function marginAt(
  xs: ArrayLike<number>, ys: ArrayLike<number>, offset: number, end: number, radius: number,
  ax: number, ay: number, ra: number, bx: number, by: number, rb: number, ux: number, uy: number,
): number {
  let hp = -Infinity;
  for (let i = offset; i < end; i++) {
    const h = xs[i]! * ux + ys[i]! * uy;
    if (h > hp) hp = h;
  }
  const ha = ax * ux + ay * uy + ra;
  const hb = bx * ux + by * uy + rb;
  return (ha < hb ? ha : hb) - hp - radius;
}

/**
 * The same verdict as `occlusionMargin(...) < threshold`, faster: it stops at the first direction that
 * gets past, trying first the directions most likely to (where the two disc terms cross: the lines
 * touching both discs), and for a polygon wound consistently it skips inward edge normals. `winding` is
 * the sign of the polygon's signed area (+1 or -1; 0 when unknown or for a segment or circle: both
 * normals are tried). The hot path of culling; `occlusionMargin` stays the reference it is tested against.
 */
export function occludes(
  xs: ArrayLike<number>, ys: ArrayLike<number>, offset: number, count: number, radius: number, winding: number,
  ax: number, ay: number, ra: number, bx: number, by: number, rb: number, threshold: number,
): boolean {
  return occlusionClearance(xs, ys, offset, count, radius, winding, ax, ay, ra, bx, by, rb, threshold) < threshold;
}

/**
 * `occludes`, telling by how much it does not: the value (meters) of the first direction that gets past,
 * a lower bound on `occlusionMargin` that is >= `threshold`; or -Infinity when the occluder hides B from
 * A (no direction gets past). Culling uses the bound as a travel allowance: the margin is 1-Lipschitz in
 * the centres, so the pair stays unhidden by this occluder until the centres have moved that much (less `threshold`).
 */
export function occlusionClearance(
  xs: ArrayLike<number>, ys: ArrayLike<number>, offset: number, count: number, radius: number, winding: number,
  ax: number, ay: number, ra: number, bx: number, by: number, rb: number, threshold: number,
): number {
  const end = offset + count;
  const cx = ax - bx;
  const cy = ay - by;
  const cl = Math.sqrt(cx * cx + cy * cy);
  let g: number;
  if (cl > 0) {
    const c = (rb - ra) / cl;
    if (c >= -1 && c <= 1) {
      const s = Math.sqrt(1 - c * c);
      const nx = cx / cl;
      const ny = cy / cl;
      if ((g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, c * nx + s * ny, c * ny - s * nx)) >= threshold) return g;
      if ((g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, c * nx - s * ny, c * ny + s * nx)) >= threshold) return g;
    }
  }
  for (let i = offset; i < end; i++) {
    const vx = xs[i]!;
    const vy = ys[i]!;
    let dx = ax - vx;
    let dy = ay - vy;
    let dl = Math.sqrt(dx * dx + dy * dy);
    if (dl > 0 && (g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, dx / dl, dy / dl)) >= threshold) return g;
    dx = bx - vx;
    dy = by - vy;
    dl = Math.sqrt(dx * dx + dy * dy);
    if (dl > 0 && (g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, dx / dl, dy / dl)) >= threshold) return g;
    if (count > 1) {
      const j = i + 1 < end ? i + 1 : offset;
      const ex = xs[j]! - vx;
      const ey = ys[j]! - vy;
      const el = Math.sqrt(ex * ex + ey * ey);
      if (el > 0) {
        // Outward normal of a counter-clockwise (positive area) outline: (ey, -ex).
        if (winding >= 0 && (g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, ey / el, -ex / el)) >= threshold) return g;
        if (winding <= 0 && (g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, -ey / el, ex / el)) >= threshold) return g;
      }
    }
  }
  g = marginAt(xs, ys, offset, end, radius, ax, ay, ra, bx, by, rb, 1, 0);
  return g >= threshold ? g : -Infinity;
}
