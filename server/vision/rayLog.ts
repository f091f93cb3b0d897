import { inRange } from "../../shared/validation/rangeChecks.js";

/**
 * The sight rays cast during one tick, for debug drawing (a spectator view shows them) and for
 * benchmarks that replay exactly the rays the engine needed. Stored flat in a growable typed array:
 * recording allocates only when the log outgrows its capacity.
 */
export class RayLog {
  private data = new Float64Array(5 * 256);
  /** Rays recorded since the last `clear()`. */
  count = 0;

  clear(): void {
    this.count = 0;
  }

  push(x1: number, y1: number, x2: number, y2: number, clear: boolean): void {
    let i = this.count * 5;
    if (i + 5 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[i++] = x1;
    d[i++] = y1;
    d[i++] = x2;
    d[i++] = y2;
    d[i] = clear ? 1 : 0;
    this.count++;
  }

  /**
   * Ray `i` from the eye (x1, y1) to where it ended (x2, y2), meters: the sample point, or where it first
   * met the target's body. `clear` is false when a blocker crossed it.
   */
  get(i: number): { x1: number; y1: number; x2: number; y2: number; clear: boolean } {
    if (!(i >= 0 && i < this.count)) inRange("RayLog.get i", i, 0, this.count, "", "[)");
    const d = this.data;
    const j = i * 5;
    return { x1: d[j]!, y1: d[j + 1]!, x2: d[j + 2]!, y2: d[j + 3]!, clear: d[j + 4] === 1 };
  }

  /** Raw access without allocation: component `k` (0..4 = x1, y1, x2, y2, clear) of ray `i`. */
  at(i: number, k: number): number {
    return this.data[i * 5 + k]!;
  }
}
