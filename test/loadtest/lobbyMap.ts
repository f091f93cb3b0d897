import { parseTiledMap, type StealthMap } from "../../server/sim/tiledMap.js";
import { objectLayer, point, prop, PX, rect, tiledJson } from "../fixtures/tiledJson.js";

/** The Tiled object id of the lobby's door, and its outline, meters. */
export const LOBBY_DOOR = 30;
export const LOBBY_DOOR_OUTLINE = [{ x: 12, y: 4 }, { x: 12.5, y: 4 }, { x: 12.5, y: 8 }, { x: 12, y: 8 }];

/**
 * The load-test bots' lobby: two rooms of 12 x 12 m, the wall between them at x = 12..12.5 with a doorway at
 * y = 4..8 that door {@link LOBBY_DOOR} fills (`open` hangs it open), no guards. Spawns "west" (6, 6) and
 * "near" (10.5, 6), 1.5 m before the door; with `sill`, "sill" (12.25, 4.6), in the doorway (of an open door).
 */
export function lobbyMap(name: string, options: { open: boolean; sill?: boolean }): StealthMap {
  const walls = [rect(1, 0, 0, 24, 0.5), rect(2, 0, 11.5, 24, 0.5), rect(3, 0, 0, 0.5, 12), rect(4, 23.5, 0, 0.5, 12), rect(5, 12, 0, 0.5, 4), rect(6, 12, 8, 0.5, 4)];
  const door = { ...rect(LOBBY_DOOR, 12, 4, 0.5, 4, "door"), properties: [prop("open", options.open)] };
  const spawns = [point(20, "spawn", "west", 6, 6), point(21, "spawn", "near", 10.5, 6), ...(options.sill === true ? [point(22, "spawn", "sill", 12.25, 4.6)] : [])];
  const json = tiledJson([objectLayer("walls", walls), objectLayer("doors", [door]), objectLayer("actors", spawns)], { width: 24, height: 12, properties: [prop("pixelsPerMeter", PX)] });
  return parseTiledMap(json, `${name}.tmj`);
}
