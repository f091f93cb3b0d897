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

/**
 * A noise one observer heard during a step: what `Hearing.hears` said, with the ids. The observer does
 * not learn where the emitter is, only where the noise was.
 */
export interface Heard {
  observerId: string;
  /** Who made the noise. */
  targetId: string;
  /** How loud it still was at the observer, in (0, 1] (`Earshot.level`). */
  level: number;
  /** Where the noise was, meters: what the last-known position becomes. */
  position: { x: number; y: number };
  /**
   * How much this kind of noise says, a multiplier of its fill (>= 0): 1 for a footstep, more for what
   * draws attention (a crash, a shout, a thrown bottle). Default 1.
   */
  salience?: number;
}

/** The sense that fed a meter: its cone (or proximity) or its ears. */
export type Sense = "sight" | "hearing";

export type ObserverState = "idle" | "suspicious" | "alerted" | "searching";
export type DetectionEventType = "noticed" | "suspicious" | "spotted" | "lost" | "cleared";

/** What a detection event says; `seq` increases by one per event in this model. */
export interface DetectionEvent {
  seq: number;
  tick: number;
  type: DetectionEventType;
  observerId: string;
  targetId: string;
  /** The target's last known position, meters (where it was heard, for `hearing`). */
  position: { x: number; y: number };
  /** The sense that last fed the meter this event is about. */
  sense: Sense;
  /** Why it fired: on `spotted`, when the model was built with `explain` (see {@link Explanation}). */
  explanation?: Explanation;
}

/** Where an observer stood and looked: meters, and radians (0 = +x, counter-clockwise). */
export interface Pose {
  x: number;
  y: number;
  facing: number;
}

/** The poses a {@link SightingCheck} judged a sighting from (its observer's now, and as the target was shown it). */
export interface JudgedPoses {
  present: Pose;
  rewound: Pose;
  /** How far back the rewound pose is, milliseconds (after the cap). */
  rewoundMs: number;
}

/**
 * A second check of each sighting that would raise a meter below full (a pair acquiring or filling):
 * the sighting counts only if it also holds here. Pairs already at full awareness are not asked. The
 * vision engine's `SeenOnScreen` is one: it asks whether the target's own screen showed the observer
 * able to see it.
 */
export interface SightingCheck {
  /** Whether `s` also holds; when it does, the poses it judged from go into `poses` (if given). */
  holds(s: Sighting, poses: JudgedPoses | null): boolean;
}

/**
 * One step that raised a meter, with the meter's own arithmetic: the level before (after any decay), the
 * gain, and the level after (`min(ceiling, before + gain)`). By sight, the gain is `fillRate` x each
 * factor x the step's seconds; by ear, `hearingFill` x `loudness` x `salience` x `state`.
 */
export interface ExplainedFill {
  tick: number;
  sense: Sense;
  before: number;
  gain: number;
  after: number;
  /** Sight: eye to target, meters; the angle off the observer's facing, radians; how exposed (1 in plain view, less crouching). */
  distance?: number;
  offAxis?: number;
  visibility?: number;
  /** Sight through the proximity sense alone (not the cone). */
  proximity?: boolean;
  /** Sight: the multipliers applied (`distance`: the distance law; `rangeEdge`; `periphery` or `proximity`; `visibility`; `state`). */
  factors?: { distance: number; rangeEdge: number; periphery: number; visibility: number; state: number };
  /** Hearing: how loud the noise still was at the observer, and its salience. */
  loudness?: number;
  salience?: number;
  /** Under a {@link SightingCheck} such as `SeenOnScreen`: the observer's present pose and the one the target's client showed. */
  poses?: JudgedPoses;
}

/** Why a `spotted` fired: every step that raised the meter since it last stood at 0, oldest first. */
export interface Explanation {
  observerId: string;
  targetId: string;
  sense: Sense;
  /** The fill rate per second (sight) the factors multiply, as configured. */
  fillRate: number;
  fills: ExplainedFill[];
}

/**
 * Rates, thresholds and windows of the model; every field optional (undefined: the default), defaults in
 * `DEFAULT_AWARENESS_OPTIONS`. A key that is none of these is refused with a RangeError naming it.
 */
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
  /**
   * Fill multipliers by observer state (each > 0), by sight and by ear: an alerted guard acquires faster.
   * A state left out (or undefined) keeps its default: idle 1, suspicious 1.5, alerted 3, searching 2; a
   * key that is not a state is refused.
   */
  stateFactor?: Partial<Record<ObserverState, number>>;
  /**
   * Meter raised by one noise heard at full loudness by an idle observer; scaled by how loud it still was
   * (`Heard.level`), by its `Heard.salience` and by `stateFactor`. Per noise, not per second: a gait that
   * makes more footsteps a second fills faster.
   */
  hearingFill?: number;
  /**
   * The highest level hearing alone raises a meter to. Below 1 (the default), noises make a guard
   * suspicious and send it to look, and only sight spots; 1 lets a noise spot.
   */
  hearingCeiling?: number;
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
  /**
   * A second check of each sighting that would raise a meter below full; only sightings it confirms
   * count (see {@link SightingCheck}). Default none.
   */
  check?: SightingCheck;
  /**
   * Keep, per meter, the steps that raised it, and give every `spotted` its {@link Explanation} (up to the
   * last `explainFills` steps). Default false.
   */
  explain?: boolean;
  /** Most steps an explanation keeps (the latest). Default 100 (5 s at 20 Hz). */
  explainFills?: number;
}
