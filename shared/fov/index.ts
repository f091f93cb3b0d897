/**
 * Tile field of view, isomorphic (server and browser; no Node imports): symmetric shadowcasting with an
 * optional facing sector, opacity grids built from a level or a Tiled map, and per-eye visible and
 * explored sets.
 *
 * A client's fog of war: `const grid = opacityGridFromTiled(await (await fetch("/maps/demo.tmj")).json())`,
 * then each frame `computeFov(grid, tile.x, tile.y, radius, reveal)` from `grid.eyeTile(x, y, tile)`;
 * the explored memory arrives in the player's own `explored` schema field (see shared/schema.ts).
 */
export { computeFov } from "./computeFov.js";
export { SymmetricShadowcaster } from "./symmetricShadowcasting.js";
export { SECTOR_EDGE_TOLERANCE } from "./fovSector.js";
export { OpacityGrid } from "./opacityGrid.js";
export { rasterizeOpacity, OPAQUE_AREA_SHARE, type OpaqueLevel, type Point } from "./rasterizeOpacity.js";
export { opacityGridFromTiled, type TiledOpacityOptions } from "./tiledOpacity.js";
export { OccluderOpacity, type OpacityShape } from "./occluderOpacity.js";
export { TileVision, type TileVisionOptions } from "./tileVision.js";
export type { FovGrid, FovOptions, RevealCallback } from "./types.js";
