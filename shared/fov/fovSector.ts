import { wrapAngle } from "../math/angle.js";
import { fail } from "../validation/rangeChecks.js";

/**
 * Radians by which the sector's two edges are widened. A tile centre lying exactly on an edge (the
 * diagonals of a 90-degree cone facing along an axis) then counts as inside, whatever the rounding of
 * `cos` and `sin` on the edge directions; no centre of a grid this side of a million tiles lies so
 * close to an edge without lying on it.
 */
export const SECTOR_EDGE_TOLERANCE = 1e-9;

/**
 * Quadrant clipping works on a sector widened by this much more (radians), so that a quadrant is only
 * ever skipped when it holds no tile centre the exact test could accept.
 */
const CLIP_TOLERANCE = 1e-6;

/**
 * Slope units kept on each side of the sector when the scan of a quadrant is clipped to it. A tile whose
 * centre is in the sector has its shadow-casting span within half a slope unit of that centre (row
 * depth >= 1), so a wider scan sees every wall that could shade such a tile exactly as a full scan would.
 */
const CLIP_MARGIN = 0.5;

/** Clipped slopes are rationals with this denominator (rounded outward), so the scan stays in integers. */
export const CLIP_DENOMINATOR = 4096;

/**
 * The facing sector of one field-of-view call: the exact membership test of a tile centre and the
 * clipping of a quadrant's scan. Mutable and reused: configuring it allocates nothing.
 *
 * A tile other than the origin is in the sector iff the angle between `facing` and the direction from
 * the origin's centre to the tile's centre is at most `fov / 2` (+ {@link SECTOR_EDGE_TOLERANCE}).
 */
export class FovSector {
  /** False when sight is all around (no `fov`, or `fov >= 2 * PI`). */
  active = false;
  private facing = 0;
  private half = Math.PI;
  /** Wider than a half-plane: membership is "either edge test", not "both". */
  private wide = false;
  private rightX = 0;
  private rightY = 0;
  private leftX = 0;
  private leftY = 0;

  /** Validates and applies `options` (see `FovOptions`). Throws a RangeError naming the field. */
  set(facing: number | undefined, fov: number | undefined): void {
    if (fov === undefined) {
      this.active = false;
      return;
    }
    if (typeof fov !== "number" || !(fov > 0)) fail("FovOptions.fov", "must be a full sector angle in radians > 0", fov);
    if (fov >= 2 * Math.PI) {
      this.active = false;
      return;
    }
    if (typeof facing !== "number" || !Number.isFinite(facing)) fail("FovOptions.facing", "must be a finite angle in radians when fov restricts sight", facing);
    this.active = true;
    this.facing = facing;
    this.half = fov / 2;
    const h = this.half + SECTOR_EDGE_TOLERANCE;
    this.wide = h > Math.PI / 2;
    this.rightX = Math.cos(facing - h);
    this.rightY = Math.sin(facing - h);
    this.leftX = Math.cos(facing + h);
    this.leftY = Math.sin(facing + h);
  }

  /** Whether the tile centre at offset (dx, dy) tiles from the origin's centre is in the sector. */
  contains(dx: number, dy: number): boolean {
    // Signs of the cross products: counter-clockwise of the right edge, clockwise of the left edge
    // (in the frame where angles grow toward +y).
    const fromRight = this.rightX * dy - this.rightY * dx >= 0;
    const toLeft = dx * this.leftY - dy * this.leftX >= 0;
    return this.wide ? fromRight || toLeft : fromRight && toLeft;
  }

  /**
   * The slope interval a quadrant's scan can be clipped to, as numerators over
   * {@link CLIP_DENOMINATOR} in `out[0]` (start) and `out[1]` (end), within [-1, 1]. Slopes are
   * column / depth in the quadrant's own frame, whose axis points at `axis` radians and whose
   * columns grow with the angle. Returns false when no tile of the quadrant can be in the sector
   * (the quadrant is skipped). Sectors wider than a half-plane are not clipped.
   */
  clipQuadrant(axis: number, out: Int32Array): boolean {
    const K = CLIP_DENOMINATOR;
    out[0] = -K;
    out[1] = K;
    if (!this.active || this.wide) return true;
    const quarter = Math.PI / 4;
    const h = this.half + CLIP_TOLERANCE;
    // The sector is at most a half-plane here, so it meets the quadrant's [-PI/4, PI/4] (relative to the
    // axis) in one interval or not at all: wrapping round cannot bring it back in from the far side.
    const centre = wrapAngle(this.facing - axis);
    const lo = Math.max(-quarter, centre - h);
    const hi = Math.min(quarter, centre + h);
    if (lo > hi) return false;
    out[0] = Math.max(-K, Math.floor((Math.tan(lo) - CLIP_MARGIN) * K));
    out[1] = Math.min(K, Math.ceil((Math.tan(hi) + CLIP_MARGIN) * K));
    return true;
  }
}
