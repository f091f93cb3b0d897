const HASH_BUCKETS = 4096;

/**
 * Entity slots bucketed by a spatial hash of their cell, rebuilt from scratch at every update by a
 * counting sort (no per-entity allocation, no removal bookkeeping). A bucket may hold entities of
 * several cells that hash alike; readers re-check distances anyway.
 * @internal
 */
export class EntityGrid {
  /** Bucket b holds items[start[b] .. start[b + 1]). */
  readonly start = new Int32Array(HASH_BUCKETS + 1);
  items = new Int32Array(0);
  private readonly fill = new Int32Array(HASH_BUCKETS);
  /** Cell side, meters, of the last rebuild. */
  cellSize = 1;

  /** Buckets the live slots (an id in `ids`) of [0, capacity) by the cells of side `cellSize` their (x, y) fall in. */
  rebuild(capacity: number, ids: readonly (string | undefined)[], x: Float64Array, y: Float64Array, cellSize: number): void {
    if (this.items.length < capacity) this.items = new Int32Array(capacity);
    this.cellSize = cellSize;
    const start = this.start;
    start.fill(0);
    for (let s = 0; s < capacity; s++) {
      if (ids[s] === undefined) continue;
      start[bucketOf(Math.floor(x[s]! / cellSize), Math.floor(y[s]! / cellSize)) + 1]!++;
    }
    for (let b = 0; b < HASH_BUCKETS; b++) start[b + 1]! += start[b]!;
    const fill = this.fill;
    fill.set(start.subarray(0, HASH_BUCKETS));
    for (let s = 0; s < capacity; s++) {
      if (ids[s] === undefined) continue;
      this.items[fill[bucketOf(Math.floor(x[s]! / cellSize), Math.floor(y[s]! / cellSize))]!++] = s;
    }
  }

  /** The bucket of cell (col, row). */
  bucket(col: number, row: number): number {
    return bucketOf(col, row);
  }
}

function bucketOf(col: number, row: number): number {
  return (Math.imul(col, 73856093) ^ Math.imul(row, 19349663)) & (HASH_BUCKETS - 1);
}
