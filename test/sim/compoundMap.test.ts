import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compoundLevel } from "../../loadtest/maps/compoundLevel.js";
import { formatTiledMap } from "../../loadtest/maps/tiledMapJson.js";
import { MAPS_DIR } from "../../server/rooms/mapCatalog.js";
import { NavGrid, type Waypoint } from "../../server/sim/navGrid.js";
import { sightGridOf } from "../../server/sim/sightGrid.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { computeFov } from "../../shared/fov/index.js";

const FILE = `${MAPS_DIR}compound.tmj`;
const compound = loadMapFile(FILE);
const nav = NavGrid.ofMap(compound);

describe("the compound map: a level sized for a full room (25 players, 64 guards)", () => {
  it("is exactly what its generator draws, so the committed file and loadtest/maps/compoundLevel.ts never drift apart", () => {
    expect(readFileSync(FILE, "utf8")).toBe(formatTiledMap(compoundLevel()));
  });

  it("loads as a 128 x 96 m level of merged wall tiles and glass, with 8 spawns, 6 patrolling guards, 4 cameras and the vault's exit reachable from every spawn", () => {
    expect([compound.width, compound.height]).toEqual([128, 96]);
    expect(compound.spawns.map((s) => s.name)).toEqual(["A", "B", "C", "D", "E", "F", "G", "H"]);
    expect(compound.guards).toHaveLength(6);
    expect(compound.cameras).toHaveLength(4);
    expect(compound.exits).toHaveLength(1);
    expect(compound.glass.length).toBeGreaterThan(20);
    // Greedy meshing keeps the fixture count to a few hundred for about 2 200 wall tiles.
    expect(compound.solidTileCount).toBeGreaterThan(2000);
    expect(compound.solidTiles.length).toBeLessThan(compound.solidTileCount / 5);
    const exit = { x: 48.5, y: 6.5 };
    for (const s of compound.spawns) {
      const path: Waypoint[] = [];
      expect(nav.findPath(s.x, s.y, exit.x, exit.y, path), `from spawn ${s.name}`).toBe(true);
      expect(path.at(-1)).toEqual(exit);
    }
    for (const g of compound.guards) {
      expect(g.patrol.length, `route of ${g.name}`).toBeGreaterThanOrEqual(2);
      const stops = g.patrolLoop ? [...g.patrol, g.patrol[0]!] : g.patrol;
      expect(stops.slice(1).every((p, i) => nav.walkable(stops[i]!.x, stops[i]!.y, p.x, p.y)), `route of ${g.name}`).toBe(true);
    }
  });

  it("has no pocket of floor a guard cannot walk to: every free cell of the nav grid is reached from spawn A", () => {
    // Generated guards start on random free cells and only route to cells they can reach, so a sealed
    // pocket would strand one; a doorway narrowed to one tile shows up here too (no free cell fits in it).
    const cellOf = (x: number, y: number) => Math.floor(y / nav.cellSize) * nav.cols + Math.floor(x / nav.cellSize);
    const free = (c: number) => nav.isFree(nav.originX + ((c % nav.cols) + 0.5) * nav.cellSize, nav.originY + (Math.floor(c / nav.cols) + 0.5) * nav.cellSize);
    const reached = new Uint8Array(nav.cols * nav.rows);
    const start = cellOf(compound.spawns[0]!.x, compound.spawns[0]!.y);
    const stack = [start];
    reached[start] = 1;
    while (stack.length > 0) {
      const c = stack.pop()!;
      const col = c % nav.cols;
      for (const n of [col > 0 ? c - 1 : -1, col < nav.cols - 1 ? c + 1 : -1, c - nav.cols, c + nav.cols]) {
        if (n < 0 || n >= reached.length || reached[n] || !free(n)) continue;
        reached[n] = 1;
        stack.push(n);
      }
    }
    const stranded: number[] = [];
    let freeCells = 0;
    for (let c = 0; c < reached.length; c++) {
      if (!free(c)) continue;
      freeCells++;
      if (!reached[c]) stranded.push(c);
    }
    expect(freeCells).toBeGreaterThan(25_000);
    expect(stranded.map((c) => `(${(c % nav.cols) * nav.cellSize}, ${Math.floor(c / nav.cols) * nav.cellSize})`)).toEqual([]);
  });

  it("walls break sight lines: a spot sees a quarter of the floor within 20 m (the demo map: over a third), 2-3% of the level", () => {
    const share = (name: string) => {
      const grid = sightGridOf(loadMapFile(`${MAPS_DIR}${name}.tmj`));
      let floor = 0;
      for (let y = 0; y < grid.height; y++) for (let x = 0; x < grid.width; x++) if (!grid.isOpaque(x, y)) floor++;
      let inRange = 0;
      let seen = 0;
      let spots = 0;
      for (let y = 1; y < grid.height; y += 3) {
        for (let x = 1; x < grid.width; x += 3) {
          if (grid.isOpaque(x, y)) continue;
          spots++;
          for (let ty = Math.max(0, y - 20); ty <= Math.min(grid.height - 1, y + 20); ty++) {
            for (let tx = Math.max(0, x - 20); tx <= Math.min(grid.width - 1, x + 20); tx++) if (!grid.isOpaque(tx, ty) && (tx - x) ** 2 + (ty - y) ** 2 <= 400) inRange++;
          }
          computeFov(grid, x, y, 20, (tx, ty) => (grid.isOpaque(tx, ty) ? undefined : seen++));
        }
      }
      return { ofRange: seen / inRange, ofLevel: seen / spots / floor };
    };
    const level = share("compound");
    const demo = share("demo");
    expect(level.ofRange).toBeLessThan(0.3);
    expect(demo.ofRange).toBeGreaterThan(0.35);
    expect(level.ofLevel).toBeGreaterThan(0.02);
    expect(level.ofLevel).toBeLessThan(0.03);
  });

  it("holds 64 guards: the 58 generated ones start on free cells and walk loops they can reach", () => {
    const sim = new StealthSimulation(compound, { extraGuards: 58 });
    expect(sim.guards).toHaveLength(64);
    const path: Waypoint[] = [];
    for (const g of sim.guards.filter((g) => g.id.startsWith("guard:wander-"))) {
      const { x, y, patrol, patrolLoop } = g.placement;
      expect(nav.isFree(x, y), g.id).toBe(true);
      expect([patrol.length, patrolLoop], g.id).toEqual([4, true]);
      for (let k = 1; k <= patrol.length; k++) {
        const from = patrol[k - 1]!;
        const to = patrol[k % patrol.length]!;
        expect(nav.findPath(from.x, from.y, to.x, to.y, path), `${g.id} leg ${k}`).toBe(true);
      }
    }
    // And they spread over the level rather than crowding one wing: every band of blocks, and the yard, has some.
    const bands = [0, 0, 0, 0];
    for (const g of sim.guards) bands[Math.min(3, Math.floor(g.placement.y / 28))]!++;
    expect(bands.every((n) => n >= 5), `guards per band of rows: ${bands}`).toBe(true);
  });
});
