import { readTiledMap } from "../tiled/readTiledMap.js";
import type { OpacityGrid } from "./opacityGrid.js";
import { rasterizeOpacity, type Point } from "./rasterizeOpacity.js";

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
 * the same reader as the server's map loader and `Occluders.fromTiled` (`readTiledMap`), so what blocks
 * sight is the same: walls (objects of class `wall`, or untyped rectangles and polygons in a layer named
 * `walls`, rotation included) and solid tiles (a tile layer with `solid: true`, or tiles whose tileset
 * tile has `solid: true`), then {@link rasterizeOpacity}'s rule applies. Glass, exits, spawns and
 * everything else are transparent.
 * @throws Error (a `TiledMapError`) naming what is wrong with the map
 */
export function opacityGridFromTiled(json: unknown, options: TiledOpacityOptions = {}): OpacityGrid {
  const level = readTiledMap(json, { file: "Tiled map", readTileset: options.readTileset, inflate: options.inflate });
  const opaque: Point[][] = level.walls.slice();
  for (const r of level.solidTiles) {
    opaque.push([{ x: r.x, y: r.y }, { x: r.x + r.width, y: r.y }, { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height }]);
  }
  return rasterizeOpacity({ columns: level.columns, rows: level.rows, tileWidth: level.tileWidth, tileHeight: level.tileHeight, opaque });
}
