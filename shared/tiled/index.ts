/**
 * Reading Tiled maps (`.tmj` JSON, orthogonal), browser-safe: walls, glass, merged solid tiles and every
 * object, in world meters. Exported to users through `sightline/occluders`.
 */
export { readTiledMap, DEFAULT_PIXELS_PER_METER, type TiledDoor, type TiledLevel, type TiledObject, type TiledReadOptions } from "./readTiledMap.js";
export { TiledMapError } from "./tiledMapError.js";
export type { TiledPoint } from "./objectGeometry.js";
