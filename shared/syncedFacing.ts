/**
 * Facings are synced in steps of this many radians: 1/1024 of a turn, about 0.35 degrees (12 cm of a
 * cone's edge at 20 m). A walking guard corrects its course a little nearly every tick, so its facing
 * drifts by hundredths of a degree that no screen shows; synced exactly, each drift was a change recorded
 * and encoded for every view holding the guard, and bytes to each of those clients.
 */
export const FACING_STEP = (2 * Math.PI) / 1024;

/** A facing as it is synced, radians: rounded to the nearest {@link FACING_STEP}. */
export function syncedFacing(radians: number): number {
  return Math.round(radians / FACING_STEP) * FACING_STEP;
}
