import type { Fixture } from "planck";

/**
 * The one rule for whether a planck fixture stands in the way of sight: it is not a sensor and its
 * collision category intersects the opaque mask (so glass is a fixture on a category outside the mask).
 * The vision engine's rays and the occluders read from a world both apply it, so what a guard sees and
 * what culling sends cannot disagree about a fixture.
 * @internal
 */
export function blocksSight(fixture: Fixture, opaqueMask: number): boolean {
  return !fixture.isSensor() && (fixture.getFilterCategoryBits() & opaqueMask) !== 0;
}
