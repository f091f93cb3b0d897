/**
 * What the awareness model accepts: its options, resolved against their defaults, and each sighting it is
 * fed. Apart from the meter law and the model so that every RangeError the model throws has one home,
 * and the step's hot loop reads resolved numbers only.
 */
import { fail, finite, fraction, func, inRange, integer, knownKeys, nonEmptyString, nonNegative, object, positive } from "../../../shared/validation/rangeChecks.js";
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

type NumberOption = Exclude<keyof typeof DEFAULT_AWARENESS_OPTIONS, "stateFactor" | "explain">;

const NUMBER_OPTIONS = Object.keys(DEFAULT_AWARENESS_OPTIONS).filter((k) => k !== "stateFactor" && k !== "explain") as NumberOption[];
/**
 * Every key of {@link AwarenessOptions}: one outside it is a typo that would leave its default in silence.
 * `satisfies`: an option added to the type but not here fails to compile rather than be refused.
 */
const OPTION_KEYS: readonly string[] = Object.keys({ ...DEFAULT_AWARENESS_OPTIONS, onEvent: null, check: null } satisfies Record<keyof AwarenessOptions, unknown>);
const STATES = Object.keys(DEFAULT_AWARENESS_OPTIONS.stateFactor) as ObserverState[];

/** Fills in the defaults (an option left undefined takes its own); a RangeError naming the first bad field. @internal */
export function resolveOptions(options: AwarenessOptions): ResolvedOptions {
  object("AwarenessOptions", options);
  knownKeys("AwarenessOptions", options, OPTION_KEYS);
  const d = DEFAULT_AWARENESS_OPTIONS;
  // Field by field, and only undefined means the default: a spread let an explicit undefined overwrite
  // its default; a null is refused below, as any other wrong type.
  const numbers = {} as Record<NumberOption, number>;
  for (const k of NUMBER_OPTIONS) numbers[k] = options[k] === undefined ? d[k] : options[k];
  const stateFactor: Record<ObserverState, number> = { ...d.stateFactor };
  if (options.stateFactor !== undefined) {
    object("AwarenessOptions.stateFactor", options.stateFactor, "of fill multipliers by state { idle, suspicious, alerted, searching }");
    knownKeys("AwarenessOptions.stateFactor", options.stateFactor, STATES, "a state");
    for (const state of STATES) if (options.stateFactor[state] !== undefined) stateFactor[state] = options.stateFactor[state];
  }
  const r: ResolvedOptions = { ...numbers, stateFactor, explain: options.explain === undefined ? d.explain : options.explain, onEvent: options.onEvent ?? null, check: options.check ?? null };
  for (const k of ["fillRate", "referenceDistance", "minDistance", "decayRate", "lostAfterSeconds", "searchSeconds"] as const) positive(`AwarenessOptions.${k}`, r[k]);
  for (const k of ["distanceExponent", "graceSeconds", "noticeRearmSeconds"] as const) nonNegative(`AwarenessOptions.${k}`, r[k]);
  for (const k of ["rangeEdgeSlowdown", "peripherySlowdown", "proximityFactor"] as const) fraction(`AwarenessOptions.${k}`, r[k]);
  fraction("AwarenessOptions.suspiciousAt", r.suspiciousAt, "()");
  nonNegative("AwarenessOptions.hearingFill", r.hearingFill);
  fraction("AwarenessOptions.hearingCeiling", r.hearingCeiling, "(]");
  for (const state of STATES) positive(`AwarenessOptions.stateFactor.${state}`, r.stateFactor[state]);
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
