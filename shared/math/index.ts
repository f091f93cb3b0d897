export { wrapAngle, angularDistance } from "./angle.js";
export { circleIntersectsDisc } from "./disc.js";
export { distanceSqToSegment } from "./segment.js";
export { Sector, circleIntersectsSector } from "./sector.js";
export { silhouettePoints, type SilhouetteOut } from "./tangent.js";
export { occludes, occlusionClearance, occlusionMargin } from "./umbra.js";
