import { OccluderOpacity, type OpacityGrid } from "sightline/fov";
import { Occluders } from "sightline/occluders";
import type { StealthMap } from "./tiledMap.js";

/**
 * The tile opacity grid of a map as it starts, at the map's tile size: what `Occluders.fromLevel` makes of
 * it (walls, solid tiles, doors shut as the map starts them; glass is transparent), by the tile rule every
 * opacity grid uses. A snapshot: a room follows its own occluders with an `OccluderOpacity` instead. A
 * client gets the same grid from the public map JSON with `opacityGridFromTiled`
 * (test/fov/levelOpacity.test.ts holds the two equal).
 */
export function sightGridOf(map: StealthMap): OpacityGrid {
  const opacity = new OccluderOpacity(Occluders.fromLevel(map, { file: map.file }), map);
  opacity.dispose();
  return opacity.grid;
}
