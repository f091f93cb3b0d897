/**
 * One convex piece of an occluder, in world meters: a polygon (3 or more vertices, counter-clockwise), a
 * segment (2) or a circle (1 vertex and a radius). Its identity is stable while it exists, so a sight
 * engine may remember "this piece hid that target" across changes to the rest of the set.
 * @internal
 */
export class OccluderPiece {
  /** Index in the current packed snapshot, or -1 once removed and compacted away. */
  index = -1;
  /** Whether it blocks sight now: false for an open door, a smoke too thin to block, a removed piece. */
  active = true;
  /** Removed from its `Occluders` for good (it may keep its index until the set is compacted). */
  removed = false;
  /** Circle radius now, meters (a smoke cloud grows); 0 for polygons and segments. */
  radius: number;
  /**
   * A circle of fog (a smoke cloud) rather than a solid one: sight through any part of it is blocked,
   * so an eye inside it sees nothing out of it (an eye inside a solid piece, where no body should be,
   * sees out, as sight rays do).
   */
  fog = false;
  /**
   * A polygon's outward unit edge normals as packed snapshots read them (x of every edge, then y), made
   * by the first one.
   */
  normals: Float64Array | null = null;

  constructor(
    /** The occluder (the id `add*` returned) this piece belongs to. */
    readonly owner: number,
    readonly xs: readonly number[],
    readonly ys: readonly number[],
    radius: number,
    /** The largest radius it will ever have, meters: what its place in a grid is sized for. */
    readonly maxRadius = radius,
  ) {
    this.radius = radius;
  }
}

/** A box, meters: what a set of pieces covers. @internal */
export interface PieceBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Empties `box` (Infinity to -Infinity), ready to grow; returns it. @internal */
export function emptyBounds(box: PieceBounds = { minX: 0, minY: 0, maxX: 0, maxY: 0 }): PieceBounds {
  box.minX = box.minY = Infinity;
  box.maxX = box.maxY = -Infinity;
  return box;
}

/** Grows `box` to hold the piece, each vertex widened by `r` meters (a circle's radius; 0 for outlines). @internal */
export function growBounds(box: PieceBounds, piece: OccluderPiece, r: number): void {
  for (let i = 0; i < piece.xs.length; i++) {
    if (piece.xs[i]! - r < box.minX) box.minX = piece.xs[i]! - r;
    if (piece.ys[i]! - r < box.minY) box.minY = piece.ys[i]! - r;
    if (piece.xs[i]! + r > box.maxX) box.maxX = piece.xs[i]! + r;
    if (piece.ys[i]! + r > box.maxY) box.maxY = piece.ys[i]! + r;
  }
}
