/**
 * The awareness model's vocabulary: what it is fed (sightings), what it says (states and detection
 * events) and what it can be tuned with (options). Types only, apart from the model and its rules, so
 * producers of sightings (the vision engine) and consumers of events (a room, a test) import no code.
 */

/** One (observer, target) pair seen during a step. Distances in meters, angles in radians. */
export interface Sighting {
  observerId: string;
  targetId: string;
  /** Eye to target centre, meters. */
  distance: number;
  /** Angle between the observer's facing and the direction to the target; 0 = dead centre. */
  offAxis: number;
  /** The observer's half cone angle (PI for all around). */
  halfFov: number;
  /** The observer's range, meters (Infinity allowed). */
  range: number;
  /** Seen only through the proximity sense (the "sixth sense"), not the cone. */
  proximity?: boolean;
  /** How exposed the target is, in [0, 1]: 1 = in plain view; crouching or shadow lower it. Default 1. */
  visibility?: number;
  /** Where the target was seen, meters. */
  position: { x: number; y: number };
  /**
   * A slot for a consumer's own record of this pair, offered (null) by a producer that keeps one object
   * per pair from step to step, as `VisionSystem.sightings()` does; undefined when not offered. The
   * producer never reads it and clears it when the object moves to another pair. `AwarenessModel` keeps
   * its meter there, checking on each use that it is its own and for this pair, so it reaches the meter
   * without an id lookup.
   */
  memo?: unknown;
}

export type ObserverState = "idle" | "suspicious" | "alerted" | "searching";
export type DetectionEventType = "noticed" | "suspicious" | "spotted" | "lost" | "cleared";

/** What a detection event says; `seq` increases by one per event in this model. */
export interface DetectionEvent {
  seq: number;
  tick: number;
  type: DetectionEventType;
  observerId: string;
  targetId: string;
  /** The target's last known position, meters. */
  position: { x: number; y: number };
}

/** Rates, thresholds and windows of the model; every field optional, defaults in `DEFAULT_AWARENESS_OPTIONS`. */
export interface AwarenessOptions {
  /** Fill per second at `referenceDistance`, dead centre, idle observer, fully visible target. */
  fillRate?: number;
  /** Meters at which the fill rate equals `fillRate`. */
  referenceDistance?: number;
  /** Fill scales with (referenceDistance / distance) ^ this: closer fills faster. */
  distanceExponent?: number;
  /** Distances below this (meters) count as this, so the fill stays finite. */
  minDistance?: number;
  /** Fill is multiplied by 1 - this x (distance / range)^2: slower near the end of the range. */
  rangeEdgeSlowdown?: number;
  /** Fill is multiplied by 1 - this x (offAxis / halfFov)^2: a softer periphery, not a hard edge. */
  peripherySlowdown?: number;
  /** Fill multiplier when the target is sensed only through the proximity sense. */
  proximityFactor?: number;
  /** Fill multipliers by observer state: an alerted guard acquires faster. */
  stateFactor?: Partial<Record<ObserverState, number>>;
  /** Seconds a pair may go unseen before its level starts to decay. */
  graceSeconds?: number;
  /** Level lost per second once decaying. */
  decayRate?: number;
  /** Level at which an idle observer becomes suspicious. */
  suspiciousAt?: number;
  /** A pair can be `noticed` again only after its level has sat at 0 for this many seconds. */
  noticeRearmSeconds?: number;
  /** The last-known window: seconds an alerted observer keeps its target unseen before `lost`. */
  lostAfterSeconds?: number;
  /** Seconds a search lasts before the observer gives up (`cleared`). */
  searchSeconds?: number;
  /** Called for every event, in order, as well as returned by `step`. */
  onEvent?: (event: DetectionEvent) => void;
}
