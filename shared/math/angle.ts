const TWO_PI = Math.PI * 2;

/**
 * Wraps an angle into (-PI, PI]. Radians in, radians out; non-finite input comes back as NaN.
 */
export function wrapAngle(angle: number): number {
  if (angle > -Math.PI && angle <= Math.PI) return angle;
  let a = (angle + Math.PI) % TWO_PI;
  if (a <= 0) a += TWO_PI;
  return a - Math.PI;
}

/**
 * Unsigned angle in [0, PI] between two directions given as angles in radians.
 */
export function angularDistance(a: number, b: number): number {
  return Math.abs(wrapAngle(a - b));
}
