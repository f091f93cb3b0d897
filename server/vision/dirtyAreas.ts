/**
 * Dirty areas: the boxes where sight changed since the last tick (occluders that appeared, vanished,
 * moved or changed filter, and `invalidateArea`). Kept apart from the scheduler because two producers
 * feed it between ticks (the sight medium's change events and the user) while the scheduler only asks,
 * once per observer, whether its reach overlaps one of them.
 */

/** Changed areas tracked one by one per tick before the engine just marks everyone pending. */
const MAX_DIRTY_AREAS = 64;

/** The changed boxes of one tick, meters. @internal */
export class DirtyAreas {
  /** Occluder changes reported since the last tick, as flat (minX, minY, maxX, maxY) boxes. */
  private readonly boxes: number[] = [];

  /**
   * Records a changed area for the next scan. Past {@link MAX_DIRTY_AREAS} in one tick (a crowd of moving
   * occluders) every observer is simply marked pending: checking each observer against every box would
   * cost more than the re-evaluations it saves.
   */
  mark(minX: number, minY: number, maxX: number, maxY: number): void {
    const a = this.boxes;
    if (a.length === 4 && a[0] === -Infinity && a[2] === Infinity) return; // already everywhere
    if (a.length >= 4 * MAX_DIRTY_AREAS) {
      a.length = 0;
      a.push(-Infinity, -Infinity, Infinity, Infinity);
      return;
    }
    a.push(minX, minY, maxX, maxY);
  }

  /** Whether a change reported since the last tick overlaps the square of half side `reach` around (x, y). */
  overlap(x: number, y: number, reach: number): boolean {
    const a = this.boxes;
    if (a.length === 0) return false;
    for (let i = 0; i < a.length; i += 4) {
      if (a[i]! <= x + reach && a[i + 2]! >= x - reach && a[i + 1]! <= y + reach && a[i + 3]! >= y - reach) return true;
    }
    return false;
  }

  /** Forgets the boxes once every observer has been scanned against them. */
  clear(): void {
    this.boxes.length = 0;
  }
}
