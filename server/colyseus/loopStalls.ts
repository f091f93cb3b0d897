import { integer } from "../../shared/validation/rangeChecks.js";

/**
 * When this process's event loop was blocked, as seen by a timer that knows when it was due (a
 * {@link LoopWatch}): each firing later than its grid time records the lateness as a stall ending at the
 * firing. A stall (a long GC pause, a burst of catch-up steps, a slow handler) delays everything the loop
 * reads, pongs included, so a round trip measured across it says more about the server than about the
 * client's network.
 *
 * The stall is placed from the due time to the firing: it cannot have ended later, and it may have started
 * earlier, so {@link blockedWithin} never over-counts a window that starts before the firing. Because the
 * lateness is taken from the grid, a clock that moves its phase records no stall.
 * Allocation-free after construction (a ring of the last `capacity` stalls).
 * @internal
 */
export class LoopStalls {
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  private next = 0;
  private count = 0;

  /** @param capacity stalls remembered; older ones are forgotten (default 64) */
  constructor(capacity = 64) {
    integer("LoopStalls capacity", capacity, 1);
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
  }

  /** A timer due at `dueMs` fired at `nowMs` (on the clock {@link blockedWithin} is asked about). */
  late(dueMs: number, nowMs: number): void {
    if (!(nowMs > dueMs)) return;
    this.starts[this.next] = dueMs;
    this.ends[this.next] = nowMs;
    this.next = (this.next + 1) % this.starts.length;
    if (this.count < this.starts.length) this.count++;
  }

  /** Milliseconds of recorded stalls inside [fromMs, toMs]. */
  blockedWithin(fromMs: number, toMs: number): number {
    let blocked = 0;
    for (let i = 0; i < this.count; i++) {
      const overlap = Math.min(toMs, this.ends[i]!) - Math.max(fromMs, this.starts[i]!);
      if (overlap > 0) blocked += overlap;
    }
    return blocked;
  }
}
