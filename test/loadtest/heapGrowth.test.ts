import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { HeapAfterGc } from "../../server/ops/heapAfterGc.js";
import { liveHeapGrowth } from "../../loadtest/report/serverSummary.js";

describe("heap growth is judged on the heap the major GCs leave", () => {
  it("reads the heap right after each major collection, and counts them", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as (options?: { type: "major" | "minor" }) => void;
    const monitor = new HeapAfterGc();
    try {
      expect(monitor.last).toBeNull();
      let garbage: number[][] | null = Array.from({ length: 2000 }, (_, i) => new Array(500).fill(i));
      const withGarbage = process.memoryUsage().heapUsed;
      garbage = null;
      gc({ type: "major" });
      gc({ type: "major" });
      await new Promise((resolve) => setTimeout(resolve, 50)); // GC entries are delivered asynchronously
      const reading = monitor.last!;
      expect(reading.count).toBeGreaterThanOrEqual(2);
      expect(reading.heapUsed).toBeGreaterThan(0);
      expect(reading.heapUsed).toBeLessThan(withGarbage - 4_000_000); // the 8 MB of arrays are gone
      expect(reading.atMs).toBeLessThanOrEqual(performance.now());
      gc({ type: "minor" });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(monitor.last!.count).toBe(reading.count); // scavenges are not counted
      expect(garbage).toBeNull();
    } finally {
      monitor.stop();
    }
  });

  it("compares the median post-GC heap of the first and last thirds, and says nothing on too few collections", () => {
    const mb = (m: number) => m * 1e6;
    const readings = [
      { atMs: 100, heapUsed: mb(80) }, { atMs: 200, heapUsed: mb(82) }, { atMs: 300, heapUsed: mb(81) },
      { atMs: 500, heapUsed: mb(200) }, // the middle third does not count
      { atMs: 700, heapUsed: mb(86) }, { atMs: 800, heapUsed: mb(90) }, { atMs: 1000, heapUsed: mb(88) },
      { atMs: 1200, heapUsed: mb(300) }, // after the run
    ];
    const growth = liveHeapGrowth(readings, 0, 1000);
    expect(growth.liveHeapMB).toEqual({ majorGcs: 7, firstThird: 81, lastThird: 88 });
    expect(growth.heapGrowthPercent).toBeCloseTo(8.6, 1);
    const few = liveHeapGrowth(readings.slice(0, 4).concat(readings.slice(5, 6)), 0, 1000);
    expect(few.heapGrowthPercent).toBeNull();
    expect(few.liveHeapMB.lastThird).toBe(90);
  });
});
