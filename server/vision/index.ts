/**
 * `sightline`: the vision engine and the awareness model.
 *
 * - {@link VisionSystem}: who can see whom, exactly (range, cone or proximity, then line-of-sight rays
 *   against a planck `World` or the `Occluders` of `sightline/occluders`), with a budgeted, fair scheduler.
 * - {@link AwarenessModel}: per (observer, target) detection meters, observer states and detection
 *   events, fed with the engine's sightings and with the noises a {@link Hearing} says were heard.
 * - {@link SeenOnScreen}: the fairness mode, a sighting judged also from where the target's own screen
 *   showed the observer (with {@link PoseHistory} or any source of past poses).
 * - {@link Hearing}: who hears a noise, how loud and from which way, with sound that goes around walls
 *   and shut doors (through the doorway) rather than through them.
 *
 * Units: meters, radians (0 = +x, counter-clockwise positive), ticks.
 */
export { VisionSystem } from "./visionSystem.js";
export { DEFAULT_VISION_OPTIONS } from "./visionOptions.js";
export { MAX_SAMPLES } from "./specValidation.js";
export type { ObservableSpec, ObserverSpec, Point, VisionOptions, VisionTickReport } from "./types.js";
export type { RayLog } from "./rayLog.js";
export { AwarenessModel } from "./awareness/awarenessModel.js";
export { DEFAULT_AWARENESS_OPTIONS } from "./awareness/validation.js";
export type {
  AwarenessOptions, DetectionEvent, DetectionEventType, ExplainedFill, Explanation, Heard, JudgedPoses, ObserverState, Pose, Sense,
  Sighting, SightingCheck,
} from "./awareness/types.js";
export { SeenOnScreen, DEFAULT_SEEN_ON_SCREEN_OPTIONS, type SeenOnScreenOptions, type ShownPoses } from "./fairness/seenOnScreen.js";
export { PoseHistory, type PoseHistoryOptions } from "./fairness/poseHistory.js";
export { Hearing, DEFAULT_HEARING_OPTIONS, MAX_LOUDNESS, checkNoise } from "../hearing/hearing.js";
export type { Noise, Earshot, HearingOptions } from "../hearing/hearing.js";
/** @internal The audit's exact (lower-bound) way around for sound, for tests and audits. */
export { shortestSoundPath } from "../hearing/shortestPath.js";
export { wrapAngle, angularDistance } from "../../shared/math/angle.js";
/** @internal The engine's ray caster over a planck World, for benchmarks that price one ray. */
export { LineOfSight } from "./lineOfSight.js";
/** @internal Silhouette sample points of a disc seen from a point, for benchmark peers. */
export { silhouettePoints } from "../../shared/math/tangent.js";
