import { monitorEventLoopDelay, type ELDHistogram } from "node:perf_hooks";

/** Event-loop lag over one window, milliseconds. */
export interface LagWindow {
  /** Counts up by one per completed window, so a reader polling faster than windows end sees each once. */
  seq: number;
  /** When the window ended, ms on `performance.now()`'s clock (of the server process). */
  endedAtMs: number;
  p50: number;
  p99: number;
  max: number;
  /** Timer firings measured. */
  samples: number;
  /**
   * The window's whole distribution as `[lag ms, fraction of samples at or below it]` pairs, ascending
   * (the histogram's percentile steps, a few dozen): windows can then be pooled into one percentile over a
   * longer span, which their p99s alone cannot give.
   */
  distribution: [number, number][];
}

/**
 * Event-loop lag of this process, from `perf_hooks.monitorEventLoopDelay`, in fixed windows: how late a
 * timer that should fire every `resolutionMs` actually fired. It is what room timers feel: Colyseus
 * broadcasts patches from a `setInterval` and runs the fixed step from another, so when the loop is busy
 * both fire late, the step catches up (hiding it from tick time) and the patch rate falls.
 *
 * The histogram records the whole interval between firings; the resolution is subtracted, so an idle loop
 * reads about 0.
 */
export class EventLoopLag {
  private readonly histogram: ELDHistogram;
  private readonly timer: NodeJS.Timeout;
  private completed: LagWindow | null = null;
  private seq = 0;

  /**
   * @param windowSeconds length of a window, seconds (default 5)
   * @param resolutionMs sampling interval, ms (default 10; Node's minimum is 1)
   */
  constructor(readonly windowSeconds = 5, readonly resolutionMs = 10) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.completed = this.read(++this.seq);
      this.histogram.reset();
    }, windowSeconds * 1000);
    // Measuring the loop must never be what keeps a process alive.
    this.timer.unref();
  }

  /** The last completed window, or null before the first one ends. */
  get last(): LagWindow | null {
    return this.completed;
  }

  /** The window in progress (seq 0 marks it as partial). */
  current(): LagWindow {
    return this.read(0);
  }

  /** Stops measuring: the window timer and the histogram. */
  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private read(seq: number): LagWindow {
    const h = this.histogram;
    const lag = (ns: number) => (h.count === 0 ? 0 : Math.max(0, ns / 1e6 - this.resolutionMs));
    const distribution: [number, number][] = [];
    if (h.count > 0) for (const [percentile, ns] of h.percentiles) distribution.push([lag(ns), percentile / 100]);
    return { seq, endedAtMs: performance.now(), p50: lag(h.percentile(50)), p99: lag(h.percentile(99)), max: lag(h.max), samples: h.count, distribution };
  }
}
