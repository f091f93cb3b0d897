import { median as medianInPlace } from "../bench/percentile.js";

/** Quantiles of a per-room figure, or of loop-lag windows, ms. */
export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

/** p50, p99 and max of samples pooled from several rooms (zeros for none). */
export function pooled(samples: number[]): Spread {
  if (samples.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = samples.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: round(at(0.5), 3), p99: round(at(0.99), 3), max: round(sorted.at(-1)!, 3) };
}

/** p50, p99 and max of samples (ms) with their count; null for none. */
export function samplesSpread(samples: readonly number[]): (Spread & { samples: number }) | null {
  return samples.length === 0 ? null : { ...pooled([...samples]), samples: samples.length };
}

/** The median of a (fresh) list, 0 when empty. */
export function median(values: number[]): number {
  return values.length === 0 ? 0 : medianInPlace(values);
}

/** A figure rounded to `digits` decimals for the report (non-finite values as they are). */
export function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
