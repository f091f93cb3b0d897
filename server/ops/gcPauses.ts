import { PerformanceObserver } from "node:perf_hooks";

/**
 * The process's recent garbage-collection pauses, from `perf_hooks` GC entries (start and end on
 * `performance.now()`'s clock, the last 256), so a duration measured on the loop can say how much of it
 * was the collector's. Entries arrive shortly after each collection, so ask about intervals that ended
 * a moment ago. One per process ({@link shared}).
 */
export class GcPauses {
  private static instance: GcPauses | undefined;
  private readonly starts = new Float64Array(256);
  private readonly ends = new Float64Array(256);
  private next = 0;
  private count = 0;
  private readonly observer: PerformanceObserver;

  private constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.starts[this.next] = entry.startTime;
        this.ends[this.next] = entry.startTime + entry.duration;
        this.next = (this.next + 1) % this.starts.length;
        if (this.count < this.starts.length) this.count++;
      }
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  static shared(): GcPauses {
    return (GcPauses.instance ??= new GcPauses());
  }

  /** Milliseconds of collection pauses within [fromMs, toMs]. */
  within(fromMs: number, toMs: number): number {
    let paused = 0;
    for (let i = 0; i < this.count; i++) {
      const overlap = Math.min(toMs, this.ends[i]!) - Math.max(fromMs, this.starts[i]!);
      if (overlap > 0) paused += overlap;
    }
    return paused;
  }
}
