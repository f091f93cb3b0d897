import { Box, Polygon, Vec2, World, type Body } from "planck";
import type { StealthMap } from "./tiledMap.js";
import { convexPieces, type Point as Vec } from "sightline/occluders";

/**
 * Collision categories of the stealth simulation's physics. What blocks sight is not decided here: the
 * simulation's `Occluders` (built from the same map by `Occluders.fromLevel`) is the one rule, read by the
 * vision engine, the culling and the tile field of view. These categories only say what stops a body.
 */
export const CATEGORY = Object.freeze({
  WALL: 0x0001,
  GLASS: 0x0002,
  PLAYER: 0x0004,
  GUARD: 0x0008,
  EXIT: 0x0010,
  DOOR: 0x0020,
});

/** What stops a character walking: walls, glass and shut doors (exits are sensors; an open door's body is inactive). */
export const WALK_BLOCKERS = CATEGORY.WALL | CATEGORY.GLASS | CATEGORY.DOOR;

/** What a path may not cross: walls and glass. Doors are passable: whoever walks a path opens them on the way. */
export const PATH_BLOCKERS = CATEGORY.WALL | CATEGORY.GLASS;

export interface MapWorld {
  world: World;
  /** The static body holding every wall, tile and glass fixture. */
  level: Body;
  /** One sensor body per exit area. */
  exits: Body[];
  /** One static body per door of the map, in the map's order: active while the door is shut. */
  doors: Body[];
  /** Fixtures created for walls, glass and tiles. */
  fixtureCount: number;
}

/**
 * Builds the static level of a map in a new planck world (zero gravity, top-down): walls and solid tiles
 * on CATEGORY.WALL, glass on CATEGORY.GLASS, exits as sensors on CATEGORY.EXIT, and each door a body of
 * its own on CATEGORY.DOOR, active (solid) while the map starts it shut. Concave or large outlines are
 * triangulated, since planck would otherwise replace them with their convex hull.
 *
 * Without continuous collision: a character moves at most the simulation's top speed a step (the travel
 * cap holds every body to it), about half its radius, so it meets any wall before it could pass one, and
 * the time-of-impact pass planck runs by default (about a tenth of its step here) finds nothing to stop.
 */
export function buildMapWorld(map: StealthMap): MapWorld {
  const world = new World({ gravity: Vec2(0, 0), continuousPhysics: false });
  const level = world.createBody({ type: "static" });
  let fixtureCount = 0;
  const addOutline = (outline: Vec[], category: number, body: Body, isSensor = false) => {
    for (const piece of convexPieces(outline)) {
      body.createFixture({ shape: new Polygon(piece.map((p) => Vec2(p.x, p.y))), filterCategoryBits: category, isSensor });
      fixtureCount++;
    }
  };
  for (const wall of map.walls) addOutline(wall, CATEGORY.WALL, level);
  for (const pane of map.glass) addOutline(pane, CATEGORY.GLASS, level);
  for (const r of map.solidTiles) {
    level.createFixture({
      shape: new Box(r.width / 2, r.height / 2, Vec2(r.x + r.width / 2, r.y + r.height / 2), 0),
      filterCategoryBits: CATEGORY.WALL,
    });
    fixtureCount++;
  }
  const exits = map.exits.map((outline) => {
    const body = world.createBody({ type: "static" });
    const before = fixtureCount;
    addOutline(outline, CATEGORY.EXIT, body, true);
    fixtureCount = before; // exits are sensors, not level geometry
    return body;
  });
  const doors = map.doors.map((door) => {
    const body = world.createBody({ type: "static" });
    const before = fixtureCount;
    addOutline(door.outline, CATEGORY.DOOR, body);
    fixtureCount = before; // doors come and go: not level geometry
    body.setActive(!door.open);
    return body;
  });
  return { world, level, exits, doors, fixtureCount };
}
