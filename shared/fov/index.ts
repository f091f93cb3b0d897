/**
 * Tile field of view, isomorphic (server and browser; no Node imports): symmetric shadowcasting with an
 * optional facing sector.
 */
export { computeFov } from "./computeFov.js";
export { SymmetricShadowcaster } from "./symmetricShadowcasting.js";
export { SECTOR_EDGE_TOLERANCE } from "./fovSector.js";
export type { FovGrid, FovOptions, RevealCallback } from "./types.js";
