import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

/** The heap as the last full collection left it. */
export interface HeapAfterGcReading {
  /** Heap used right after the last major (mark-compact) collection, bytes: the live heap, near enough. */
  heapUsed: number;
  /** When that collection ended, ms on `performance.now()`'s clock. */
  atMs: number;
  /** Major collections seen since the monitor started (a reader polling slower sees which ones it missed). */
  count: number;
}

/**
 * The heap used right after each major garbage collection, from `perf_hooks` GC entries. Sampling
 * `heapUsed` at arbitrary times mostly measures garbage not yet collected (under load here the heap swings
 * between about 90 and 400 MB between full collections while the live part stays near 85 MB), so memory
 * growth is judged on these readings instead. Nothing is forced: the collections are the ones V8 chose.
 *
 * The reading is taken when the observer's callback runs, shortly after the collection: the little
 * allocated in between counts as live.
 */
export class HeapAfterGc {
  private readonly observer: PerformanceObserver;
  private latest: HeapAfterGcReading | null = null;
  private count = 0;

  constructor() {
    this.observer = new PerformanceObserver((list) => {
      // Entries arrive in batches: count each collection, read the heap once for the newest.
      let major: PerformanceEntry | undefined;
      for (const entry of list.getEntries()) {
        if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
        major = entry;
        this.count++;
      }
      if (major === undefined) return;
      this.latest = { heapUsed: process.memoryUsage().heapUsed, atMs: major.startTime + major.duration, count: this.count };
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /** The last major collection's reading, or null before the first. */
  get last(): HeapAfterGcReading | null {
    return this.latest;
  }

  /** Stops observing. */
  stop(): void {
    this.observer.disconnect();
  }
}
