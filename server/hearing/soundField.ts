import type { SoundGrid } from "./soundGrid.js";

/** Reaches are rounded up to this many cells, so noises of nearby loudness share a field. */
const REACH_STEP = 8;

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

/**
 * How far sound travels from one open cell to the open cells around it, through open cells only: a
 * Dijkstra over 16 steps per cell (see `MOVE_X`), each taken only where every cell it crosses is open, so
 * every distance is the length of a real path between cell centres and never shorter than the true
 * shortest one. Callers take the straight line itself whenever it is clear.
 *
 * Grown lazily: {@link settle} expands it only until the cell asked about is final, and a later query
 * (the next footstep from the same cell, another listener) carries on from where it stopped. Most
 * listeners of a noise stand near it; the far edge of earshot is rarely paid for.
 * @internal
 */
export class SoundField {
  /** Grid column and row of the window's first cell, and the window's side in cells. */
  c0 = 0;
  r0 = 0;
  side = 0;
  /** The source cell. */
  sc = 0;
  sr = 0;
  /**
   * Meters from the source cell's centre, per window cell, along the best path found so far (final once
   * settled); Infinity where none is known.
   */
  g: Float32Array = new Float32Array(0);
  private done: Uint8Array = new Uint8Array(0);
  private heapCell = new Int32Array(256);
  private heapKey = new Float64Array(256);
  private size = 0;
  private limit = 0;

  constructor(private readonly grid: SoundGrid) {}

  /** Starts the field afresh from open cell (sc, sr), reaching `cells` cells. */
  reset(sc: number, sr: number, cells: number): void {
    const side = 2 * cells + 1;
    const n = side * side;
    if (this.g.length !== n) {
      this.g = new Float32Array(n);
      this.done = new Uint8Array(n);
    }
    this.g.fill(Infinity);
    this.done.fill(0);
    this.c0 = sc - cells;
    this.r0 = sr - cells;
    this.side = side;
    this.sc = sc;
    this.sr = sr;
    this.limit = cells * this.grid.cellSize;
    const start = cells * side + cells;
    this.g[start] = 0;
    this.size = 0;
    this.push(start, 0);
  }

  /** Meters from the source cell's centre to the centre of cell (c, r) along the best path known, or Infinity. */
  at(c: number, r: number): number {
    const x = c - this.c0;
    const y = r - this.r0;
    if (x < 0 || y < 0 || x >= this.side || y >= this.side) return Infinity;
    return this.g[y * this.side + x]!;
  }

  /** Grows the field until cell (c, r) is final, or sound cannot reach it within the field. */
  settle(c: number, r: number): void {
    const x = c - this.c0;
    const y = r - this.r0;
    if (x < 0 || y < 0 || x >= this.side || y >= this.side) return;
    const k = y * this.side + x;
    const done = this.done;
    while (done[k] === 0 && this.size > 0) this.expand();
  }

  /** Settles the nearest cell not yet final and relaxes the steps out of it. */
  private expand(): void {
    const at = this.heapCell[0]!;
    const d = this.heapKey[0]!;
    this.pop();
    const done = this.done;
    if (done[at] === 1) return;
    done[at] = 1;
    const grid = this.grid;
    const side = this.side;
    const g = this.g;
    const cs = grid.cellSize;
    const x = at % side;
    const y = (at - x) / side;
    const gc = this.c0 + x;
    const gr = this.r0 + y;
    for (let m = 0; m < MOVES; m++) {
      const nx = x + MOVE_X[m]!;
      const ny = y + MOVE_Y[m]!;
      if (nx < 0 || ny < 0 || nx >= side || ny >= side) continue;
      const k = ny * side + nx;
      if (done[k] === 1 || !grid.isOpen(gc + MOVE_X[m]!, gr + MOVE_Y[m]!)) continue;
      // No corner cutting: the cells the step's segment crosses on its way must be open too.
      if (m >= 4 && (!grid.isOpen(gc + VIA_AX[m]!, gr + VIA_AY[m]!) || !grid.isOpen(gc + VIA_BX[m]!, gr + VIA_BY[m]!))) continue;
      const nd = d + MOVE_LENGTH[m]! * cs;
      if (nd > this.limit || nd >= g[k]!) continue;
      g[k] = nd;
      this.push(k, nd);
    }
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

/**
 * Sound fields by source cell, started on demand and kept (least recently used first out) while the grid
 * does not change: footsteps along a patrol, or in a room a player keeps to, start from the same cells
 * again and again, and each carries on growing where the last query left it.
 * @internal
 */
export class SoundFields {
  private readonly cache = new Map<number, SoundField>();
  private version: number;
  /** Fields started (cache misses) and answered from the cache, since construction. */
  computed = 0;
  reused = 0;

  constructor(private readonly grid: SoundGrid, private readonly capacity: number) {
    this.version = grid.version;
  }

  /** The field from open cell (c, r), reaching at least `reach` meters. */
  get(c: number, r: number, reach: number): SoundField {
    if (this.grid.version !== this.version) {
      this.cache.clear();
      this.version = this.grid.version;
    }
    const cells = Math.ceil(Math.ceil(reach / this.grid.cellSize + 1) / REACH_STEP) * REACH_STEP;
    const key = ((r + 0x8000) * 0x10000 + (c + 0x8000)) * 0x400 + Math.min(cells, 0x3ff);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.reused++;
      return hit;
    }
    let field: SoundField | undefined;
    if (this.cache.size >= this.capacity) {
      const oldest = this.cache.keys().next().value!;
      field = this.cache.get(oldest);
      this.cache.delete(oldest);
    }
    field ??= new SoundField(this.grid);
    field.reset(c, r, cells);
    this.cache.set(key, field);
    this.computed++;
    return field;
  }
}
