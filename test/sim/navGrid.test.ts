import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildMapWorld, CATEGORY } from "../../server/sim/mapWorld.js";
import { NavGrid, type Waypoint } from "../../server/sim/navGrid.js";
import { loadMapFile, parseTiledMap } from "../../server/sim/tiledMap.js";
import { objectLayer, rect, tiledJson } from "../fixtures/tiledJson.js";

const demo = loadMapFile("server/maps/demo.tmj");
const demoGrid = NavGrid.ofMap(demo);

/** Every leg of the path, from the start, is a straight walk over free cells. */
function legsWalkable(grid: NavGrid, from: Waypoint, path: Waypoint[]): boolean {
  let a = from;
  for (const b of path) {
    if (!grid.walkable(a.x, a.y, b.x, b.y)) return false;
    a = b;
  }
  return true;
}

const pathLength = (from: Waypoint, path: Waypoint[]) => path.reduce((acc, p, i) => acc + Math.hypot(p.x - (i === 0 ? from : path[i - 1]!).x, p.y - (i === 0 ? from : path[i - 1]!).y), 0);

describe("guard navigation grid", () => {
  it("the exit of the demo map is reachable from every spawn", () => {
    const exit = { x: 36, y: 3.5 };
    for (const s of demo.spawns) {
      const path: Waypoint[] = [];
      expect(demoGrid.findPath(s.x, s.y, exit.x, exit.y, path), `from spawn ${s.name}`).toBe(true);
      expect(path.at(-1)).toEqual(exit);
      expect(legsWalkable(demoGrid, s, path)).toBe(true);
    }
  });

  it("goes round a wall instead of through it, without cutting the corner", () => {
    // Demo map: the wall at y = 20..20.5 spans x = 1..25, and a wall at x = 12 hangs below it down to y = 26;
    // from below-left to above means under that one and through the gap at x = 25..29.
    const from = { x: 5, y: 22 };
    const path: Waypoint[] = [];
    expect(demoGrid.findPath(from.x, from.y, 5, 18, path)).toBe(true);
    expect(legsWalkable(demoGrid, from, path)).toBe(true);
    expect(path.some((p) => p.x > 25)).toBe(true);
    expect(demoGrid.walkable(5, 22, 5, 18)).toBe(false);
    // String-pulled: within 10% of the taut route round both wall ends at the guards' clearance (44.4 m).
    expect(pathLength(from, path)).toBeLessThan(44.4 * 1.1);
  });

  it("a sealed room has no path in, and says so", () => {
    const map = parseTiledMap(tiledJson([objectLayer("walls", [rect(1, 5, 5, 4, 0.5), rect(2, 5, 8.5, 4, 0.5), rect(3, 5, 5, 0.5, 4), rect(4, 8.5, 5, 0.5, 4)])]), "box.tmj");
    const grid = new NavGrid(buildMapWorld(map).world, { x: 0, y: 0, width: 10, height: 10 }, { solidMask: CATEGORY.WALL });
    const path: Waypoint[] = [{ x: 1, y: 1 }];
    expect(grid.findPath(1, 1, 7, 7, path)).toBe(false);
    expect(path).toEqual([]);
    expect(grid.reachable(1, 1, 7, 7)).toBe(false);
    expect(grid.reachable(6, 6, 7, 7)).toBe(true); // inside the room
    expect(grid.reachable(1, 1, 2, 9)).toBe(true); // outside it
  });

  it("reachable answers exactly what a path search would, between random points of the compound map", () => {
    const compound = loadMapFile("server/maps/compound.tmj");
    const grid = NavGrid.ofMap(compound);
    const path: Waypoint[] = [];
    fc.assert(fc.property(
      fc.double({ min: 0, max: compound.width, noNaN: true }), fc.double({ min: 0, max: compound.height, noNaN: true }),
      fc.double({ min: 0, max: compound.width, noNaN: true }), fc.double({ min: 0, max: compound.height, noNaN: true }),
      (ax, ay, bx, by) => {
        return grid.reachable(ax, ay, bx, by) === grid.findPath(ax, ay, bx, by, path);
      },
    ), { numRuns: 300, seed: 5 });
  });

  it("a start pushed into a wall begins from the nearest free cell", () => {
    const path: Waypoint[] = [];
    expect(demoGrid.isFree(1.2, 1.2)).toBe(false); // against the corner walls
    expect(demoGrid.findPath(1.2, 1.2, 5, 2, path)).toBe(true);
    expect(demoGrid.isFree(path[0]!.x, path[0]!.y)).toBe(true);
    expect(legsWalkable(demoGrid, path[0]!, path.slice(1))).toBe(true);
  });

  it("every path found between random points is walkable leg by leg", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 39.5, noNaN: true }), fc.double({ min: 0.5, max: 29.5, noNaN: true }), fc.double({ min: 0.5, max: 39.5, noNaN: true }), fc.double({ min: 0.5, max: 29.5, noNaN: true }), (ax, ay, bx, by) => {
        fc.pre(demoGrid.isFree(ax, ay));
        const path: Waypoint[] = [];
        if (!demoGrid.findPath(ax, ay, bx, by, path)) return true;
        return legsWalkable(demoGrid, { x: ax, y: ay }, path) && path.every((p) => demoGrid.isFree(p.x, p.y));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
