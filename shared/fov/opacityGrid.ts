import type { FovGrid } from "./types.js";
import { integer, positive } from "../validation/rangeChecks.js";

/** How many recent tile changes a grid remembers for {@link OpacityGrid.changedWithin}. */
const CHANGE_LOG = 64;

/**
 * Which tiles of a level block sight, as a row-major byte per tile (1 = opaque), plus the size of a
 * tile in world meters. It is the grid `computeFov` reads directly (through `cells`), and it knows what
 * changed: {@link setOpaque} (a door opening or closing) bumps {@link version} and logs the tile, so
 * `TileVision` recomputes only the views that tile can affect.
 */
export class OpacityGrid implements FovGrid {
  /** Columns and rows, tiles. */
  readonly width: number;
  readonly height: number;
  /** Size of one tile in world meters (1 unless the level says otherwise). */
  readonly tileWidth: number;
  readonly tileHeight: number;
  /** One byte per tile, row-major, nonzero = opaque. Change tiles through {@link setOpaque}, not here. */
  readonly cells: Uint8Array;
  /** Changes made through {@link setOpaque} so far. */
  version = 0;
  private readonly log = new Int32Array(CHANGE_LOG);

  /**
   * @param cells initial opacity (copied), row-major, nonzero = opaque; default all transparent
   * @throws RangeError for a size that is not positive integers, bad tile sizes or `cells` of the wrong length
   */
  constructor(width: number, height: number, options: { cells?: ArrayLike<number>; tileWidth?: number; tileHeight?: number } = {}) {
    integer("OpacityGrid width", width, 1, Infinity, "tiles");
    integer("OpacityGrid height", height, 1, Infinity, "tiles");
    const tileWidth = positive("OpacityGrid options.tileWidth", options.tileWidth ?? 1, "meters");
    const tileHeight = positive("OpacityGrid options.tileHeight", options.tileHeight ?? 1, "meters");
    this.width = width;
    this.height = height;
    this.tileWidth = tileWidth;
    this.tileHeight = tileHeight;
    this.cells = new Uint8Array(width * height);
    if (options.cells !== undefined) {
      if (options.cells.length !== width * height) {
        throw new RangeError(`OpacityGrid: cells must hold width * height = ${width * height} tiles (got ${options.cells.length})`);
      }
      for (let i = 0; i < this.cells.length; i++) this.cells[i] = options.cells[i] ? 1 : 0;
    }
  }

  /** Whether the tile blocks sight; tiles outside the grid do. */
  isOpaque(x: number, y: number): boolean {
    return x < 0 || y < 0 || x >= this.width || y >= this.height || this.cells[y * this.width + x] !== 0;
  }

  /**
   * Makes a tile opaque or transparent (a door closing or opening). Returns whether anything changed;
   * a change bumps {@link version} and is remembered for {@link changedWithin}.
   * @throws RangeError for coordinates that are not a tile of the grid
   */
  setOpaque(x: number, y: number, opaque: boolean): boolean {
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= this.width || y >= this.height) {
      throw new RangeError(`OpacityGrid.setOpaque: (${x}, ${y}) is not a tile of the ${this.width} x ${this.height} grid`);
    }
    const i = y * this.width + x;
    const value = opaque ? 1 : 0;
    if (this.cells[i] === value) return false;
    this.cells[i] = value;
    this.log[this.version % CHANGE_LOG] = i;
    this.version++;
    return true;
  }

  /**
   * Whether a tile changed after `sinceVersion` (a past {@link version}) inside the box of tiles
   * [x0, x1] x [y0, y1] (inclusive). Answers true when the log no longer reaches that far back.
   */
  changedWithin(sinceVersion: number, x0: number, y0: number, x1: number, y1: number): boolean {
    if (sinceVersion >= this.version) return false;
    if (this.version - sinceVersion > CHANGE_LOG) return true;
    for (let v = sinceVersion; v < this.version; v++) {
      const i = this.log[v % CHANGE_LOG]!;
      const x = i % this.width;
      const y = (i - x) / this.width;
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) return true;
    }
    return false;
  }

  /**
   * The tile an eye at world point (x, y) meters looks from, written to `out`: the tile under the
   * point, clamped to the grid. When that tile is opaque (a wall thinner than a tile shares it with the
   * floor the character stands on) it is the transparent one of its 8 neighbours whose centre is nearest
   * the point, so the eye stays on its own side of the wall; if all nine are opaque, the tile under it.
   * @throws RangeError for a non-finite point
   */
  eyeTile(x: number, y: number, out: { x: number; y: number }): { x: number; y: number } {
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`OpacityGrid.eyeTile: the point must be finite meters (got ${x}, ${y})`);
    const tx = Math.min(this.width - 1, Math.max(0, Math.floor(x / this.tileWidth)));
    const ty = Math.min(this.height - 1, Math.max(0, Math.floor(y / this.tileHeight)));
    out.x = tx;
    out.y = ty;
    if (this.cells[ty * this.width + tx] === 0) return out;
    let best = Infinity;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = tx + dx;
        const ny = ty + dy;
        if (this.isOpaque(nx, ny)) continue;
        const d = ((nx + 0.5) * this.tileWidth - x) ** 2 + ((ny + 0.5) * this.tileHeight - y) ** 2;
        if (d < best) {
          best = d;
          out.x = nx;
          out.y = ny;
        }
      }
    }
    return out;
  }
}
