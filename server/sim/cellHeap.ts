/**
 * A binary min-heap of grid cells keyed by a number (A*'s open set: cell index by f-score). Its typed
 * arrays grow by doubling and are kept across searches, so a search allocates nothing once warm.
 */
export class CellHeap {
  /** Cells queued. */
  size = 0;
  private cells = new Int32Array(64);
  private keys = new Float64Array(64);

  /** Empties the heap (keeping its storage). */
  clear(): void {
    this.size = 0;
  }

  /** Queues cell `c` with key `f`. */
  push(c: number, f: number): void {
    if (this.size === this.cells.length) {
      const cells = new Int32Array(this.cells.length * 2);
      cells.set(this.cells);
      const keys = new Float64Array(this.keys.length * 2);
      keys.set(this.keys);
      this.cells = cells;
      this.keys = keys;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p]! <= f) break;
      this.cells[i] = this.cells[p]!;
      this.keys[i] = this.keys[p]!;
      i = p;
    }
    this.cells[i] = c;
    this.keys[i] = f;
  }

  /** Removes and returns the cell with the smallest key (the heap must not be empty). */
  pop(): number {
    const top = this.cells[0]!;
    const last = this.cells[--this.size]!;
    const lastF = this.keys[this.size]!;
    let i = 0;
    const n = this.size;
    while (true) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= lastF) break;
      this.cells[i] = this.cells[child]!;
      this.keys[i] = this.keys[child]!;
      i = child;
    }
    this.cells[i] = last;
    this.keys[i] = lastF;
    return top;
  }
}
