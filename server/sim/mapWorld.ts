import { Box, Polygon, Vec2, World, type Body } from "planck";
import type { StealthMap } from "./tiledMap.js";
import { convexPieces, type Point as Vec } from "sightline/occluders";

/**
 * Collision categories of the stealth simulation. Sight is blocked by WALL only (the vision engine's
 * `opaqueMask`): glass stops bodies but not eyes, and characters do not hide each other.
 */
export const CATEGORY = Object.freeze({
  WALL: 0x0001,
  GLASS: 0x0002,
  PLAYER: 0x0004,
  GUARD: 0x0008,
  EXIT: 0x0010,
});

/** The vision `opaqueMask` that goes with {@link CATEGORY}. */
export const SIGHT_BLOCKERS = CATEGORY.WALL;

/** What stops a character walking: walls and glass (exits are sensors). */
export const WALK_BLOCKERS = CATEGORY.WALL | CATEGORY.GLASS;

export interface MapWorld {
  world: World;
  /** The static body holding every wall, tile and glass fixture. */
  level: Body;
  /** One sensor body per exit area. */
  exits: Body[];
  /** Fixtures created for walls, glass and tiles. */
  fixtureCount: number;
}

/**
 * Builds the static level of a map in a new planck world (zero gravity, top-down): walls and solid tiles
 * on CATEGORY.WALL, glass on CATEGORY.GLASS, exits as sensors on CATEGORY.EXIT. Concave or large
 * outlines are triangulated, since planck would otherwise replace them with their convex hull.
 */
export function buildMapWorld(map: StealthMap): MapWorld {
  const world = new World({ gravity: Vec2(0, 0) });
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
  return { world, level, exits, fixtureCount };
}
