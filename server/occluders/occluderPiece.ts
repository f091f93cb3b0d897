/**
 * One convex piece of an occluder, in world meters: a polygon (3 or more vertices, counter-clockwise), a
 * segment (2) or a circle (1 vertex and a radius). Its identity is stable while it exists, so a sight
 * engine may remember "this piece hid that target" across changes to the rest of the set.
 * @internal
 */
export class OccluderPiece {
  /** Index in the current packed snapshot, or -1 once removed. */
  index = -1;

  constructor(
    /** The occluder (the id `add*` returned) this piece belongs to. */
    readonly owner: number,
    readonly xs: readonly number[],
    readonly ys: readonly number[],
    readonly radius: number,
  ) {}
}
