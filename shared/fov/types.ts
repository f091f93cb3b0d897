/**
 * A grid of tiles for field of view. Coordinates are tile columns (x, to the right) and rows (y, down),
 * integers from 0. A cell outside `width` x `height` is opaque and never revealed, whatever
 * `isOpaque` says about it.
 */
export interface FovGrid {
  /** Columns, tiles. */
  readonly width: number;
  /** Rows, tiles. */
  readonly height: number;
  /** Whether the tile blocks sight. Only called for tiles inside the grid. */
  isOpaque(x: number, y: number): boolean;
  /**
   * Optional fast path: the same opacity as a row-major array (`cells[y * width + x]`, nonzero =
   * opaque) of length `width * height`. When present it is read instead of calling `isOpaque`, so
   * the two must agree.
   */
  readonly cells?: ArrayLike<number>;
}

/**
 * Restricts sight to a sector (a cone). Both fields use the vision engine's conventions: radians,
 * angle 0 = +x (increasing columns), angles growing toward +y (increasing rows, i.e. clockwise on a
 * screen whose y points down, as in Tiled and in the world frame).
 */
export interface FovOptions {
  /** Direction the eye looks, radians. Required when `fov` restricts sight. */
  facing?: number;
  /** FULL sector angle, radians, > 0; `>= 2 * PI` (or leaving it out) means all around. */
  fov?: number;
}

/** Called once for every revealed tile. */
export type RevealCallback = (x: number, y: number) => void;
