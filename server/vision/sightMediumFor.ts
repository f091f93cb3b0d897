import { World } from "planck";
import { Occluders } from "../occluders/occluders.js";
import { EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import { isPlanckLike } from "../planck/internals.js";
import { fail } from "../../shared/validation/rangeChecks.js";
import { LineOfSight } from "./lineOfSight.js";
import { OccluderSight } from "./occluderSight.js";
import type { SightMedium } from "./sightMedium.js";

/**
 * The medium a `VisionSystem` casts through, from what the user passed: a planck `World` or an
 * `Occluders`. Anything else fails here, with the likely cause, rather than deep inside a tick.
 * @internal
 */
export function sightMediumFor(source: unknown, opaqueMask: number | undefined): SightMedium {
  if (source instanceof Occluders) {
    if (opaqueMask !== undefined) fail("VisionOptions.opaqueMask", "applies to a planck World only: an Occluders holds only what blocks sight", opaqueMask);
    return new OccluderSight(source);
  }
  if (source instanceof World) return new LineOfSight(source, opaqueMask ?? EVERY_CATEGORY);
  if (isPlanckLike(source, "getBodyList")) {
    throw new RangeError(
      "VisionSystem world is a planck World from another copy of planck than the one sightline imports " +
        "(two installs, or planck's CommonJS and ES module builds side by side): its bodies and fixtures would not be recognised. " +
        "Make your code and sightline resolve the same planck (`npm ls planck`; import it, do not require it).",
    );
  }
  return fail("VisionSystem world", "must be a planck World or an Occluders (from sightline/occluders)", source);
}
