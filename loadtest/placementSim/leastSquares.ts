/** An ordinary least-squares fit and how well it fits the data it was fitted on. */
export interface Fit {
  /** One coefficient per column of the design rows. */
  coefficients: number[];
  /** 1 - residual / total sum of squares (the total about the mean, also for a fit without intercept). */
  rSquared: number;
  /** Mean absolute residual, in the unit of y. */
  meanAbsError: number;
}

/**
 * Least squares of `y` on the design rows `x` (each row one observation, no intercept column unless the
 * caller adds one), through the normal equations: the models here have two or three columns, where their
 * conditioning is no concern. Throws when the columns are linearly dependent over the data.
 */
export function leastSquares(x: readonly (readonly number[])[], y: readonly number[]): Fit {
  const k = x[0]?.length ?? 0;
  if (k === 0 || x.length !== y.length || x.length < k) throw new RangeError(`leastSquares needs at least ${k} rows of ${k} columns, one y each (got ${x.length} rows, ${y.length} y)`);
  const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const aty = new Array<number>(k).fill(0);
  for (let i = 0; i < x.length; i++) {
    const row = x[i]!;
    for (let a = 0; a < k; a++) {
      aty[a]! += row[a]! * y[i]!;
      for (let b = 0; b < k; b++) ata[a]![b]! += row[a]! * row[b]!;
    }
  }
  const coefficients = solve(ata, aty);
  let mean = 0;
  for (const v of y) mean += v / y.length;
  let residual = 0;
  let total = 0;
  let absolute = 0;
  for (let i = 0; i < x.length; i++) {
    const e = y[i]! - predict(coefficients, x[i]!);
    residual += e * e;
    absolute += Math.abs(e);
    total += (y[i]! - mean) ** 2;
  }
  return { coefficients, rSquared: 1 - residual / total, meanAbsError: absolute / y.length };
}

/** The fitted value for one design row. */
export function predict(coefficients: readonly number[], row: readonly number[]): number {
  let sum = 0;
  for (let a = 0; a < coefficients.length; a++) sum += coefficients[a]! * row[a]!;
  return sum;
}

/** Gaussian elimination with partial pivoting (the matrix is copied, not changed). */
function solve(matrix: readonly (readonly number[])[], rhs: readonly number[]): number[] {
  const n = rhs.length;
  const m = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) throw new RangeError("leastSquares: the columns are linearly dependent over these rows");
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const out = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let c = r + 1; c < n; c++) s -= m[r]![c]! * out[c]!;
    out[r] = s / m[r]![r]!;
  }
  return out;
}
