import { Occluders } from "sightline/occluders";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { greedyMesh } from "../../shared/tiled/greedyMesh.js";
import { buildMapWorld, CATEGORY } from "../../server/sim/mapWorld.js";
import { NavGrid, type Waypoint } from "../../server/sim/navGrid.js";
import { sightGridOf } from "../../server/sim/sightGrid.js";
import { loadMapFile, parseTiledMap, type StealthMap } from "../../server/sim/tiledMap.js";
import { VisionSystem } from "../../server/vision/index.js";
import { computeFov } from "../../shared/fov/index.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { cellularCave } from "../../loadtest/maps/caves.js";
import { tiledJson } from "../fixtures/tiledJson.js";

const VAULT = "server/maps/vault.tmj";

/** A Tiled map whose only layer is a solid tile layer (1 m tiles): `solid[r * width + c]`. */
function tileMap(width: number, height: number, solid: ArrayLike<number>, name = "tiles.tmj"): StealthMap {
  const rock = { type: "tilelayer", name: "rock", width, height, data: Array.from(solid, (v) => (v ? 1 : 0)), properties: [{ name: "solid", type: "bool", value: true }] };
  return parseTiledMap(tiledJson([rock], { width, height }), name);
}

describe("the vault map: a level drawn with a solid tile layer", () => {
  const vault = loadMapFile(VAULT);

  it("loads with spawns, three patrolling guards on walkable routes, a camera, and an exit reachable from every spawn", () => {
    expect(vault.spawns.map((s) => s.name)).toEqual(["A", "B", "C"]);
    expect(vault.guards.map((g) => g.name)).toEqual(["Vera", "Max", "Ivo"]);
    expect(vault.cameras).toHaveLength(1);
    expect(vault.exits).toHaveLength(1);
    const nav = NavGrid.ofMap(vault);
    const exit = { x: 22.5, y: 5.5 };
    for (const s of vault.spawns) {
      const path: Waypoint[] = [];
      expect(nav.findPath(s.x, s.y, exit.x, exit.y, path), `from spawn ${s.name}`).toBe(true);
      expect(path.at(-1)).toEqual(exit);
    }
    for (const g of vault.guards) {
      const stops = g.patrolLoop ? [...g.patrol, g.patrol[0]!] : g.patrol;
      expect(stops.slice(1).every((p, i) => nav.walkable(stops[i]!.x, stops[i]!.y, p.x, p.y)), `route of ${g.name}`).toBe(true);
    }
  });

  it("its 211 solid tiles become 32 merged fixtures; the demo's walls drawn as tiles would be 234 tiles in 18 rectangles", () => {
    expect([vault.solidTileCount, vault.solidTiles.length, buildMapWorld(vault).fixtureCount]).toEqual([211, 32, 32]);
    const demo = loadMapFile("server/maps/demo.tmj");
    const grid = sightGridOf(demo);
    const opaque = grid.cells.reduce((a, v) => a + v, 0);
    expect([demo.solidTileCount, buildMapWorld(demo).fixtureCount, opaque, greedyMesh(grid.width, grid.height, (c, r) => grid.cells[r * grid.width + c] === 1).length]).toEqual([0, 20, 234, 18]);
  });
});

describe("merged fixtures", () => {
  it("cover exactly the solid tiles: every fixture is a tile-aligned rectangle of solid tiles, no tile twice, none left out", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }), (w, h, bits) => {
      const solid = Uint8Array.from({ length: w * h }, (_, i) => (bits[i] ? 1 : 0));
      const { level, fixtureCount } = buildMapWorld(tileMap(w, h, solid));
      const covered = new Uint8Array(w * h);
      let fixtures = 0;
      for (let f = level.getFixtureList(); f; f = f.getNext()) {
        fixtures++;
        expect(f.getFilterCategoryBits()).toBe(CATEGORY.WALL);
        const box = f.getAABB(0);
        const [x0, y0, x1, y1] = [box.lowerBound.x, box.lowerBound.y, box.upperBound.x, box.upperBound.y].map((v) => Math.round(v));
        expect([box.lowerBound.x, box.lowerBound.y, box.upperBound.x, box.upperBound.y].map((v, i) => Math.abs(v - [x0, y0, x1, y1][i]!) < 0.02)).toEqual([true, true, true, true]);
        // A rectangle: the fixture's area is its box's area.
        const mass = { mass: 0, center: { x: 0, y: 0 }, I: 0 };
        f.getShape().computeMass(mass as never, 1);
        expect(mass.mass).toBeCloseTo((x1! - x0!) * (y1! - y0!), 9);
        for (let r = y0!; r < y1!; r++) for (let c = x0!; c < x1!; c++) covered[r * w + c]!++;
      }
      expect(fixtures).toBe(fixtureCount);
      expect([...covered]).toEqual([...solid]);
      expect(fixtures).toBeLessThanOrEqual(Math.max(1, solid.reduce((a, v) => a + v, 0)));
    }), { numRuns: 150 });
  });
});

/** Tile centres in doubled coordinates (integers), so every test below is exact. */
const centre = (t: number) => 2 * t + 1;

/** Whether the closed segment P-Q meets the closed square of tile (i, j) (doubled coordinates). */
function touchesSquare(px: number, py: number, qx: number, qy: number, i: number, j: number): boolean {
  const [x0, x1, y0, y1] = [2 * i, 2 * i + 2, 2 * j, 2 * j + 2];
  if (Math.max(px, qx) < x0 || Math.min(px, qx) > x1 || Math.max(py, qy) < y0 || Math.min(py, qy) > y1) return false;
  const nx = py - qy;
  const ny = qx - px;
  const side = (x: number, y: number) => Math.sign(nx * (x - px) + ny * (y - py));
  const s = [side(x0, y0), side(x1, y0), side(x1, y1), side(x0, y1)];
  return !(s.every((v) => v > 0) || s.every((v) => v < 0));
}

/** Whether the closed segment P-Q enters the open diamond inscribed in tile (i, j) (doubled coordinates). */
function entersDiamond(px: number, py: number, qx: number, qy: number, i: number, j: number): boolean {
  const cx = 2 * i + 1;
  const cy = 2 * j + 1;
  const diamond = [[cx - 1, cy], [cx, cy - 1], [cx + 1, cy], [cx, cy + 1]] as const;
  // Separated (touching allowed) along a diamond edge normal, the segment's normal or its direction.
  for (const [ax, ay] of [[1, 1], [1, -1], [py - qy, qx - px], [qx - px, qy - py]] as const) {
    const seg = [px * ax + py * ay, qx * ax + qy * ay];
    const dia = diamond.map(([x, y]) => x * ax + y * ay);
    if (Math.max(...seg) <= Math.min(...dia) || Math.min(...seg) >= Math.max(...dia)) return false;
  }
  return true;
}

describe("tile FOV and ray vision agree on the same tile map", () => {
  /**
   * For floor tiles A and B within the radius, with S the segment between their centres:
   *  1. if S touches no solid tile's closed square, the vision engine's ray sees B from A, and tile FOV
   *     from A reveals B (FOV sees at least what an unobstructed ray sees);
   *  2. if tile FOV from A reveals B, S enters no solid tile's inscribed diamond (FOV sees no further than
   *     walls with bevelled corners allow).
   * Between the two lie rays that graze a solid tile's corner: tile FOV, with its bevelled corners, may
   * see past them. On these (seeded, fixed) maps the ray engine counted every such touch as blocked, so
   * nothing a ray sees is ever hidden by tile FOV (rayOnly = 0): the fog of war never hides what a
   * guard's ray could see.
   */
  function agreement(map: StealthMap, radius: number, pairsWanted: number, seed: number) {
    const grid = sightGridOf(map);
    const vision = new VisionSystem(Occluders.fromLevel(map));
    const floors = [...grid.cells.keys()].filter((i) => grid.cells[i] === 0);
    const random = seededRandom(seed);
    const counts = { pairs: 0, clear: 0, fovOnly: 0, rayOnly: 0, both: 0, neither: 0 };
    const w = grid.width;
    const seen = new Uint8Array(grid.cells.length);
    while (counts.pairs < pairsWanted) {
      const a = floors[Math.floor(random() * floors.length)]!;
      const [ax, ay] = [a % w, Math.floor(a / w)];
      seen.fill(0);
      computeFov(grid, ax, ay, radius, (x, y) => { seen[y * w + x] = 1; });
      vision.addObserver("A", { position: { x: ax + 0.5, y: ay + 0.5 }, facing: 0, fov: 2 * Math.PI, range: radius + 1 });
      for (const b of floors) {
        const [bx, by] = [b % w, Math.floor(b / w)];
        if (b === a || (bx - ax) ** 2 + (by - ay) ** 2 > radius * radius) continue;
        const [px, py, qx, qy] = [centre(ax), centre(ay), centre(bx), centre(by)];
        let touches = false;
        let enters = false;
        for (let j = Math.min(ay, by) - 1; j <= Math.max(ay, by) + 1; j++) {
          for (let i = Math.min(ax, bx) - 1; i <= Math.max(ax, bx) + 1; i++) {
            if (!grid.isOpaque(i, j)) continue;
            touches ||= touchesSquare(px, py, qx, qy, i, j);
            enters ||= entersDiamond(px, py, qx, qy, i, j);
          }
        }
        vision.addObservable("B", { position: { x: bx + 0.5, y: by + 0.5 } });
        const ray = vision.check("A", "B");
        vision.remove("B");
        const fov = seen[b] === 1;
        counts.pairs++;
        if (!touches) {
          counts.clear++;
          expect(ray && fov, `A ${ax},${ay} B ${bx},${by}: an unobstructed segment, ray ${ray}, fov ${fov}`).toBe(true);
        }
        if (fov) expect(enters, `A ${ax},${ay} B ${bx},${by}: revealed, yet the segment enters a wall diamond`).toBe(false);
        if (fov && ray) counts.both++;
        else if (fov) counts.fovOnly++;
        else if (ray) counts.rayOnly++;
        else counts.neither++;
      }
      vision.remove("A");
    }
    return counts;
  }

  it("on the vault map", () => {
    const counts = agreement(loadMapFile(VAULT), 12, 20_000, 5);
    expect(counts.rayOnly).toBe(0);
    expect(counts.fovOnly).toBeGreaterThan(500);
    expect(counts.clear).toBeGreaterThan(3_000);
    expect(counts.neither).toBeGreaterThan(3_000);
  });

  it("on cave tile maps", () => {
    for (const seed of [31, 32]) {
      const cave = cellularCave(40, 40, seed);
      const counts = agreement(tileMap(40, 40, cave.cells, `cave${seed}.tmj`), 10, 12_000, seed);
      expect(counts.rayOnly).toBe(0);
      expect(counts.clear).toBeGreaterThan(1_000);
      expect(counts.neither).toBeGreaterThan(1_000);
    }
  });
});
