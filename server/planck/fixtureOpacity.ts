import type { Fixture } from "planck";
import { integer } from "../../shared/validation/rangeChecks.js";

/**
 * Every collision category (planck has 16 bits): the opaque mask when none is given, so every fixture
 * blocks sight, and the mask of an `Occluders`, which holds only what blocks.
 * @internal
 */
export const EVERY_CATEGORY = 0xffff;

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

/**
 * An opaque mask as given (an integer in [0, 0xFFFF], planck's category bits); a RangeError naming
 * `field` otherwise. Vision and `Occluders.fromWorld` accept the same masks.
 * @internal
 */
export function checkOpaqueMask(field: string, mask: unknown): number {
  return integer(field, mask, 0, EVERY_CATEGORY);
}
