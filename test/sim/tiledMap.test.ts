import { Occluders } from "sightline/occluders";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { greedyMesh } from "../../shared/tiled/greedyMesh.js";
import { buildMapWorld, CATEGORY } from "../../server/sim/mapWorld.js";
import { loadMapFile, loadMapsDir, MapError, parseTiledMap } from "../../server/sim/tiledMap.js";
import { PIXELS_PER_METER } from "../../shared/gameRules.js";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { objectLayer, tiledJson } from "../fixtures/tiledJson.js";

const DEMO = "server/maps/demo.tmj";

describe("the demo map", () => {
  const map = loadMapFile(DEMO);

  it("loads rooms, a window, six patrolling guards, two sweeping cameras, spawns and an exit", () => {
    expect(map.name).toBe("demo");
    expect(map.pixelsPerMeter).toBe(PIXELS_PER_METER);
    expect([map.width, map.height]).toEqual([40, 30]);
    expect(map.walls.length).toBeGreaterThan(10);
    expect(map.glass).toHaveLength(1);
    expect(map.guards).toHaveLength(6);
    expect(map.guards.every((g) => g.patrol.length >= 2)).toBe(true);
    expect(map.guards.filter((g) => g.patrolLoop)).toHaveLength(1);
    expect(map.cameras).toHaveLength(2);
    expect(map.spawns.map((s) => s.name)).toEqual(["A", "B", "C"]);
    expect(map.exits).toHaveLength(1);
    // Degrees in Tiled, radians here; pixels there, meters here.
    const di = map.guards.find((g) => g.name === "Di")!;
    expect(di.facing).toBeCloseTo(90 * DEG, 12);
    expect(di.fov).toBeCloseTo(100 * DEG, 12);
    expect(di.range).toBe(10);
    expect([di.x, di.y]).toEqual([31, 12]);
    const cam = map.cameras.find((c) => c.name === "hall-cam")!;
    expect(cam.sweep).toBeCloseTo(60 * DEG, 12);
    expect(cam.period).toBe(10);
  });

  it("builds a world where the window camera sees through the glass and walls hide", () => {
    const { fixtureCount } = buildMapWorld(map);
    expect(fixtureCount).toBe(20); // 15 rectangles, an L wall in 4 triangles, 1 pane
    const vision = new VisionSystem(Occluders.fromLevel(map));
    const cam = map.cameras.find((c) => c.name === "window-cam")!;
    vision.addObserver("cam", { position: cam, facing: cam.facing, fov: cam.fov, range: cam.range });
    vision.addObservable("beyond-window", { position: { x: 26, y: 7 }, radius: 0.4 }); // top-right room, through the glass
    vision.addObservable("beyond-wall", { position: { x: 26, y: 4 }, radius: 0.4 }); // same room, behind the solid part
    vision.tick();
    expect(vision.canSee("cam", "beyond-window")).toBe(true);
    expect(vision.canSee("cam", "beyond-wall")).toBe(false);
  });

  it("glass stops bodies, exits are sensors, and glass blocks no sight", () => {
    const { level, exits } = buildMapWorld(map);
    const cats = new Set<number>();
    for (let f = level.getFixtureList(); f; f = f.getNext()) cats.add(f.getFilterCategoryBits());
    expect(cats).toEqual(new Set([CATEGORY.WALL, CATEGORY.GLASS]));
    expect(exits[0]!.getFixtureList()!.isSensor()).toBe(true);
    expect(Occluders.fromLevel(map).size).toBe(map.walls.length + map.solidTiles.length + map.doors.length);
  });
});

describe("objects become level geometry in meters", () => {
  it("rotated rectangles rotate clockwise about their top-left corner, as in Tiled", () => {
    const map = parseTiledMap(tiledJson([objectLayer("walls", [{ id: 1, x: 64, y: 64, width: 64, height: 32, rotation: 90 }])]), "t.tmj");
    const pts = map.walls[0]!;
    expect(pts[0]!.x).toBeCloseTo(2, 12);
    expect(pts[0]!.y).toBeCloseTo(2, 12);
    expect(pts[1]!.x).toBeCloseTo(2, 12); // (w, 0) turned 90 degrees clockwise on screen points down (+y)
    expect(pts[1]!.y).toBeCloseTo(4, 12);
  });

  it("polygons are relative to the object; pixelsPerMeter scales everything; class works like type", () => {
    const map = parseTiledMap(tiledJson([objectLayer("stuff", [
      { id: 1, class: "wall", x: 100, y: 100, polygon: [{ x: 0, y: 0 }, { x: 50, y: 0 }, { x: 0, y: 50 }] },
    ])], { properties: [{ name: "pixelsPerMeter", type: "float", value: 50 }] }), "t.tmj");
    expect(map.walls[0]).toEqual([{ x: 2, y: 2 }, { x: 3, y: 2 }, { x: 2, y: 3 }]);
    expect(map.width).toBeCloseTo((10 * 32) / 50, 12);
  });

  it("guards and cameras take defaults for the properties a map leaves out", () => {
    const map = parseTiledMap(tiledJson([objectLayer("actors", [
      { id: 1, type: "guard", x: 32, y: 32, point: true },
      { id: 2, type: "camera", x: 64, y: 32, point: true },
    ])]), "t.tmj");
    expect(map.guards[0]).toMatchObject({ facing: 0, range: 12, patrol: [], patrolLoop: false });
    expect(map.guards[0]!.fov).toBeCloseTo(Math.PI / 2, 12);
    expect(map.cameras[0]!.period).toBe(6);
  });
});

describe("map errors name the file, the layer and the object, and say why", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", [], /^t\.tmj: is not a Tiled map/],
    ["isometric", { ...tiledJson([]), orientation: "isometric" }, /orientation must be "orthogonal"/],
    ["infinite", { ...tiledJson([]), infinite: true }, /infinite maps are not supported/],
    ["bad ppm", tiledJson([], { properties: [{ name: "pixelsPerMeter", value: 0 }] }), /property pixelsPerMeter must be a positive number/],
    ["guard fov", tiledJson([objectLayer("actors", [{ id: 7, type: "guard", x: 0, y: 0, point: true, properties: [{ name: "fov", value: 400 }] }])]),
      /^t\.tmj: layer "actors", object 7: property "fov" must be degrees in \(0, 360\]/],
    ["missing route", tiledJson([objectLayer("actors", [{ id: 7, type: "guard", x: 0, y: 0, point: true, properties: [{ name: "patrol", value: 99 }] }])]),
      /layer "actors", object 7: property "patrol" refers to object 99, which does not exist/],
    ["route not a line", tiledJson([objectLayer("actors", [
      { id: 7, type: "guard", x: 0, y: 0, point: true, properties: [{ name: "patrol", value: 8 }] },
      { id: 8, type: "spawn", x: 0, y: 0, point: true },
    ])]), /object 7: property "patrol" refers to object 8, which is not a polyline or polygon/],
    ["ellipse wall", tiledJson([objectLayer("walls", [{ id: 3, x: 0, y: 0, width: 10, height: 10, ellipse: true }])]), /layer "walls", object 3: ellipses are not supported/],
    ["spawn not a point", tiledJson([objectLayer("a", [{ id: 4, type: "spawn", x: 0, y: 0, width: 5, height: 5 }])]), /object 4: a spawn must be a point object/],
    ["duplicate spawn", tiledJson([objectLayer("a", [{ id: 4, type: "spawn", name: "A", x: 0, y: 0, point: true }, { id: 5, type: "spawn", name: "A", x: 1, y: 0, point: true }])]),
      /object 5: spawn name "A" is used twice/],
    ["NaN coordinate", tiledJson([objectLayer("walls", [{ id: 6, x: "12", y: 0, width: 5, height: 5 }])]), /object 6: x must be a finite number/],
    ["duplicate id", tiledJson([objectLayer("a", [{ id: 4, type: "spawn", x: 0, y: 0, point: true }]), objectLayer("b", [{ id: 4, type: "spawn", x: 0, y: 0, point: true }])]),
      /layer "b", object 4: duplicate object id/],
    ["xml tileset", tiledJson([], { tilesets: [{ firstgid: 1, source: "tiles.tsx" }] }), /external tileset "tiles\.tsx" is not JSON/],
    ["short tile data", tiledJson([{ type: "tilelayer", name: "floor", width: 10, height: 10, data: [1, 2, 3], properties: [{ name: "solid", value: true }] }]),
      /layer "floor": tile data holds 3 tiles, expected 100/],
  ];
  it.each(cases)("%s", (_label, json, message) => {
    const run = () => parseTiledMap(json, "t.tmj");
    expect(run).toThrow(MapError);
    expect(run).toThrow(message);
  });

  it("a folder with a broken map still loads the others, and reports the broken one", () => {
    const dir = mkdtempSync(join(tmpdir(), "maps-"));
    try {
      copyFileSync(DEMO, join(dir, "demo.tmj"));
      writeFileSync(join(dir, "broken.tmj"), "{ not json");
      writeFileSync(join(dir, "notes.txt"), "ignored");
      const { maps, errors } = loadMapsDir(dir);
      expect([...maps.keys()]).toEqual(["demo"]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.file).toBe("broken.tmj");
      expect(errors[0]!.message).toMatch(/^broken\.tmj: is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("solid tile layers become a few merged rectangles", () => {
  it("a solid layer, base64 + zlib, with flip flags, merges into rectangles covering exactly its tiles", () => {
    const w = 10;
    const h = 10;
    const gids = new Uint32Array(w * h);
    for (let c = 0; c < w; c++) { gids[c] = 1; gids[(h - 1) * w + c] = 1 | 0x80000000; } // top and bottom rows, one flipped
    for (let r = 0; r < h; r++) { gids[r * w] = 1; gids[r * w + w - 1] = 1 | 0x40000000; }
    const data = deflateSync(Buffer.from(gids.buffer)).toString("base64");
    const map = parseTiledMap(tiledJson([{ type: "tilelayer", name: "walls", width: w, height: h, encoding: "base64", compression: "zlib", data, properties: [{ name: "solid", type: "bool", value: true }] }]), "t.tmj");
    expect(map.solidTileCount).toBe(36);
    expect(map.solidTiles.length).toBeLessThanOrEqual(4);
    const area = map.solidTiles.reduce((a, r) => a + r.width * r.height, 0);
    expect(area).toBeCloseTo(36, 9); // 1 m tiles
  });

  it("tiles marked solid in the tileset count, others do not", () => {
    const map = parseTiledMap(tiledJson(
      [{ type: "tilelayer", name: "floor", width: 10, height: 10, data: Array.from({ length: 100 }, (_, i) => (i % 10 === 3 ? 5 : 2)) }],
      { tilesets: [{ firstgid: 1, tiles: [{ id: 4, properties: [{ name: "solid", type: "bool", value: true }] }] }] },
    ), "t.tmj");
    expect(map.solidTileCount).toBe(10);
    expect(map.solidTiles).toEqual([{ x: 3, y: 0, width: 1, height: 10 }]);
  });

  it("greedy meshing covers exactly the solid cells, without overlap, on random grids", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 }), fc.array(fc.boolean(), { minLength: 576, maxLength: 576 }), (w, h, bits) => {
      const solid = (c: number, r: number) => bits[r * 24 + c]!;
      const cover = new Uint8Array(w * h);
      for (const rect of greedyMesh(w, h, solid)) {
        for (let r = rect.row; r < rect.row + rect.rows; r++) for (let c = rect.col; c < rect.col + rect.cols; c++) cover[r * w + c]!++;
      }
      for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) expect(cover[r * w + c]).toBe(solid(c, r) ? 1 : 0);
    }), { numRuns: 200 });
  });
});

describe("concave walls stay concave", () => {
  it("an L-shaped wall leaves its notch open (planck alone would fill it with the convex hull)", () => {
    const map = parseTiledMap(tiledJson([objectLayer("walls", [
      { id: 1, x: 0, y: 0, polygon: [{ x: 0, y: 0 }, { x: 128, y: 0 }, { x: 128, y: 32 }, { x: 32, y: 32 }, { x: 32, y: 128 }, { x: 0, y: 128 }] },
    ])]), "t.tmj");
    const { world } = buildMapWorld(map);
    const vision = new VisionSystem(world, { opaqueMask: CATEGORY.WALL });
    // Outside the L's convex hull, looking into the notch across the hull's diagonal (x + y = 5).
    vision.addObserver("g", { position: { x: 6, y: 6 }, facing: (5 * Math.PI) / 4, range: 10, fov: Math.PI / 2 });
    vision.addObservable("in-notch", { position: { x: 2, y: 2 } });
    vision.tick();
    expect(vision.canSee("g", "in-notch")).toBe(true);
  });
});
