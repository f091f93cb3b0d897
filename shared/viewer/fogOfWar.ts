/// <reference lib="dom" />
import { computeFov, type OpacityGrid } from "sightline/fov";
import { PLAYER_SIGHT_RANGE } from "../gameRules.js";
import { OVERLAY_COLOURS } from "./palette.js";
import type { Viewport } from "./viewport.js";


/**
 * A player's synced explored memory: 32-tile words by word index (tile i = y * columns + x is bit i & 31
 * of word i >>> 5). Read through `forEach`, which a schema map keyed by the index in decimal and a schema
 * array both have.
 */
export interface ExploredWords {
  forEach(callback: (word: number, index: string | number) => void): void;
}

/**
 * One player's fog of war over the map's tiles: what it sees now, computed here with `computeFov` from the
 * level's opacity grid (`LevelSight`: the public map's walls and doors, the doors and dense clouds as the
 * state has them) and the character's position (the server never sends it), and what it has seen before,
 * from the player's synced `explored` words when the state has them, else remembered by the page itself.
 * Tiles seen now are clear, tiles seen before are veiled, the rest dark. What is seen is recomputed only
 * when the eye's tile or the grid changed (a door, a cloud), the veil redrawn only when that or the memory did.
 */
export class FogOfWar {
  private readonly visible: Uint8Array;
  /** The page's own memory, used only while the state has no `explored` words. */
  private readonly remembered: Uint8Array;
  /** The synced memory, unpacked from the state when it changes. */
  private readonly words: Uint32Array;
  private hasWords = false;
  private readonly layer: HTMLCanvasElement;
  private readonly eye = { x: -1, y: -1 };
  private readonly next = { x: 0, y: 0 };
  private readonly radius: number;
  private exploredSum = -1;
  /** The grid's version the sight was computed against. */
  private gridVersion = -1;
  private dirty = true;
  private readonly reveal = (x: number, y: number): void => {
    this.visible[y * this.grid.width + x] = 1;
  };

  constructor(private readonly grid: OpacityGrid, private readonly view: Viewport, sightMeters = PLAYER_SIGHT_RANGE) {
    this.radius = sightMeters / Math.max(grid.tileWidth, grid.tileHeight);
    this.visible = new Uint8Array(grid.width * grid.height);
    this.remembered = new Uint8Array(grid.width * grid.height);
    this.words = new Uint32Array(Math.ceil((grid.width * grid.height) / 32));
    this.layer = document.createElement("canvas");
    this.layer.width = view.width;
    this.layer.height = view.height;
  }

  /** Forgets everything (the page now follows another player). */
  reset(): void {
    this.remembered.fill(0);
    this.eye.x = -1;
    this.exploredSum = -1;
    this.dirty = true;
  }

  /** The character at (x, y) meters; `explored` its synced memory, or undefined when the state has none. */
  update(x: number, y: number, explored: ExploredWords | undefined): void {
    const grid = this.grid;
    const tile = grid.eyeTile(x, y, this.next);
    if (tile.x !== this.eye.x || tile.y !== this.eye.y || grid.version !== this.gridVersion) {
      this.eye.x = tile.x;
      this.eye.y = tile.y;
      this.gridVersion = grid.version;
      this.visible.fill(0);
      computeFov(grid, tile.x, tile.y, this.radius, this.reveal);
      for (let i = 0; i < this.visible.length; i++) this.remembered[i]! |= this.visible[i]!;
      this.dirty = true;
    }
    // A fingerprint of the words: the memory only grows, so any new tile changes it.
    let sum = -2;
    if (explored !== undefined) {
      sum = 0;
      this.words.fill(0);
      explored.forEach((word, index) => {
        const w = Number(index);
        if (Number.isInteger(w) && w >= 0 && w < this.words.length) {
          this.words[w] = word;
          sum = (sum + (word >>> 0) * (w + 1)) % 2147483647;
        }
      });
    }
    this.hasWords = explored !== undefined;
    if (sum !== this.exploredSum) {
      this.exploredSum = sum;
      this.dirty = true;
    }
    if (this.dirty) this.paint();
  }

  /** Lays the veil over the frame (under the entities: culling decides those, not the fog). */
  draw(ctx: CanvasRenderingContext2D): void {
    if (this.eye.x >= 0) ctx.drawImage(this.layer, 0, 0);
  }

  private paint(): void {
    this.dirty = false;
    const { grid, view } = this;
    const ctx = this.layer.getContext("2d")!;
    ctx.clearRect(0, 0, view.width, view.height);
    const tw = grid.tileWidth;
    const th = grid.tileHeight;
    for (let y = 0; y < grid.height; y++) {
      for (let x = 0; x < grid.width; x++) {
        const i = y * grid.width + x;
        if (this.visible[i] === 1) continue;
        const seen = this.hasWords ? ((this.words[i >>> 5]! >>> (i & 31)) & 1) === 1 : this.remembered[i] === 1;
        ctx.fillStyle = seen ? OVERLAY_COLOURS.remembered : OVERLAY_COLOURS.unexplored;
        // Whole pixels, so neighbouring tiles neither overlap (darker seams) nor leave gaps.
        const left = Math.round(view.x(x * tw));
        const top = Math.round(view.y(y * th));
        ctx.fillRect(left, top, Math.round(view.x((x + 1) * tw)) - left, Math.round(view.y((y + 1) * th)) - top);
      }
    }
  }
}
