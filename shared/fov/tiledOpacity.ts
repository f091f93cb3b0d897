import { Occluders } from "../../server/occluders/occluders.js";
import { readTiledMap } from "../tiled/readTiledMap.js";
import { OccluderOpacity } from "./occluderOpacity.js";
import type { OpacityGrid } from "./opacityGrid.js";

/** What a client may pass to read tile layers the plain JSON cannot carry by itself. */
export interface TiledOpacityOptions {
  /** An external tileset (`.tsj`) by its `source`, already parsed (e.g. fetched beforehand). */
  readTileset?: (source: string) => unknown;
  /** Decompresses a base64 tile layer's bytes ("zlib", "gzip" or "zstd"); plain and CSV layers need none. */
  inflate?: (bytes: Uint8Array, compression: string) => Uint8Array;
}

/**
 * The opacity grid of a Tiled map (`.tmj` JSON, orthogonal) at the map's own tile size, in the browser
 * or on the server: give it the public map a client fetches from `/maps/<map>.tmj`. The map is read by
 * `Occluders.fromTiled`, so what blocks sight is what the vision engine and the culling read: walls
 * (objects of class `wall`, or untyped rectangles and polygons in a layer named `walls`, rotation
 * included), solid tiles (a tile layer with `solid: true`, or tiles whose tileset tile has `solid: true`)
 * and doors shut as the map starts them; then the tile rule every opacity grid uses. Glass, exits, spawns
 * and everything else are transparent. A snapshot: for doors that open and shut, keep the `Occluders`
 * and follow it with an `OccluderOpacity`.
 * @throws Error (a `TiledMapError`) naming what is wrong with the map
 */
export function opacityGridFromTiled(json: unknown, options: TiledOpacityOptions = {}): OpacityGrid {
  const level = readTiledMap(json, { file: "Tiled map", readTileset: options.readTileset, inflate: options.inflate });
  const opacity = new OccluderOpacity(Occluders.fromLevel(level, { file: "Tiled map" }), level);
  opacity.dispose();
  return opacity.grid;
}
