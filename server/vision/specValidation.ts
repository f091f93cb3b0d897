import { Body } from "planck";
import type { ObservableSpec, ObserverSpec, Point } from "./types.js";
import { fail, finite, nonEmptyString } from "../../shared/validation/rangeChecks.js";
import { isPlanckLike } from "../planck/internals.js";

/** Largest `samples` accepted: beyond this the silhouette is sampled finer than any ray budget affords. */
export const MAX_SAMPLES = 63;


export function checkPoint(field: string, value: unknown): Point {
  if (typeof value !== "object" || value === null) fail(field, "must be an object {x, y} in meters", value);
  const p = value as Point;
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
  if (typeof spec !== "object" || spec === null) fail("ObserverSpec", "must be an object", spec);
  if ("position" in spec) checkPoint("ObserverSpec.position", spec.position);
  if ("facing" in spec) finite("ObserverSpec.facing", spec.facing);
  if ("range" in spec) {
    const r = spec.range;
    if (typeof r !== "number" || Number.isNaN(r) || r < 0) fail("ObserverSpec.range", "must be >= 0 meters (Infinity allowed)", r);
  }
  if ("fov" in spec) {
    const f = spec.fov;
    if (typeof f !== "number" || Number.isNaN(f) || f <= 0) fail("ObserverSpec.fov", "must be > 0 radians (>= 2*PI = all around)", f);
  }
  if ("proximityRadius" in spec && spec.proximityRadius !== undefined) {
    const p = finite("ObserverSpec.proximityRadius", spec.proximityRadius);
    if (p < 0) fail("ObserverSpec.proximityRadius", "must be >= 0 meters", p);
  }
  if ("priority" in spec && spec.priority !== undefined) {
    const p = finite("ObserverSpec.priority", spec.priority);
    if (p < 0) fail("ObserverSpec.priority", "must be >= 0", p);
  }
  if ("body" in spec) checkBody("ObserverSpec.body", spec.body);
}

/** Checks that a new observer spec carries every required field. */
export function checkObserverComplete(spec: ObserverSpec): void {
  if (typeof spec !== "object" || spec === null) fail("ObserverSpec", "must be an object", spec);
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
  if (typeof spec !== "object" || spec === null) fail("ObservableSpec", "must be an object", spec);
  if ("position" in spec) checkPoint("ObservableSpec.position", spec.position);
  if ("radius" in spec && spec.radius !== undefined) {
    const r = finite("ObservableSpec.radius", spec.radius);
    if (r < 0) fail("ObservableSpec.radius", "must be >= 0 meters", r);
  }
  if ("samples" in spec && spec.samples !== undefined) {
    const n = spec.samples;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n % 2 === 0 || n > MAX_SAMPLES) {
      fail("ObservableSpec.samples", `must be an odd integer from 1 to ${MAX_SAMPLES}`, n);
    }
  }
  if ("required" in spec && spec.required !== undefined) {
    const k = spec.required;
    if (typeof k !== "number" || !Number.isInteger(k) || k < 1) fail("ObservableSpec.required", "must be an integer >= 1", k);
  }
  if (mergedRequired > mergedSamples) {
    fail("ObservableSpec.required", `must not exceed samples (${mergedSamples})`, mergedRequired);
  }
  if ("body" in spec) checkBody("ObservableSpec.body", spec.body);
}

export function checkId(kind: string, id: unknown): string {
  return nonEmptyString(`${kind} id`, id);
}
