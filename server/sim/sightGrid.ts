import { rasterizeOpacity, type OpacityGrid } from "sightline/fov";
import type { StealthMap } from "./tiledMap.js";

/**
 * The tile opacity grid of a loaded map, at the map's tile size: walls and solid tiles block sight,
 * glass does not (as for the vision engine's rays). The rule is `rasterizeOpacity`'s: a tile is opaque
 * iff a wall or a solid tile covers a positive area of it. A client gets the same grid from the public
 * map JSON with `opacityGridFromTiled` (test/fov/levelOpacity.test.ts holds the two equal).
 */
export function sightGridOf(map: StealthMap): OpacityGrid {
  const tiles = map.solidTiles.map((r) => [
    { x: r.x, y: r.y }, { x: r.x + r.width, y: r.y }, { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height },
  ]);
  return rasterizeOpacity({
    columns: map.columns, rows: map.rows, tileWidth: map.tileWidth, tileHeight: map.tileHeight,
    opaque: [...map.walls, ...tiles],
  });
}
