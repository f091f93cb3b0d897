export { VisionSystem } from "./visionSystem.js";
export { LineOfSight } from "./lineOfSight.js";
export { RayLog } from "./rayLog.js";
export { MAX_SAMPLES } from "./specValidation.js";
export type { ObservableSpec, ObserverSpec, Point, VisionOptions, VisionTickReport } from "./types.js";
