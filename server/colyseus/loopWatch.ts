import { LoopStalls } from "./loopStalls.js";

/** The timer functions a {@link LoopWatch} uses (Node's by default; a test passes its own). @internal */
export interface WatchTimers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: WatchTimers = {
  // Unref'd: watching the loop must never be what keeps a process alive.
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Watches this process's event loop for stalls, whatever game loop its rooms run (`setFixedTimestep`,
 * `setTimestep`, their own timers, or none): a timer aimed at a fixed grid of times records each firing
 * later than `thresholdMs` as a stall in {@link stalls}. Round trips measured across a stall are
 * discounted by it, because the pong waited in the socket for the server, not on the network.
 *
 * One per process ({@link shared}), started by the first room that needs it and stopped when the last
 * releases it: 1000 / `periodMs` wake-ups a second, whatever the number of rooms.
 * @internal
 */
export class LoopWatch {
  private static instance: LoopWatch | undefined;
  /** The stalls seen so far (the last 256). */
  readonly stalls = new LoopStalls(256);
  private users = 0;
  private timer: unknown;
  private due = 0;

  /**
   * @param periodMs time between the timer's grid times, ms (default 20)
   * @param thresholdMs lateness below this is timer jitter, not a stall, ms (default 4)
   */
  constructor(
    readonly periodMs = 20,
    readonly thresholdMs = 4,
    private readonly now: () => number = () => performance.now(),
    private readonly timers: WatchTimers = NODE_TIMERS,
  ) {}

  /** The process's watch. */
  static shared(): LoopWatch {
    return (LoopWatch.instance ??= new LoopWatch());
  }

  /** Starts watching (if nobody was); call the returned function once to stop needing it. */
  acquire(): () => void {
    if (this.users++ === 0) {
      this.due = this.now() + this.periodMs;
      this.schedule();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.users === 0 && this.timer !== undefined) {
        this.timers.clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  /**
   * Milliseconds the loop was blocked within [fromMs, toMs] (on `performance.now`'s clock), the stall in
   * progress included: after a stall, Node may run I/O (a pong) before this watch's overdue timer, so a
   * timer that is late now counts as blocked from its due time, though it has not fired yet.
   */
  blockedWithin(fromMs: number, toMs: number): number {
    let blocked = this.stalls.blockedWithin(fromMs, toMs);
    if (this.users > 0) {
      const now = this.now();
      if (now - this.due > this.thresholdMs) {
        const overlap = Math.min(toMs, now) - Math.max(fromMs, this.due);
        if (overlap > 0) blocked += overlap;
      }
    }
    return blocked;
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(this.onTimer, Math.max(0, this.due - this.now()));
  }

  private readonly onTimer = (): void => {
    const now = this.now();
    if (now - this.due > this.thresholdMs) this.stalls.late(this.due, now);
    this.due += this.periodMs;
    // After a stall, aim at the next grid time ahead rather than firing the missed ones in a burst.
    if (this.due <= now) this.due += Math.ceil((now - this.due) / this.periodMs + 1e-9) * this.periodMs;
    this.schedule();
  };
}
