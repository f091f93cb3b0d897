import type { OccluderChange } from "../occluders/changeFeed.js";
import type { Occluders } from "../occluders/occluders.js";
import { emptyBounds, growBounds, type OccluderPiece } from "../occluders/occluderPiece.js";

/** The 8 neighbours of a cell, as column and row steps. @internal */
export const NEIGHBOURS: readonly (readonly [number, number])[] = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, 1], [1, -1], [-1, -1]];

/** Overlaps thinner than this (meters) are touching, not crossing: a wall flush with a cell's edge leaves the cell open. */
const TOUCH = 1e-9;
/** Cells added around the occluders' bounds; beyond the grid everything is open. */
const MARGIN_CELLS = 2;
/** Grids with more cells than this get coarser cells instead. */
const MAX_CELLS = 1 << 22;
/**
 * Meters a point may lie from its cell's edge and still be on the outline of a piece beyond that edge (a
 * piece flush with a cell's edge, or reaching into it by no more than {@link TOUCH}, leaves it open), with
 * room for rounding; at least a millionth of a cell.
 */
const ON_EDGE = 1e-8;

/**
 * The occluders that stop sound, rasterized onto square cells: a cell is shut while a piece that blocks
 * sound now reaches into its interior (a wall, a pillar, a shut door; not smoke, which muffles sight only).
 * An open cell is therefore entirely free, which is what makes every path the sound search finds a real
 * one: a step between two open neighbours (no corner cutting on diagonals) stays inside their union.
 *
 * Follows its `Occluders` like the tile opacity grid does: per cell a count of the pieces in it, per piece
 * the cells it covers, so a door that shuts costs its own cells. `version` moves on every change, which
 * is how a reader knows what it read is stale.
 * @internal
 */
export class SoundGrid {
  readonly cellSize: number;
  /** Cells per meter: 1 / {@link cellSize}. */
  private readonly perMeter: number;
  /** {@link ON_EDGE} in cells. */
  private readonly onEdge: number;
  readonly originX: number;
  readonly originY: number;
  readonly columns: number;
  readonly rows: number;
  /** Per cell: how many sound-blocking pieces reach into it (0 = open). */
  private readonly counts: Uint16Array;
  /**
   * One bit per cell, set while it is shut: what {@link mayBeInside} reads for every query, a sixteenth of
   * the counts' memory, so that it stays in cache however the queries jump about the level.
   */
  private readonly shut: Int32Array;
  private readonly covered = new Map<OccluderPiece, Int32Array>();
  private readonly stop: () => void;
  private readonly box = emptyBounds();
  /** Moves on every change of what is shut. */
  version = 0;
  /** A piece was added beyond the grid's edge: the grid no longer covers the level and must be rebuilt. */
  outgrown = false;

  constructor(occluders: Occluders, cellSize: number) {
    const box = emptyBounds();
    for (const p of occluders.allPieces()) if (!p.removed) growBounds(box, p, p.maxRadius);
    let { minX, minY, maxX, maxY } = box;
    if (minX === Infinity) minX = minY = maxX = maxY = 0;
    let cs = cellSize;
    while (((maxX - minX) / cs + 2 * MARGIN_CELLS + 1) * ((maxY - minY) / cs + 2 * MARGIN_CELLS + 1) > MAX_CELLS) cs *= 2;
    this.cellSize = cs;
    this.perMeter = 1 / cs;
    this.onEdge = Math.max(1e-6, ON_EDGE / cs);
    this.originX = Math.floor(minX / cs - MARGIN_CELLS) * cs;
    this.originY = Math.floor(minY / cs - MARGIN_CELLS) * cs;
    this.columns = Math.ceil((maxX - this.originX) / cs) + MARGIN_CELLS;
    this.rows = Math.ceil((maxY - this.originY) / cs) + MARGIN_CELLS;
    this.counts = new Uint16Array(this.columns * this.rows);
    this.shut = new Int32Array(Math.ceil((this.columns * this.rows) / 32));
    for (const p of occluders.allPieces()) if (blocksSound(p)) this.count(p);
    this.stop = occluders.onChange((_a, _b, _c, _d, change: OccluderChange) => {
      let moved = false;
      for (const piece of change.pieces) {
        if (piece.fog) continue;
        moved = this.uncount(piece) || moved;
        if (blocksSound(piece)) moved = this.count(piece) || moved;
      }
      if (moved) this.version++;
    });
  }

  /** Column of x (may be outside the grid). */
  column(x: number): number {
    return Math.floor((x - this.originX) / this.cellSize);
  }

  row(y: number): number {
    return Math.floor((y - this.originY) / this.cellSize);
  }

  /** Whether cell (c, r) is open; outside the grid everything is. */
  isOpen(c: number, r: number): boolean {
    if (c < 0 || r < 0 || c >= this.columns || r >= this.rows) return true;
    return this.counts[r * this.columns + c] === 0;
  }

  /**
   * Whether (x, y) may be inside a piece that stops sound: its cell is shut, or it lies on the cell's edge
   * next to a shut one. An open cell has no piece reaching into it, so a point well inside one is in none.
   */
  mayBeInside(x: number, y: number): boolean {
    const fx = (x - this.originX) * this.perMeter;
    const fy = (y - this.originY) * this.perMeter;
    const edge = this.onEdge;
    if (fx >= 0 && fy >= 0 && fx < this.columns && fy < this.rows) {
      const c = fx | 0;
      const r = fy | 0;
      const i = r * this.columns + c;
      if ((this.shut[i >> 5]! & (1 << (i & 31))) !== 0) return true;
      // Well inside an open cell (the common case): in no piece.
      if (fx - c >= edge && fy - r >= edge && c + 1 - fx >= edge && r + 1 - fy >= edge) return false;
    } else if (fx < -edge || fy < -edge || fx >= this.columns + edge || fy >= this.rows + edge) {
      // Beyond the grid there is no piece (one reaching past it outgrows the grid).
      return false;
    }
    return this.onEdgeOfShut(fx, fy);
  }

  /** Whether the point at (fx, fy), in cells, is in a shut cell or on the edge of one. */
  private onEdgeOfShut(fx: number, fy: number): boolean {
    const c = Math.floor(fx);
    const r = Math.floor(fy);
    const edge = this.onEdge;
    const sc = fx - c < edge ? -1 : c + 1 - fx < edge ? 1 : 0;
    const sr = fy - r < edge ? -1 : r + 1 - fy < edge ? 1 : 0;
    return this.isShut(c, r) || this.isShut(c + sc, r) || this.isShut(c, r + sr) || this.isShut(c + sc, r + sr);
  }

  /** Whether cell (c, r) is shut, from its bit; outside the grid none is. */
  private isShut(c: number, r: number): boolean {
    if (c < 0 || r < 0 || c >= this.columns || r >= this.rows) return false;
    const i = r * this.columns + c;
    return (this.shut[i >> 5]! & (1 << (i & 31))) !== 0;
  }

  /** Stops following the occluders. */
  dispose(): void {
    this.stop();
  }

  private count(piece: OccluderPiece): boolean {
    if (!this.covers(piece)) this.outgrown = true;
    const cells = this.cellsOf(piece);
    this.covered.set(piece, cells);
    for (const i of cells) if (this.counts[i]!++ === 0) this.shut[i >> 5]! |= 1 << (i & 31);
    return cells.length > 0;
  }

  private uncount(piece: OccluderPiece): boolean {
    const cells = this.covered.get(piece);
    if (cells === undefined) return false;
    this.covered.delete(piece);
    for (const i of cells) if (--this.counts[i]! === 0) this.shut[i >> 5]! &= ~(1 << (i & 31));
    return cells.length > 0;
  }

  /** Whether the piece lies inside the grid (everything beyond it counts as open). */
  private covers(piece: OccluderPiece): boolean {
    const box = emptyBounds(this.box);
    growBounds(box, piece, piece.maxRadius);
    return box.minX >= this.originX && box.minY >= this.originY && box.maxX <= this.originX + this.columns * this.cellSize && box.maxY <= this.originY + this.rows * this.cellSize;
  }

  /** The cells whose interior the piece reaches into. */
  private cellsOf(piece: OccluderPiece): Int32Array {
    const cs = this.cellSize;
    const box = emptyBounds(this.box);
    growBounds(box, piece, piece.xs.length === 1 ? piece.radius : 0);
    const c0 = Math.max(0, this.column(box.minX));
    const r0 = Math.max(0, this.row(box.minY));
    const c1 = Math.min(this.columns - 1, this.column(box.maxX));
    const r1 = Math.min(this.rows - 1, this.row(box.maxY));
    const out: number[] = [];
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const x0 = this.originX + col * cs;
        const y0 = this.originY + row * cs;
        if (reachesInto(piece, x0, y0, x0 + cs, y0 + cs)) out.push(row * this.columns + col);
      }
    }
    return Int32Array.from(out);
  }
}

/** Whether a piece stops sound now: active, and solid (smoke hides, it does not silence). @internal */
export function blocksSound(piece: OccluderPiece): boolean {
  return piece.active && !piece.removed && !piece.fog;
}

/**
 * Whether the piece reaches into the interior of the box. Polygons and circles must overlap it by more
 * than a touch; a segment (a wall with no thickness) counts when it touches the closed box at all, so
 * that one lying along a cell edge shuts the cells on both sides rather than neither.
 */
function reachesInto(piece: OccluderPiece, x0: number, y0: number, x1: number, y1: number): boolean {
  const xs = piece.xs;
  const ys = piece.ys;
  const n = xs.length;
  if (n === 1) {
    const cx = xs[0]!;
    const cy = ys[0]!;
    const dx = cx < x0 ? x0 - cx : cx > x1 ? cx - x1 : 0;
    const dy = cy < y0 ? y0 - cy : cy > y1 ? cy - y1 : 0;
    return Math.hypot(dx, dy) < piece.radius - TOUCH;
  }
  if (n === 2) return segmentTouchesClosedBox(xs[0]!, ys[0]!, xs[1]!, ys[1]!, x0 - TOUCH, y0 - TOUCH, x1 + TOUCH, y1 + TOUCH);
  // Separating axes: the box's two and each edge normal of the convex polygon.
  let pminX = Infinity;
  let pmaxX = -Infinity;
  let pminY = Infinity;
  let pmaxY = -Infinity;
  for (let i = 0; i < n; i++) {
    pminX = Math.min(pminX, xs[i]!);
    pmaxX = Math.max(pmaxX, xs[i]!);
    pminY = Math.min(pminY, ys[i]!);
    pmaxY = Math.max(pmaxY, ys[i]!);
  }
  if (pmaxX <= x0 + TOUCH || pminX >= x1 - TOUCH || pmaxY <= y0 + TOUCH || pminY >= y1 - TOUCH) return false;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const nx = ys[j]! - ys[i]!;
    const ny = xs[i]! - xs[j]!;
    const len = Math.hypot(nx, ny);
    if (len === 0) continue;
    let pMin = Infinity;
    let pMax = -Infinity;
    for (let k = 0; k < n; k++) {
      const v = (xs[k]! * nx + ys[k]! * ny) / len;
      pMin = Math.min(pMin, v);
      pMax = Math.max(pMax, v);
    }
    let bMin = Infinity;
    let bMax = -Infinity;
    for (const [bx, by] of [[x0, y0], [x1, y0], [x1, y1], [x0, y1]] as const) {
      const v = (bx * nx + by * ny) / len;
      bMin = Math.min(bMin, v);
      bMax = Math.max(bMax, v);
    }
    if (pMax <= bMin + TOUCH || bMax <= pMin + TOUCH) return false;
  }
  return true;
}

/** Liang-Barsky: whether segment a-b meets the closed box. */
function segmentTouchesClosedBox(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - x0, x1 - ax, ay - y0, y1 - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i]! < 0) return false;
      continue;
    }
    const t = q[i]! / p[i]!;
    if (p[i]! < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}
