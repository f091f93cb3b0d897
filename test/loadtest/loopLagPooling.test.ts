import { describe, expect, it } from "vitest";
import { EventLoopLag } from "../../server/ops/eventLoopLag.js";
import { pooledPercentile } from "../../loadtest/report/serverSummary.js";

/** A window of `n` samples whose distribution is exactly `lags` (ascending). */
function windowOf(lags: number[]): { samples: number; p99: number; max: number; distribution: [number, number][] } {
  const distribution = lags.map((lag, i) => [lag, (i + 1) / lags.length] as [number, number]);
  return { samples: lags.length, p99: lags[Math.ceil(0.99 * lags.length) - 1]!, max: lags[lags.length - 1]!, distribution };
}

describe("loop lag over a run, pooled from its windows", () => {
  it("one bad window among many moves the run's p99 only as much as its share of the samples", () => {
    const calm = Array.from({ length: 100 }, (_, i) => 1 + i / 100); // 1 .. 1.99 ms
    const bad = Array.from({ length: 100 }, (_, i) => (i < 95 ? 2 : 60 + i)); // 5 samples near 150 ms
    const windows = [...Array.from({ length: 9 }, () => windowOf(calm)), windowOf(bad)];
    expect(Math.max(...windows.map((w) => w.p99))).toBeGreaterThan(150); // the worst window's p99
    // 1000 samples: the 10 largest are the bad window's 5 stalls and 5 of its 2 ms; p99 is 2 ms.
    expect(pooledPercentile(windows, 0.99)).toBe(2);
    // With half the windows bad, the stalls are 2.5% of the samples: the p99 is a stall.
    const half = [...Array.from({ length: 5 }, () => windowOf(calm)), ...Array.from({ length: 5 }, () => windowOf(bad))];
    expect(pooledPercentile(half, 0.99)).toBeGreaterThan(150);
  });

  it("agrees with the exact percentile of the pooled samples when every sample is a step", () => {
    const a = [3, 5, 8, 13, 21];
    const b = [1, 2, 2, 4, 40, 41, 42];
    const all = [...a, ...b].sort((x, y) => x - y);
    for (const q of [0.1, 0.5, 0.75, 0.9, 1]) {
      expect(pooledPercentile([windowOf(a), windowOf(b)], q)).toBe(all[Math.ceil(q * all.length) - 1]);
    }
  });

  it("a window from the live monitor carries its distribution, ascending, ending at 1", async () => {
    const lag = new EventLoopLag(60, 1);
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const until = performance.now() + 15;
      while (performance.now() < until); // one 15 ms stall
      await new Promise((resolve) => setTimeout(resolve, 30));
      const w = lag.current();
      expect(w.samples).toBeGreaterThan(10);
      const d = w.distribution;
      expect(d.length).toBeGreaterThan(2);
      for (let i = 1; i < d.length; i++) {
        expect(d[i]![0]).toBeGreaterThanOrEqual(d[i - 1]![0]);
        expect(d[i]![1]).toBeGreaterThanOrEqual(d[i - 1]![1]);
      }
      expect(d[d.length - 1]![1]).toBe(1);
      expect(d[d.length - 1]![0]).toBeCloseTo(w.max, 1); // the histogram keeps 3 significant digits
      expect(w.max).toBeGreaterThan(10);
      expect(pooledPercentile([w], 1)).toBeCloseTo(w.max, 1);
    } finally {
      lag.stop();
    }
  });
});
