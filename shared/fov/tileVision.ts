import { computeFov } from "./computeFov.js";
import { FovSector } from "./fovSector.js";
import type { OpacityGrid } from "./opacityGrid.js";
import { inRange, object } from "../validation/rangeChecks.js";

/** Options of a {@link TileVision}. */
export interface TileVisionOptions {
  /** Sight radius, tiles (Euclidean, as `computeFov`). */
  radius: number;
}

/**
 * One eye's tile sight over an {@link OpacityGrid}: what it sees now (`visible`, cleared at each
 * recompute) and what it has ever seen (`explored`, never cleared): the roguelike "visible" and "seen"
 * flags, as bitsets. Tile i = y * width + x is bit (i & 31) of word (i >>> 5) of either array.
 *
 * {@link update} recomputes only when something that can change the answer changed: the eye's tile,
 * its facing sector, or a tile within its reach (through `OpacityGrid.setOpaque`, e.g. a door).
 * Otherwise it costs a few comparisons. Recomputing allocates nothing.
 */
export class TileVision {
  readonly grid: OpacityGrid;
  /** Tiles. */
  readonly radius: number;
  /** Tiles seen at the last recompute. */
  readonly visible: Uint32Array;
  /** Tiles ever seen. */
  readonly explored: Uint32Array;
  /** Recomputes so far. */
  recomputes = 0;
  /**
   * Indices of the `explored` words that changed since {@link clearExploredChanges}, the first
   * {@link exploredChangeCount} entries (each at most once): what a sync needs to send.
   */
  readonly exploredChanges: Int32Array;
  exploredChangeCount = 0;

  private readonly changed: Uint8Array;
  private eyeX = -1;
  private eyeY = -1;
  private facing: number | undefined;
  private fov: number | undefined;
  private gridVersion = 0;
  /** Words of `visible` the last recompute may have set. */
  private wordLo = 0;
  private wordHi = -1;
  private readonly sectorCheck = new FovSector();
  private readonly sector = { facing: 0 as number | undefined, fov: undefined as number | undefined };
  private readonly revealTile: (x: number, y: number) => void;

  /** @throws RangeError for a negative or NaN radius */
  constructor(grid: OpacityGrid, options: TileVisionOptions) {
    object("TileVisionOptions", options);
    inRange("TileVisionOptions.radius", options.radius, 0, Infinity, "tiles", "[]");
    this.grid = grid;
    this.radius = options.radius;
    const words = Math.ceil((grid.width * grid.height) / 32);
    this.visible = new Uint32Array(words);
    this.explored = new Uint32Array(words);
    this.exploredChanges = new Int32Array(words);
    this.changed = new Uint8Array(words);
    const width = grid.width;
    const visible = this.visible;
    this.revealTile = (x, y) => {
      const i = y * width + x;
      visible[i >>> 5] |= 1 << (i & 31);
    };
  }

  /**
   * Puts the eye on tile (x, y), looking all around or, with `fov < 2 * PI`, into the sector around
   * `facing` (radians, as `computeFov`). Recomputes `visible` and adds it to `explored` only if the
   * tile, the sector or a tile within reach changed since the last recompute. Returns whether it did.
   * @throws RangeError for a tile outside the grid or a bad sector (nothing changes then)
   */
  update(x: number, y: number, facing?: number, fov?: number): boolean {
    const grid = this.grid;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= grid.width || y >= grid.height) {
      throw new RangeError(`TileVision.update: (${x}, ${y}) is not a tile of the ${grid.width} x ${grid.height} grid`);
    }
    this.sectorCheck.set(facing, fov);
    const sectorSame = this.sectorCheck.active ? this.facing === facing && this.fov === fov : this.fov === undefined;
    const reach = Math.min(Math.floor(this.radius), Math.max(grid.width, grid.height));
    if (x === this.eyeX && y === this.eyeY && sectorSame && this.recomputes > 0) {
      const near = grid.changedWithin(this.gridVersion, x - reach, y - reach, x + reach, y + reach);
      this.gridVersion = grid.version;
      if (!near) return false;
    }
    this.eyeX = x;
    this.eyeY = y;
    this.facing = this.sectorCheck.active ? facing : undefined;
    this.fov = this.sectorCheck.active ? fov : undefined;
    this.gridVersion = grid.version;
    this.recompute(reach);
    return true;
  }

  /** Whether tile (x, y) was seen at the last recompute. */
  isVisible(x: number, y: number): boolean {
    return this.bit(this.visible, x, y);
  }

  /** Whether tile (x, y) has ever been seen. */
  isExplored(x: number, y: number): boolean {
    return this.bit(this.explored, x, y);
  }

  /** Empties the list of changed `explored` words (after they were synced). */
  clearExploredChanges(): void {
    for (let k = 0; k < this.exploredChangeCount; k++) this.changed[this.exploredChanges[k]!] = 0;
    this.exploredChangeCount = 0;
  }

  private recompute(reach: number): void {
    const grid = this.grid;
    const width = grid.width;
    this.visible.fill(0, this.wordLo, this.wordHi + 1);
    const sector = this.sector;
    sector.facing = this.facing;
    sector.fov = this.fov;
    computeFov(grid, this.eyeX, this.eyeY, this.radius, this.revealTile, sector);
    this.recomputes++;
    // Only the rows within reach can hold visible tiles: merge those words into the memory.
    const rowLo = Math.max(0, this.eyeY - reach);
    const rowHi = Math.min(grid.height - 1, this.eyeY + reach);
    this.wordLo = (rowLo * width) >>> 5;
    this.wordHi = (rowHi * width + width - 1) >>> 5;
    for (let w = this.wordLo; w <= this.wordHi; w++) {
      const merged = (this.explored[w]! | this.visible[w]!) >>> 0;
      if (merged === this.explored[w]) continue;
      this.explored[w] = merged;
      if (this.changed[w] === 0) {
        this.changed[w] = 1;
        this.exploredChanges[this.exploredChangeCount++] = w;
      }
    }
  }

  private bit(words: Uint32Array, x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= this.grid.width || y >= this.grid.height) return false;
    const i = y * this.grid.width + x;
    return (words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
}
