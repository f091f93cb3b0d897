import type { OccluderChange } from "../../server/occluders/changeFeed.js";
import type { Occluders } from "../../server/occluders/occluders.js";
import type { OccluderPiece } from "../../server/occluders/occluderPiece.js";
import { OpacityGrid } from "./opacityGrid.js";
import type { Point } from "./rasterizeOpacity.js";
import { coversTile, discBoxArea, segmentCrossesTile, TileClipper } from "./tileCoverage.js";
import { integer, object, positive } from "../validation/rangeChecks.js";

/** The tile grid an {@link OccluderOpacity} rasterizes onto: its size in tiles and a tile's size in meters. */
export interface OpacityShape {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/**
 * A tile opacity grid that follows an `Occluders` (from `sightline/occluders`): a tile is opaque while an
 * occluder that blocks sight now covers it, by the tile rule every opacity grid uses (more than a sliver
 * of its area, or a thin wall running through it). Doors opening and shutting, smoke clouds growing and
 * thinning, walls added and removed change the tiles they cover, through `OpacityGrid.setOpaque`, so a
 * `TileVision` on {@link grid} recomputes only the views near a change, at its next update: the same
 * occluders as the vision engine and the culling, changing for all three at once.
 *
 * Per tile it counts the blocking pieces covering it (a door shut in a doorway whose wall also covers the
 * tile changes nothing), and per piece it remembers the tiles it covered, so a change costs the piece's
 * own tiles, never the level's. Call {@link dispose} when done with it.
 */
export class OccluderOpacity {
  /** The grid to read (`computeFov`, `TileVision`); it changes as the occluders do. */
  readonly grid: OpacityGrid;
  private readonly counts: Uint16Array;
  /** The tiles each counted piece covers now. */
  private readonly covered = new Map<OccluderPiece, Int32Array>();
  private readonly clipper = new TileClipper();
  private readonly outline: Point[] = [];
  private readonly stop: () => void;

  /** @throws RangeError naming the field for a bad grid shape */
  constructor(occluders: Occluders, shape: OpacityShape) {
    object("OpacityShape", shape, "{ columns, rows, tileWidth, tileHeight }");
    integer("OpacityShape.columns", shape.columns, 1, Infinity, "tiles");
    integer("OpacityShape.rows", shape.rows, 1, Infinity, "tiles");
    positive("OpacityShape.tileWidth", shape.tileWidth, "meters");
    positive("OpacityShape.tileHeight", shape.tileHeight, "meters");
    this.grid = new OpacityGrid(shape.columns, shape.rows, { tileWidth: shape.tileWidth, tileHeight: shape.tileHeight });
    this.counts = new Uint16Array(shape.columns * shape.rows);
    for (const piece of occluders.allPieces()) if (piece.active && !piece.removed) this.count(piece, false);
    // The first fill is not a change anyone has to catch up with.
    this.grid.version = 0;
    this.stop = occluders.onChange((_minX, _minY, _maxX, _maxY, change: OccluderChange) => {
      for (const piece of change.pieces) {
        this.uncount(piece);
        if (piece.active && !piece.removed) this.count(piece, true);
      }
    });
  }

  /** Stops following the occluders; the grid keeps what it shows now. */
  dispose(): void {
    this.stop();
  }

  private count(piece: OccluderPiece, live: boolean): void {
    const tiles = this.tilesOf(piece);
    this.covered.set(piece, tiles);
    const grid = this.grid;
    for (const i of tiles) {
      if (this.counts[i]!++ > 0) continue;
      if (live) grid.setOpaque(i % grid.width, Math.floor(i / grid.width), true);
      else grid.cells[i] = 1;
    }
  }

  private uncount(piece: OccluderPiece): void {
    const tiles = this.covered.get(piece);
    if (tiles === undefined) return;
    this.covered.delete(piece);
    const grid = this.grid;
    for (const i of tiles) if (--this.counts[i]! === 0) grid.setOpaque(i % grid.width, Math.floor(i / grid.width), false);
  }

  /** The tiles a piece covers now, by the tile rule. */
  private tilesOf(piece: OccluderPiece): Int32Array {
    const { width: columns, height: rows, tileWidth: tw, tileHeight: th } = this.grid;
    const xs = piece.xs;
    const ys = piece.ys;
    const r = piece.radius;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < xs.length; i++) {
      minX = Math.min(minX, xs[i]! - r);
      minY = Math.min(minY, ys[i]! - r);
      maxX = Math.max(maxX, xs[i]! + r);
      maxY = Math.max(maxY, ys[i]! + r);
    }
    const c0 = Math.max(0, Math.floor(minX / tw));
    const c1 = Math.min(columns - 1, Math.ceil(maxX / tw) - 1);
    const r0 = Math.max(0, Math.floor(minY / th));
    const r1 = Math.min(rows - 1, Math.ceil(maxY / th) - 1);
    const out: number[] = [];
    if (xs.length >= 3) {
      const outline = this.outline;
      outline.length = 0;
      for (let i = 0; i < xs.length; i++) outline.push({ x: xs[i]!, y: ys[i]! });
    }
    const tileArea = tw * th;
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const x0 = col * tw;
        const y0 = row * th;
        const x1 = x0 + tw;
        const y1 = y0 + th;
        const covered = xs.length >= 3
          ? coversTile(this.clipper.overlapArea(this.outline, x0, y0, x1, y1), tileArea)
          : xs.length === 2
            ? segmentCrossesTile(xs[0]!, ys[0]!, xs[1]!, ys[1]!, x0, y0, x1, y1)
            : coversTile(discBoxArea(xs[0]!, ys[0]!, r, x0, y0, x1, y1), tileArea);
        if (covered) out.push(row * columns + col);
      }
    }
    return Int32Array.from(out);
  }
}
