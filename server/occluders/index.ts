/**
 * `sightline/occluders`: what blocks sight, without a physics engine. Walls from rectangles, polygons
 * (concave ones split for you), segments and circles; doors that open and shut; smoke clouds that grow and
 * fade; from a Tiled map; or from the static fixtures of a planck `World`. A `VisionSystem`, a
 * `ViewCulling` and a tile opacity grid all read the same set and follow its changes.
 *
 * Browser-safe: no Node built-ins, and planck is never loaded through this entry point.
 */
export { Occluders, type DoorOptions, type OccluderId, type OccludersOptions } from "./occluders.js";
export type { SmokeOptions, SmokeState } from "./smokeCloud.js";
export { convexPieces, MAX_PIECE_VERTICES } from "./convexPieces.js";
export type { Point } from "./point.js";
export { readTiledMap, TiledMapError, type TiledDoor, type TiledLevel, type TiledObject, type TiledReadOptions } from "../../shared/tiled/index.js";
