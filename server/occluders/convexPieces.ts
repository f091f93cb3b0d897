import { signedArea, triangulate } from "./triangulate.js";
import type { Point } from "./point.js";
import { fail, finite, object } from "../../shared/validation/rangeChecks.js";

/**
 * Outlines with more vertices than this are triangulated even when convex. planck accepts 12 per polygon;
 * 8 keeps pieces small, so a sight ray's box test rejects more of them.
 */
export const MAX_PIECE_VERTICES = 8;

/**
 * Splits a simple polygon (convex or concave, either winding; meters) into convex pieces that cover
 * exactly its area: the polygon itself when it is convex with at most {@link MAX_PIECE_VERTICES} points,
 * else its triangles (ear clipping). Use it for physics fixtures too, so bodies and sight agree: planck,
 * like Box2D, replaces a concave outline with its convex hull, which fills an L-shaped wall's notch.
 * @throws RangeError for fewer than 3 distinct points, no area, or a polygon that crosses itself
 */
export function convexPieces(outline: readonly Point[]): Point[][] {
  return piecesOf(outline, "convexPieces outline");
}

/** {@link convexPieces}, with `field` naming the outline in error messages. @internal */
export function piecesOf(outline: readonly Point[], field: string): Point[][] {
  if (!Array.isArray(outline)) fail(field, "must be an array of {x, y} points in meters", outline);
  for (let i = 0; i < outline.length; i++) {
    const p = object<Point>(`${field}[${i}]`, outline[i], "{x, y} in meters");
    finite(`${field}[${i}].x`, p.x, "meters");
    finite(`${field}[${i}].y`, p.y, "meters");
  }
  if (outline.length <= MAX_PIECE_VERTICES && isConvex(outline)) return [outline.map((p) => ({ x: p.x, y: p.y }))];
  return triangulate(outline, field);
}

/** Strictly convex or with flat corners, with a positive area; either winding. */
export function isConvex(pts: readonly Point[]): boolean {
  if (pts.length < 3 || Math.abs(signedArea(pts)) < 1e-12) return false;
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % pts.length]!;
    const c = pts[(i + 2) % pts.length]!;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(cross) < 1e-12) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}
