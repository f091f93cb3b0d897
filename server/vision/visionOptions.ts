/**
 * The engine's options: their defaults and their validation, resolved once by the facade and read by the
 * scheduler and the sight rule. Apart so those units take the resolved options without reaching into the
 * class that builds them.
 */
import { checkOpaqueMask, EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import type { VisionOptions } from "./types.js";

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
  if (typeof options !== "object" || options === null) throw new RangeError("VisionOptions must be an object");
  const o = { ...DEFAULT_VISION_OPTIONS, ...options } as Required<VisionOptions>;
  const bad = (field: string, rule: string, v: unknown) =>
    new RangeError(`VisionOptions.${field} ${rule} (got ${String(v)})`);
  checkOpaqueMask("VisionOptions.opaqueMask", o.opaqueMask);
  if (typeof o.raysPerTick !== "number" || !(o.raysPerTick > 0)) throw bad("raysPerTick", "must be > 0 (Infinity allowed)", o.raysPerTick);
  if (typeof o.agingRate !== "number" || !Number.isFinite(o.agingRate) || !(o.agingRate > 0)) {
    throw bad("agingRate", "must be a finite number > 0", o.agingRate);
  }
  if (typeof o.timeBudgetUs !== "number" || !(o.timeBudgetUs > 0)) throw bad("timeBudgetUs", "must be > 0 microseconds (Infinity = off)", o.timeBudgetUs);
  for (const field of ["loseRangeMargin", "loseAngleMargin"] as const) {
    const v = o[field];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw bad(field, "must be a finite number >= 0", v);
  }
  return o;
}
