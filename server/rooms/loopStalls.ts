/**
 * When this process's event loop was blocked, as seen by a timer that should fire every `intervalMs`: each
 * firing later than that records the excess as a stall ending at the firing. A stall (a long GC pause, a
 * burst of catch-up steps, a slow handler) delays everything the loop reads, pongs included, so a round
 * trip measured across it says more about the server than about the client's network.
 *
 * The stall is placed at the end of the late interval: it cannot have ended later, and it may have
 * started earlier, so {@link blockedWithin} never over-counts a window that starts before the firing.
 * Allocation-free after construction (a ring of the last `capacity` stalls).
 */
export class LoopStalls {
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  private next = 0;
  private count = 0;
  private last = Number.NaN;

  /**
   * @param intervalMs how often {@link note} is meant to be called, ms (the room's fixed step)
   * @param capacity stalls remembered; older ones are forgotten (default 64)
   */
  constructor(readonly intervalMs: number, capacity = 64) {
    if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be positive (got ${intervalMs})`);
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
  }

  /**
   * The timer fired at `nowMs` (on the clock {@link blockedWithin} is asked about). Calls closer together
   * than the interval (catch-up steps run back to back) record nothing.
   */
  note(nowMs: number): void {
    const due = this.last + this.intervalMs;
    this.last = nowMs;
    this.late(due, nowMs);
  }

  /**
   * A timer due at `dueMs` fired at `nowMs`: for a clock that knows its grid (a `FixedStepClock`),
   * which moves its phase now and then and would otherwise read the move as a stall.
   */
  late(dueMs: number, nowMs: number): void {
    this.last = nowMs;
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
