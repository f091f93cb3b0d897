export { VisionSystem } from "./visionSystem.js";
export { LineOfSight } from "./lineOfSight.js";
export { RayLog } from "./rayLog.js";
export { MAX_SAMPLES } from "./specValidation.js";
export type { ObservableSpec, ObserverSpec, Point, VisionOptions, VisionTickReport } from "./types.js";
export { AwarenessModel, DEFAULT_AWARENESS_OPTIONS, fillRate } from "./awareness.js";
export type { AwarenessOptions, DetectionEvent, DetectionEventType, ObserverState, Sighting } from "./awareness.js";
export { DEFAULT_VISION_OPTIONS } from "./visionSystem.js";
