/**
 * The engine's options: their defaults and their validation, resolved once by the facade and read by the
 * scheduler and the sight rule. Apart so those units take the resolved options without reaching into the
 * class that builds them.
 */
import { checkOpaqueMask, EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import type { VisionOptions } from "./types.js";
import { inRange, nonNegative, object, positive } from "../../shared/validation/rangeChecks.js";

/** Defaults of every {@link VisionOptions} field. */
export const DEFAULT_VISION_OPTIONS = Object.freeze({
  opaqueMask: EVERY_CATEGORY,
  recordRays: false,
  raysPerTick: 256,
  agingRate: 0.25,
  timeBudgetUs: Infinity,
  loseRangeMargin: 0.1,
  loseAngleMargin: (5 * Math.PI) / 180,
  blockerCache: true,
});

/** The options with every default filled in; a RangeError naming the first bad field. @internal */
export function checkOptions(options: VisionOptions): Required<VisionOptions> {
  object("VisionOptions", options);
  const o = { ...DEFAULT_VISION_OPTIONS, ...options } as Required<VisionOptions>;
  checkOpaqueMask("VisionOptions.opaqueMask", o.opaqueMask);
  inRange("VisionOptions.raysPerTick", o.raysPerTick, 0, Infinity, "rays", "(]");
  positive("VisionOptions.agingRate", o.agingRate);
  inRange("VisionOptions.timeBudgetUs", o.timeBudgetUs, 0, Infinity, "microseconds", "(]");
  nonNegative("VisionOptions.loseRangeMargin", o.loseRangeMargin, "meters");
  nonNegative("VisionOptions.loseAngleMargin", o.loseAngleMargin, "radians");
  return o;
}
