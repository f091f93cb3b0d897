import { Body } from "planck";
import type { ObservableSpec, ObserverSpec, Point } from "./types.js";
import { fail, finite, inRange, integer, nonNegative, object } from "../../shared/validation/rangeChecks.js";
import { isPlanckLike } from "../planck/internals.js";

/** Largest `samples` accepted: beyond this the silhouette is sampled finer than any ray budget affords. */
export const MAX_SAMPLES = 63;


export function checkPoint(field: string, value: unknown): Point {
  const p = object<Point>(field, value, "{x, y} in meters");
  return { x: finite(`${field}.x`, p.x), y: finite(`${field}.y`, p.y) };
}

export function checkBody(field: string, value: unknown): Body | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Body) return value;
  if (isPlanckLike(value, "getFixtureList")) {
    throw new RangeError(
      `${field} is a planck Body from another copy of planck than the one sightline imports (two installs, or ` +
        "planck's CommonJS and ES module builds side by side): make your code and sightline resolve the same planck (`npm ls planck`).",
    );
  }
  return fail(field, "must be a planck Body", value);
}

/** Validates the fields present in `spec`; throws a RangeError naming the first bad one. */
export function checkObserverFields(spec: Partial<ObserverSpec>): void {
  object("ObserverSpec", spec);
  if ("position" in spec) checkPoint("ObserverSpec.position", spec.position);
  if ("facing" in spec) finite("ObserverSpec.facing", spec.facing);
  if ("range" in spec) inRange("ObserverSpec.range", spec.range, 0, Infinity, "meters", "[]");
  if ("fov" in spec) {
    const f = spec.fov;
    if (typeof f !== "number" || !(f > 0)) fail("ObserverSpec.fov", "must be a number > 0 of radians (>= 2*PI = all around)", f);
  }
  if ("proximityRadius" in spec && spec.proximityRadius !== undefined) nonNegative("ObserverSpec.proximityRadius", spec.proximityRadius, "meters");
  if ("priority" in spec && spec.priority !== undefined) nonNegative("ObserverSpec.priority", spec.priority);
  if ("body" in spec) checkBody("ObserverSpec.body", spec.body);
}

/** Checks that a new observer spec carries every required field. */
export function checkObserverComplete(spec: ObserverSpec): void {
  object("ObserverSpec", spec);
  for (const field of ["position", "facing", "range", "fov"] as const) {
    if (spec[field] === undefined) fail(`ObserverSpec.${field}`, "is required", undefined);
  }
  checkObserverFields(spec);
}

/**
 * Validates an observable's fields; `merged` is the spec as it would stand after the change, so that
 * `required <= samples` is checked against the resulting pair.
 */
export function checkObservableFields(spec: Partial<ObservableSpec>, mergedSamples: number, mergedRequired: number): void {
  object("ObservableSpec", spec);
  if ("position" in spec) checkPoint("ObservableSpec.position", spec.position);
  if ("radius" in spec && spec.radius !== undefined) nonNegative("ObservableSpec.radius", spec.radius, "meters");
  if ("samples" in spec && spec.samples !== undefined) {
    const n = spec.samples;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n % 2 === 0 || n > MAX_SAMPLES) {
      fail("ObservableSpec.samples", `must be an odd integer in [1, ${MAX_SAMPLES}]`, n);
    }
  }
  if ("required" in spec && spec.required !== undefined) integer("ObservableSpec.required", spec.required, 1);
  if (mergedRequired > mergedSamples) {
    fail("ObservableSpec.required", `must not exceed samples (${mergedSamples})`, mergedRequired);
  }
  if ("body" in spec) checkBody("ObservableSpec.body", spec.body);
}
