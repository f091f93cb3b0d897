import { OpacityGrid } from "./opacityGrid.js";

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
 * Share of a tile's area an outline must cover for the tile to count as opaque. Only there to absorb
 * rounding: an outline that merely touches a tile along its edge covers no area and leaves it clear.
 */
export const OPAQUE_AREA_SHARE = 1e-6;

/**
 * The opacity grid of a level: a tile is opaque iff some opaque outline covers a positive area of it
 * (more than {@link OPAQUE_AREA_SHARE} of the tile). So a wall thinner than a tile still makes the tiles
 * it crosses opaque (sight never leaks through a thin wall), a wall edge on a tile boundary does not
 * spill into the next tile, and solid tiles map to exactly themselves. Runs once per level, not per tick.
 * @throws RangeError for a bad grid size, tile size or a non-finite point
 */
export function rasterizeOpacity(level: OpaqueLevel): OpacityGrid {
  const { columns, rows, tileWidth, tileHeight } = level;
  const grid = new OpacityGrid(columns, rows, { tileWidth, tileHeight });
  const threshold = OPAQUE_AREA_SHARE * tileWidth * tileHeight;
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
        if (area > threshold) grid.cells[r * columns + c] = 1;
      }
    }
  }
  return grid;
}

/**
 * Area of a polygon inside an axis-aligned box: Sutherland-Hodgman clipping against the box's four
 * sides (right for concave polygons too, as far as the area goes), then the shoelace formula.
 * Keeps two scratch buffers of coordinates between calls.
 */
class TileClipper {
  private a: number[] = [];
  private b: number[] = [];

  overlapArea(outline: readonly Point[], x0: number, y0: number, x1: number, y1: number): number {
    let src = this.a;
    src.length = 0;
    for (const p of outline) src.push(p.x, p.y);
    let dst = this.b;
    // Each side keeps points with sign * coordinate >= sign * bound: x >= x0, x <= x1, y >= y0, y <= y1.
    for (let side = 0; side < 4 && src.length > 0; side++) {
      const axis = side < 2 ? 0 : 1;
      const sign = side % 2 === 0 ? 1 : -1;
      const bound = side === 0 ? x0 : side === 1 ? x1 : side === 2 ? y0 : y1;
      dst.length = 0;
      const n = src.length / 2;
      for (let i = 0; i < n; i++) {
        const px = src[2 * i]!;
        const py = src[2 * i + 1]!;
        const j = (i + 1) % n;
        const qx = src[2 * j]!;
        const qy = src[2 * j + 1]!;
        const pIn = sign * ((axis === 0 ? px : py) - bound) >= 0;
        const qIn = sign * ((axis === 0 ? qx : qy) - bound) >= 0;
        if (pIn) dst.push(px, py);
        if (pIn !== qIn) {
          const pv = axis === 0 ? px : py;
          const qv = axis === 0 ? qx : qy;
          const t = (bound - pv) / (qv - pv);
          dst.push(axis === 0 ? bound : px + t * (qx - px), axis === 0 ? py + t * (qy - py) : bound);
        }
      }
      const swap = src;
      src = dst;
      dst = swap;
    }
    let twice = 0;
    const n = src.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      twice += src[2 * i]! * src[2 * j + 1]! - src[2 * j]! * src[2 * i + 1]!;
    }
    return Math.abs(twice) / 2;
  }
}
