/**
 * `sightline/occluders`: what blocks sight, without a physics engine. Static walls from rectangles,
 * polygons (concave ones split for you), segments and circles; from a Tiled map; or from the static
 * fixtures of a planck `World`. A `VisionSystem` and a `ViewCulling` both accept them.
 *
 * Browser-safe: no Node built-ins, and planck is never loaded through this entry point.
 */
export { Occluders, type OccluderId, type OccludersOptions } from "./occluders.js";
export { convexPieces, MAX_PIECE_VERTICES } from "./convexPieces.js";
export type { Point } from "./point.js";
export { readTiledMap, TiledMapError, type TiledLevel, type TiledObject, type TiledReadOptions } from "../../shared/tiled/index.js";
