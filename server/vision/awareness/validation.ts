/**
 * What the awareness model accepts: its options, resolved against their defaults, and each sighting it is
 * fed. Apart from the meter law and the model so that every RangeError the model throws has one home,
 * and the step's hot loop reads resolved numbers only.
 */
import { fail, finite, fraction, func, inRange, integer, nonEmptyString, nonNegative, object, positive } from "../../../shared/validation/rangeChecks.js";
import type { AwarenessOptions, DetectionEvent, Heard, ObserverState, Sighting, SightingCheck } from "./types.js";

/** Defaults, calibrated so a guard (15 m range) staring at an exposed player spots them in about 2.4 s at 10 m and 0.5 s at 2 m. */
export const DEFAULT_AWARENESS_OPTIONS = Object.freeze({
  fillRate: 0.4,
  referenceDistance: 10,
  distanceExponent: 0.85,
  minDistance: 0.5,
  rangeEdgeSlowdown: 0.4,
  peripherySlowdown: 0.6,
  proximityFactor: 0.35,
  stateFactor: Object.freeze({ idle: 1, suspicious: 1.5, alerted: 3, searching: 2 }),
  graceSeconds: 1,
  decayRate: 0.25,
  suspiciousAt: 0.35,
  noticeRearmSeconds: 3,
  lostAfterSeconds: 3,
  searchSeconds: 8,
  hearingFill: 0.12,
  hearingCeiling: 0.9,
  explain: false,
  explainFills: 100,
});

/** The options with every default filled in, as the model reads them. @internal */
export type ResolvedOptions = Omit<Required<AwarenessOptions>, "stateFactor" | "onEvent" | "check"> & {
  stateFactor: Record<ObserverState, number>;
  onEvent: ((event: DetectionEvent) => void) | null;
  check: SightingCheck | null;
};

/** Fills in the defaults; a RangeError naming the first bad field. @internal */
export function resolveOptions(options: AwarenessOptions): ResolvedOptions {
  object("AwarenessOptions", options);
  const d = DEFAULT_AWARENESS_OPTIONS;
  const r: ResolvedOptions = {
    ...d,
    ...options,
    stateFactor: { ...d.stateFactor, ...(options.stateFactor ?? {}) },
    onEvent: options.onEvent ?? null,
    check: options.check ?? null,
  } as ResolvedOptions;
  for (const k of ["fillRate", "referenceDistance", "minDistance", "decayRate", "lostAfterSeconds", "searchSeconds"] as const) positive(`AwarenessOptions.${k}`, r[k]);
  for (const k of ["distanceExponent", "graceSeconds", "noticeRearmSeconds"] as const) nonNegative(`AwarenessOptions.${k}`, r[k]);
  for (const k of ["rangeEdgeSlowdown", "peripherySlowdown", "proximityFactor"] as const) fraction(`AwarenessOptions.${k}`, r[k]);
  fraction("AwarenessOptions.suspiciousAt", r.suspiciousAt, "()");
  nonNegative("AwarenessOptions.hearingFill", r.hearingFill);
  fraction("AwarenessOptions.hearingCeiling", r.hearingCeiling, "(]");
  for (const [state, v] of Object.entries(r.stateFactor)) positive(`AwarenessOptions.stateFactor.${state}`, v);
  if (r.onEvent !== null) func("AwarenessOptions.onEvent", r.onEvent, "(event) => void");
  if (r.check !== null) {
    object("AwarenessOptions.check", r.check, "a SightingCheck { holds(sighting, poses) }");
    func("AwarenessOptions.check.holds", r.check.holds, "(sighting, poses) => boolean");
  }
  if (typeof r.explain !== "boolean") fail("AwarenessOptions.explain", "must be a boolean", r.explain);
  integer("AwarenessOptions.explainFills", r.explainFills, 1, 10_000, "steps");
  return r;
}

/** Throws a RangeError naming the first bad field. No closures: it runs for every sighting of every step. @internal */
export function checkSighting(s: Sighting): void {
  object("Sighting", s);
  nonEmptyString("Sighting.observerId", s.observerId);
  nonEmptyString("Sighting.targetId", s.targetId);
  nonNegative("Sighting.distance", s.distance, "meters");
  finite("Sighting.offAxis", s.offAxis, "radians");
  finite("Sighting.halfFov", s.halfFov, "radians");
  inRange("Sighting.range", s.range, 0, Infinity, "meters", "[]");
  object("Sighting.position", s.position, "{x, y} in meters");
  finite("Sighting.position.x", s.position.x, "meters");
  finite("Sighting.position.y", s.position.y, "meters");
  if (s.visibility !== undefined) fraction("Sighting.visibility", s.visibility);
}

/** Throws a RangeError naming the first bad field of a heard noise. @internal */
export function checkHeard(h: Heard): void {
  object("Heard", h);
  nonEmptyString("Heard.observerId", h.observerId);
  nonEmptyString("Heard.targetId", h.targetId);
  fraction("Heard.level", h.level, "(]");
  object("Heard.position", h.position, "{x, y} in meters");
  finite("Heard.position.x", h.position.x, "meters");
  finite("Heard.position.y", h.position.y, "meters");
  if (h.salience !== undefined) {
    nonNegative("Heard.salience", h.salience);
    finite("Heard.salience", h.salience);
  }
}
