/** Median of a list of numbers (the list is sorted in place). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}
