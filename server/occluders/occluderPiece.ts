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
