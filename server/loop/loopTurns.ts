const NOTHING = (): void => {};

/** How a {@link LoopTurns} defers a turn (Node's `setImmediate` by default; a test passes its own). */
export type TurnScheduler = (run: () => void) => void;

/**
 * Runs the rooms' firings one per turn of the event loop, in the order they fell due.
 *
 * Node runs every timer that is due in one go. When the loop falls behind (a collection pause, a burst of
 * socket reads), several rooms come due together and their firings ran back to back: a stretch of
 * several rooms' steps and patches during which no socket was read, no pong answered and no other timer
 * served. Queued here instead, each firing runs in its own turn (`setImmediate`), so between two rooms the
 * loop reads its sockets and serves its timers: what waits, waits for one room's firing, not for a convoy.
 * The total work is the same; the rooms that came due together still run one after another, in due order,
 * and how late each firing ran is reported by the room (its firing lateness).
 */
export class LoopTurns {
  /** The turns of this process's rooms (what {@link FixedStepClock} uses unless told otherwise). */
  static readonly shared = new LoopTurns();

  /** A ring of queued work: `count` items from `head`, grown by doubling (rooms are few). */
  private ring: (() => void)[] = new Array<() => void>(16).fill(NOTHING);
  private head = 0;
  private count = 0;
  private scheduled = false;

  /** @param schedule how to defer a turn (default `setImmediate`) */
  constructor(private readonly schedule: TurnScheduler = (run) => void setImmediate(run)) {}

  /** Queues `work` to run in a turn of its own, after the work queued before it. */
  enqueue(work: () => void): void {
    if (this.count === this.ring.length) this.grow();
    this.ring[(this.head + this.count) % this.ring.length] = work;
    this.count++;
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(this.runOne);
    }
  }

  /** Takes `work` out of the queue if it is waiting (its turn is then an empty one). */
  cancel(work: () => void): void {
    for (let i = 0; i < this.count; i++) {
      const at = (this.head + i) % this.ring.length;
      if (this.ring[at] === work) this.ring[at] = NOTHING;
    }
  }

  /** Work waiting for its turn. */
  get waiting(): number {
    return this.count;
  }

  private grow(): void {
    const ring = new Array<() => void>(this.ring.length * 2).fill(NOTHING);
    for (let i = 0; i < this.count; i++) ring[i] = this.ring[(this.head + i) % this.ring.length]!;
    this.ring = ring;
    this.head = 0;
  }

  private readonly runOne = (): void => {
    const work = this.ring[this.head]!;
    this.ring[this.head] = NOTHING;
    this.head = (this.head + 1) % this.ring.length;
    this.count--;
    try {
      work();
    } finally {
      if (this.count > 0) this.schedule(this.runOne);
      else this.scheduled = false;
    }
  };
}

