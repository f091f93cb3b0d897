/** Median of a list of numbers (the list is sorted in place). */
export function median(values: number[]): number {
  return percentile(values, 0.5);
}

/**
 * The p-quantile (0..1) of a list, nearest-rank on the sorted list (sorted in place); NaN when empty.
 * The median of an even-length list averages the two middle values.
 */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  values.sort((a, b) => a - b);
  if (p === 0.5 && values.length % 2 === 0) {
    const mid = values.length >> 1;
    return (values[mid - 1]! + values[mid]!) / 2;
  }
  return values[Math.min(values.length - 1, Math.ceil(p * values.length) - 1 < 0 ? 0 : Math.ceil(p * values.length) - 1)]!;
}
