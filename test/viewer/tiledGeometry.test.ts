import { describe, expect, it } from "vitest";
import { rasterizeOpacity } from "sightline/fov";
import { MAPS_DIR } from "../../server/rooms/mapCatalog.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { readTiledGeometry } from "../../shared/viewer/tiledGeometry.js";

describe("the viewer reads a public map as the server reads the file", () => {
  it.each(["demo", "vault", "compound"])("%s: the same grid, walls, glass, doors, exits and spawns, and solid tiles tile by tile", (name) => {
    const server = loadMapFile(`${MAPS_DIR}${name}.tmj`);
    const viewer = readTiledGeometry(loadMapFile(`${MAPS_DIR}${name}.tmj`).publicSource);
    expect([viewer.columns, viewer.rows, viewer.tileWidth, viewer.tileHeight, viewer.width, viewer.height])
      .toEqual([server.columns, server.rows, server.tileWidth, server.tileHeight, server.width, server.height]);
    expect(viewer.walls).toEqual(server.walls);
    expect(viewer.glass).toEqual(server.glass);
    expect(viewer.doors).toEqual(server.doors.map(({ id, outline, open }) => ({ id, outline, open })));
    expect(viewer.doors.length).toBeGreaterThan(0);
    expect(viewer.exits).toEqual(server.exits);
    expect(viewer.spawns).toEqual(server.spawns.map(({ name: n, x, y }) => ({ name: n, x, y })));
    const tiles = rasterizeOpacity({
      columns: server.columns, rows: server.rows, tileWidth: server.tileWidth, tileHeight: server.tileHeight,
      opaque: server.solidTiles.map((r) => [{ x: r.x, y: r.y }, { x: r.x + r.width, y: r.y }, { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height }]),
    });
    expect([...viewer.solidTiles]).toEqual([...tiles.cells]);
    expect(viewer.solidTiles.reduce((n, v) => n + v, 0)).toBe(server.solidTileCount);
  });
});
