import { OpacityGrid } from "./opacityGrid.js";
import { coversTile, TileClipper } from "./tileCoverage.js";

export { OPAQUE_AREA_SHARE } from "./tileCoverage.js";

/** A point in world meters. */
export interface Point {
  x: number;
  y: number;
}

/** What sight needs of a level: its tile grid and the outlines that block sight. */
export interface OpaqueLevel {
  /** Tile grid size, tiles. */
  columns: number;
  rows: number;
  /** Size of one tile, meters. */
  tileWidth: number;
  tileHeight: number;
  /**
   * Outlines that block sight, world meters, y down: wall polygons (concave allowed, either winding)
   * and solid tiles (as rectangles). Glass is not among them: it is transparent to sight.
   */
  opaque: readonly (readonly Point[])[];
}


/**
 * The opacity grid of a level: a tile is opaque iff some opaque outline covers a positive area of it
 * (more than `OPAQUE_AREA_SHARE` of the tile; the rule is `tileCoverage.ts`'s). So a wall thinner than a tile still makes the tiles
 * it crosses opaque (sight never leaks through a thin wall), a wall edge on a tile boundary does not
 * spill into the next tile, and solid tiles map to exactly themselves. Runs once per level, not per tick.
 * @throws RangeError for a bad grid size, tile size or a non-finite point
 */
export function rasterizeOpacity(level: OpaqueLevel): OpacityGrid {
  const { columns, rows, tileWidth, tileHeight } = level;
  const grid = new OpacityGrid(columns, rows, { tileWidth, tileHeight });
  const tileArea = tileWidth * tileHeight;
  const clipper = new TileClipper();
  for (const outline of level.opaque) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const p of outline) {
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) throw new RangeError(`rasterizeOpacity: outline point (${p.x}, ${p.y}) is not finite`);
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    }
    if (outline.length < 3) continue;
    const c0 = Math.max(0, Math.floor(minX / tileWidth));
    const c1 = Math.min(columns - 1, Math.ceil(maxX / tileWidth) - 1);
    const r0 = Math.max(0, Math.floor(minY / tileHeight));
    const r1 = Math.min(rows - 1, Math.ceil(maxY / tileHeight) - 1);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        if (grid.cells[r * columns + c] !== 0) continue;
        const area = clipper.overlapArea(outline, c * tileWidth, r * tileHeight, (c + 1) * tileWidth, (r + 1) * tileHeight);
        if (coversTile(area, tileArea)) grid.cells[r * columns + c] = 1;
      }
    }
  }
  return grid;
}
