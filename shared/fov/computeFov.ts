import { SymmetricShadowcaster } from "./symmetricShadowcasting.js";
import type { FovGrid, FovOptions, RevealCallback } from "./types.js";

const shared = new SymmetricShadowcaster();
let busy = false;

/**
 * Tile field of view from the centre of tile (originX, originY), by Albert Ford's symmetric
 * shadowcasting. Calls `reveal(x, y)` exactly once for every tile seen:
 * - the origin, always (even when it is opaque, or outside a facing sector);
 * - a tile only if dx*dx + dy*dy <= radius*radius (dx, dy in tiles from the origin); rows are scanned
 *   to depth floor(radius) in each of the four quadrants;
 * - a wall (opaque tile) when light reaches any part of it: walls are visible, and a convex room's
 *   walls are all seen from inside it;
 * - a floor tile only when the ray to its centre is lit (walls shade as diamonds inscribed in their
 *   tile), which makes sight symmetric between floor tiles: A sees B iff B sees A (same radius, no
 *   sector), and leaves no blind corners;
 * - never a tile outside the grid: those are opaque.
 *
 * With `options.fov < 2 * PI`, only tiles whose centre lies in the sector (see {@link FovOptions}; the
 * angle from `facing` to the tile centre's direction at most fov / 2) are revealed, and those exactly as
 * without the sector: the sector hides, it never shades. A sector makes sight one-sided by nature: A
 * facing B may see B while B, facing away, does not see A.
 *
 * Pure and allocation-free: no closures, arrays or fractions are created per call (scratch buffers are
 * reused; calling it again from inside `reveal` is allowed and only then allocates).
 *
 * @param radius tiles, >= 0; may be Infinity (the grid's edge stops the scan)
 * @throws RangeError for a NaN, negative or non-integer input, an origin outside the grid, a bad sector
 */
export function computeFov(grid: FovGrid, originX: number, originY: number, radius: number, reveal: RevealCallback, options?: FovOptions): void {
  if (busy) {
    new SymmetricShadowcaster().compute(grid, originX, originY, radius, reveal, options);
    return;
  }
  busy = true;
  try {
    shared.compute(grid, originX, originY, radius, reveal, options);
  } finally {
    busy = false;
  }
}
