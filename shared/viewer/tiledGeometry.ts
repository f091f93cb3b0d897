import { readTiledMap, type Point } from "sightline/occluders";

/**
 * What the viewer draws of a map: the public Tiled JSON (`GET /maps/<map>.tmj`, guards and cameras
 * already stripped) read in the browser by the library's reader (`readTiledMap`, as the server's loader
 * `server/sim/tiledMap.ts` reads it), in meters, y down.
 */

export type { Point };

export interface MapDoor {
  id: number;
  outline: Point[];
  open: boolean;
}

export interface MapGeometry {
  /** Meters. */
  width: number;
  height: number;
  /** Tile grid: size of a tile in meters, and the count of columns and rows. */
  tileWidth: number;
  tileHeight: number;
  columns: number;
  rows: number;
  /** Opaque, solid outlines, meters. */
  walls: Point[][];
  /** Solid, see-through outlines (windows). */
  glass: Point[][];
  /** Doors: the Tiled object id (the key of `state.doors`), outline, and whether the map starts it open. */
  doors: MapDoor[];
  exits: Point[][];
  spawns: { name: string; x: number; y: number }[];
  /** One byte per tile, row-major: 1 where a solid tile is. */
  solidTiles: Uint8Array;
}

/** Reads a public Tiled map. Throws a `TiledMapError` naming the layer and object of anything malformed. */
export function readTiledGeometry(json: unknown): MapGeometry {
  // Exits are areas as on the server, so a malformed one fails here as it does there.
  const level = readTiledMap(json, { file: "map", areaKinds: ["exit"] });
  const out: MapGeometry = {
    width: level.width,
    height: level.height,
    tileWidth: level.tileWidth,
    tileHeight: level.tileHeight,
    columns: level.columns,
    rows: level.rows,
    walls: level.walls,
    glass: level.glass,
    doors: level.doors.map((d) => ({ id: d.id, outline: d.outline, open: d.open })),
    exits: [],
    spawns: [],
    solidTiles: new Uint8Array(level.columns * level.rows),
  };
  for (const o of level.objects) {
    if (o.kind === "exit") out.exits.push(o.outline!);
    else if (o.kind === "spawn") out.spawns.push({ name: o.name, x: o.x, y: o.y });
  }
  // The reader merges solid tiles into rectangles; the cone outline wants them tile by tile.
  for (const r of level.solidTiles) {
    const c0 = Math.max(0, Math.round(r.x / level.tileWidth));
    const r0 = Math.max(0, Math.round(r.y / level.tileHeight));
    const c1 = Math.min(level.columns, Math.round((r.x + r.width) / level.tileWidth));
    const r1 = Math.min(level.rows, Math.round((r.y + r.height) / level.tileHeight));
    for (let row = r0; row < r1; row++) out.solidTiles.fill(1, row * level.columns + c0, row * level.columns + c1);
  }
  return out;
}
