import type { SoundGrid } from "./soundGrid.js";

/**
 * The steps from a cell: 4 straight, 4 diagonal and 8 knight's moves. With the knight's moves a path on
 * the grid is at most about 2.7% longer than the straight segment it stands for (8.2% with 8 neighbours).
 * Each step other than a straight one passes through two more cells (`VIA_A`, `VIA_B`), which must be
 * open for the step to be free space.
 */
const MOVE_X = Int8Array.from([1, -1, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 2, -2, 2, -2]);
const MOVE_Y = Int8Array.from([0, 0, 1, -1, 1, 1, -1, -1, 2, 2, -2, -2, 1, 1, -1, -1]);
const MOVES = MOVE_X.length;
const MOVE_LENGTH = Float64Array.from(MOVE_X, (x, i) => Math.hypot(x, MOVE_Y[i]!));
// The two cells each step crosses besides its ends (unused for the straight ones).
const VIA_AX = Int8Array.from([0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1]);
const VIA_AY = Int8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0]);
const VIA_BX = Int8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1]);
const VIA_BY = Int8Array.from([0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1]);

const SQRT2 = Math.SQRT2;
const SQRT5 = Math.sqrt(5);
/**
 * Far below a step's length, far above the rounding of a sum of steps: breaks ties between equal ways. A
 * way it prefers is at most TIE x its length longer than the best, and still a real one.
 */
const TIE = 1e-9;

/**
 * Cells' worth of the shortest way from cell (x1, y1) to (x2, y2) over open floor with these steps: the
 * two kinds of step nearest the direction, as many of each as it takes. What A* is guided by: exact where
 * nothing is in the way, never more than the way around anything that is, and far closer than the straight
 * line, whose 2.7% shortfall would let the search widen into every cell of that slack.
 */
function stepsBetween(x1: number, y1: number, x2: number, y2: number): number {
  const dx = x1 > x2 ? x1 - x2 : x2 - x1;
  const dy = y1 > y2 ? y1 - y2 : y2 - y1;
  const a = dx > dy ? dx : dy;
  const b = dx > dy ? dy : dx;
  // Knight's moves with straight ones up to a slope of 1/2, with diagonal ones beyond it.
  return 2 * b <= a ? b * SQRT5 + (a - 2 * b) : (a - b) * SQRT5 + (2 * b - a) * SQRT2;
}

/**
 * How far sound travels from one open cell to another through open cells only: an A* over 16 steps per
 * cell (see `MOVE_X`), each taken only where every cell it crosses is open, guided by the length of the
 * way to the target over open floor and cut off at a bound. Every distance is the length of a real path between cell centres,
 * never shorter than the true shortest one.
 *
 * Why a search per listener and not a field per noise: most ways around are either short (a listener near
 * the doorway) or longer than earshot (a listener in the next room, round the far end of the corridor).
 * A field pays for the whole disc of earshot in both; the bounded search pays for the ellipse of cells
 * whose way through could still be within the bound, and stops at the listener as soon as it is reached.
 * @internal
 */
export class SoundSearch {
  /** Grid column and row of the window's first cell, and the window's side in cells. */
  c0 = 0;
  r0 = 0;
  side = 0;
  /** Cells settled by searches, since construction. */
  settled = 0;
  private g = new Float64Array(0);
  /** Per window cell: the run that gave it a g, and the run that settled it. */
  private seen = new Int32Array(0);
  private done = new Int32Array(0);
  private run = 0;
  private heapCell = new Int32Array(256);
  private heapKey = new Float64Array(256);
  private size = 0;

  constructor(private readonly grid: SoundGrid) {}

  /**
   * Meters along the shortest cell path from the centre of open cell (sc, sr) to that of (tc, tr), if at
   * most `bound`; else Infinity. Leaves the cells it settled readable with {@link at} until the next call.
   */
  find(sc: number, sr: number, tc: number, tr: number, bound: number): number {
    const grid = this.grid;
    const cs = grid.cellSize;
    const cells = Math.ceil(bound / cs) + 1;
    const side = 2 * cells + 1;
    const n = side * side;
    if (this.g.length < n) {
      this.g = new Float64Array(n);
      this.seen = new Int32Array(n);
      this.done = new Int32Array(n);
      this.run = 0;
    }
    const run = ++this.run;
    this.c0 = sc - cells;
    this.r0 = sr - cells;
    this.side = side;
    const tx = tc - this.c0;
    const ty = tr - this.r0;
    if (tx < 0 || ty < 0 || tx >= side || ty >= side) return Infinity;
    const target = ty * side + tx;
    const g = this.g;
    const seen = this.seen;
    const done = this.done;
    const start = cells * side + cells;
    g[start] = 0;
    seen[start] = run;
    this.size = 0;
    this.push(start, stepsBetween(cells, cells, tx, ty) * cs);
    while (this.size > 0) {
      const at = this.heapCell[0]!;
      this.pop();
      if (done[at] === run) continue;
      done[at] = run;
      this.settled++;
      const d = g[at]!;
      if (at === target) return d;
      const x = at % side;
      const y = (at - x) / side;
      const gc = this.c0 + x;
      const gr = this.r0 + y;
      for (let m = 0; m < MOVES; m++) {
        const nx = x + MOVE_X[m]!;
        const ny = y + MOVE_Y[m]!;
        if (nx < 0 || ny < 0 || nx >= side || ny >= side) continue;
        const k = ny * side + nx;
        if (done[k] === run) continue;
        const nd = d + MOVE_LENGTH[m]! * cs;
        if (seen[k] === run && nd >= g[k]!) continue;
        const f = nd + stepsBetween(nx, ny, tx, ty) * cs;
        if (f > bound) continue;
        if (!grid.isOpen(gc + MOVE_X[m]!, gr + MOVE_Y[m]!)) continue;
        // No corner cutting: the cells the step's segment crosses on its way must be open too.
        if (m >= 4 && (!grid.isOpen(gc + VIA_AX[m]!, gr + VIA_AY[m]!) || !grid.isOpen(gc + VIA_BX[m]!, gr + VIA_BY[m]!))) continue;
        g[k] = nd;
        seen[k] = run;
        // Among equal ways (open floor has many, the same steps in another order), the one nearest the
        // target first: the search then runs down one of them instead of widening over all.
        this.push(k, f - TIE * nd);
      }
    }
    return Infinity;
  }

  /** Meters from the last search's source to cell (c, r) along the best path it found, or Infinity. */
  at(c: number, r: number): number {
    const x = c - this.c0;
    const y = r - this.r0;
    if (x < 0 || y < 0 || x >= this.side || y >= this.side) return Infinity;
    const k = y * this.side + x;
    return this.seen[k] === this.run ? this.g[k]! : Infinity;
  }

  private push(cell: number, key: number): void {
    const size = this.size;
    if (size === this.heapCell.length) {
      const cellsGrown = new Int32Array(size * 2);
      cellsGrown.set(this.heapCell);
      const keysGrown = new Float64Array(size * 2);
      keysGrown.set(this.heapKey);
      this.heapCell = cellsGrown;
      this.heapKey = keysGrown;
    }
    const hc = this.heapCell;
    const hk = this.heapKey;
    let i = size;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (hk[parent]! <= key) break;
      hc[i] = hc[parent]!;
      hk[i] = hk[parent]!;
      i = parent;
    }
    hc[i] = cell;
    hk[i] = key;
    this.size = size + 1;
  }

  private pop(): void {
    const hc = this.heapCell;
    const hk = this.heapKey;
    const last = --this.size;
    const cell = hc[last]!;
    const key = hk[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && hk[child + 1]! < hk[child]!) child++;
      if (hk[child]! >= key) break;
      hc[i] = hc[child]!;
      hk[i] = hk[child]!;
      i = child;
    }
    hc[i] = cell;
    hk[i] = key;
  }
}
