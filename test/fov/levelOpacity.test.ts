import { deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAPS_DIR } from "../../server/rooms/mapCatalog.js";
import { sightGridOf } from "../../server/sim/sightGrid.js";
import { loadMapFile, parseTiledMap } from "../../server/sim/tiledMap.js";
import { computeFov, opacityGridFromTiled, OpacityGrid, rasterizeOpacity, TileVision } from "../../shared/fov/index.js";
import { objectLayer, rect, tiledJson } from "../fixtures/tiledJson.js";

/** The maps of this file: 8 x 6 tiles. */
const tiled = (layers: unknown[], extra: Record<string, unknown> = {}) => tiledJson(layers, { width: 8, height: 6, ...extra });

/** The grid as text, `#` opaque. */
function draw(grid: OpacityGrid): string[] {
  const out: string[] = [];
  for (let y = 0; y < grid.height; y++) {
    let row = "";
    for (let x = 0; x < grid.width; x++) row += grid.isOpaque(x, y) ? "#" : ".";
    out.push(row);
  }
  return out;
}

describe("the opacity grid of an object map (walls rasterized at the map's tile size)", () => {
  it("a tile is opaque iff a wall covers part of its area: thin walls count, edges on a boundary do not spill, glass is clear", () => {
    const json = tiled([objectLayer("walls", [
      rect(1, 1, 1, 4, 0.25), // a thin wall across tiles 1..4 of row 1
      rect(2, 6, 0, 1, 3), // exactly tile column 6, rows 0..2: its edges sit on tile boundaries
      rect(3, 1, 3, 3, 0.5, "glass"), // a window: transparent to sight
      rect(4, 4.5, 4.5, 1, 1, "wall", { rotation: 45 }), // a crate turned into a diamond hanging from (4.5, 4.5)
    ])]);
    const grid = opacityGridFromTiled(json);
    expect(draw(grid)).toEqual([
      "......#.",
      ".####.#.",
      "......#.",
      "........",
      "....#...",
      "...###..",
    ]);
    expect(draw(sightGridOf(parseTiledMap(json, "t.tmj")))).toEqual(draw(grid));
  });

  it("a concave L-shaped wall leaves its notch clear", () => {
    const json = tiled([objectLayer("walls", [{ id: 1, x: 0, y: 0, polygon: [{ x: 0, y: 0 }, { x: 128, y: 0 }, { x: 128, y: 32 }, { x: 32, y: 32 }, { x: 32, y: 128 }, { x: 0, y: 128 }] }])]);
    expect(draw(opacityGridFromTiled(json)).slice(0, 4)).toEqual(["####....", "#.......", "#.......", "#......."]);
  });

  it("solid tile layers map to exactly their tiles, from an array, base64, or zlib through `inflate`", () => {
    const gids = Array.from({ length: 48 }, (_, i) => (i % 8 === 2 || i >= 40 ? 1 : 0));
    const layer = (data: unknown, more: Record<string, unknown> = {}) => ({ type: "tilelayer", name: "rock", width: 8, height: 6, data, properties: [{ name: "solid", type: "bool", value: true }], ...more });
    const bytes = Buffer.from(Uint32Array.from(gids).buffer);
    const fromArray = opacityGridFromTiled(tiled([layer(gids)]));
    const fromBase64 = opacityGridFromTiled(tiled([layer(bytes.toString("base64"), { encoding: "base64" })]));
    const fromZlib = opacityGridFromTiled(tiled([layer(deflateSync(bytes).toString("base64"), { encoding: "base64", compression: "zlib" })]), {
      inflate: (b) => new Uint8Array(inflateSync(b)),
    });
    expect([...fromArray.cells]).toEqual(gids);
    expect(fromBase64.cells).toEqual(fromArray.cells);
    expect(fromZlib.cells).toEqual(fromArray.cells);
    expect(() => opacityGridFromTiled(tiled([layer(deflateSync(bytes).toString("base64"), { encoding: "base64", compression: "zlib" })]))).toThrow(/zlib-compressed: pass options\.inflate/);
  });

  it("tiles marked solid in the tileset block sight, others do not", () => {
    const json = tiled(
      [{ type: "tilelayer", name: "floor", width: 8, height: 6, data: Array.from({ length: 48 }, (_, i) => (i % 8 === 3 ? 5 : 2)) }],
      { tilesets: [{ firstgid: 1, tiles: [{ id: 4, properties: [{ name: "solid", type: "bool", value: true }] }] }] },
    );
    expect(draw(opacityGridFromTiled(json))).toEqual(Array(6).fill("...#...."));
  });

  it("refuses what is not a map with an error saying why", () => {
    expect(() => opacityGridFromTiled([])).toThrow(/the map is not a JSON object/);
    expect(() => opacityGridFromTiled({ ...tiled([]), orientation: "hexagonal" })).toThrow(/orientation must be "orthogonal"/);
    expect(() => opacityGridFromTiled({ ...tiled([]), width: 0 })).toThrow(/width must be a positive integer/);
    expect(() => opacityGridFromTiled(tiled([], { tilesets: [{ firstgid: 1, source: "walls.tsj" }] }))).toThrow(/external tileset "walls\.tsj" needs options\.readTileset/);
    expect(() => rasterizeOpacity({ columns: 2, rows: 2, tileWidth: 1, tileHeight: 1, opaque: [[{ x: 0, y: 0 }, { x: NaN, y: 1 }, { x: 1, y: 1 }]] })).toThrow(RangeError);
  });
});

describe("server and client agree on every bundled map", () => {
  const maps = ["demo", "vault", "compound"];

  it.each(maps)("%s: the client's grid from the public map JSON equals the server's from the loaded map", (name) => {
    const server = sightGridOf(loadMapFile(`${MAPS_DIR}${name}.tmj`));
    const client = opacityGridFromTiled(loadMapFile(`${MAPS_DIR}${name}.tmj`).publicSource);
    expect([client.width, client.height, client.tileWidth, client.tileHeight]).toEqual([server.width, server.height, server.tileWidth, server.tileHeight]);
    expect(client.cells).toEqual(server.cells);
    expect(server.cells.some((v) => v === 1) && server.cells.some((v) => v === 0)).toBe(true);
  });

  it("a client computes the same visible tiles as the server from its own position, on every map", () => {
    for (const name of maps) {
      const map = loadMapFile(`${MAPS_DIR}${name}.tmj`);
      const server = new TileVision(sightGridOf(map), { radius: 20 });
      const client = opacityGridFromTiled(loadMapFile(`${MAPS_DIR}${name}.tmj`).publicSource);
      for (const at of [...map.spawns, ...map.guards]) {
        const tile = server.grid.eyeTile(at.x, at.y, { x: 0, y: 0 });
        server.update(tile.x, tile.y);
        const mine = client.eyeTile(at.x, at.y, { x: 0, y: 0 });
        const seen: number[] = [];
        computeFov(client, mine.x, mine.y, 20, (x, y) => seen.push(y * client.width + x));
        const serverSeen = [...Array(client.width * client.height).keys()].filter((i) => server.isVisible(i % client.width, Math.floor(i / client.width)));
        expect(seen.sort((a, b) => a - b), `${name} from ${at.name}`).toEqual(serverSeen);
      }
    }
  });
});
