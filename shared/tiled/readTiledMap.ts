import { greedyMesh } from "./greedyMesh.js";
import { isPoint, outlineOf, transformPoints, type RawObject, type TiledPoint } from "./objectGeometry.js";
import { solidTileGids, tileData } from "./tileLayers.js";
import { TiledMapError, type Fail } from "./tiledMapError.js";
import { finiteNum, num, positiveInt, positiveNumber, properties } from "./tiledValues.js";

/** Pixels per meter when the map has no `pixelsPerMeter` property. */
export const DEFAULT_PIXELS_PER_METER = 32;

/** How {@link readTiledMap} gets what plain map JSON cannot carry, and names the map in errors. */
export interface TiledReadOptions {
  /** The name errors give the map (a file name). Default "map". */
  file?: string;
  /** An external tileset (`.tsj`/`.json`) by its `source`: parsed JSON, or its text. */
  readTileset?: (source: string) => unknown;
  /** Decompresses a base64 tile layer ("zlib", "gzip" or "zstd"); plain and CSV layers need none. */
  inflate?: (bytes: Uint8Array, compression: string) => Uint8Array;
  /**
   * Object kinds besides `wall`, `glass` and `door` that must be rectangles or polygons (exits, zones):
   * their outline is checked like a wall's, and a malformed one is an error rather than left out.
   */
  areaKinds?: readonly string[];
}

/** One object of an object layer, in world meters. */
export interface TiledObject {
  id: number;
  name: string;
  /** Its type (Tiled's "Class"; `class` is read too), lowercased; "wall" for an untyped shape in a layer named `walls`. */
  kind: string;
  /** The name of its layer. */
  layer: string;
  /** Its origin, meters. */
  x: number;
  y: number;
  /** A point object (or one without shape or size). */
  point: boolean;
  /** The outline of a rectangle or polygon object, meters, rotated. */
  outline?: TiledPoint[];
  /** The points of a polyline or polygon object, meters, rotated (a route, a path). */
  points?: TiledPoint[];
  /** True for a polygon (its points close into a loop), false otherwise. */
  closed: boolean;
  /** Its custom properties, by name. */
  properties: ReadonlyMap<string, unknown>;
}

/** A door of a Tiled map: an object of type `door`, a rectangle or polygon, meters. */
export interface TiledDoor {
  /** Its object id (doors are found by it, e.g. `Occluders.tiledDoor`). */
  id: number;
  name: string;
  layer: string;
  outline: TiledPoint[];
  /** Its boolean property `open`: whether it starts open. Default false. */
  open: boolean;
}

/** A Tiled map as sight and games need it, in world meters (Tiled pixels / `pixelsPerMeter`), y down. */
export interface TiledLevel {
  pixelsPerMeter: number;
  /** The tile grid: columns and rows, and the size of one tile in meters. */
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** Extent of the tile grid, meters. */
  width: number;
  height: number;
  /** Opaque, solid outlines (rectangles and polygons, concave allowed, as drawn). */
  walls: TiledPoint[][];
  /** Solid but see-through outlines (windows). */
  glass: TiledPoint[][];
  /** Doors: opaque and solid while shut. */
  doors: TiledDoor[];
  /** Solid tiles merged into few rectangles, meters. */
  solidTiles: { x: number; y: number; width: number; height: number }[];
  /** Solid tiles before merging. */
  solidTileCount: number;
  /** Every object of every object layer (groups included), in the order of the map. */
  objects: TiledObject[];
}

/**
 * Reads an orthogonal, finite Tiled map (`.tmj` JSON) in a browser or on a server. What it recognises:
 * - `wall`: an object of that type, or an untyped rectangle or polygon in a layer named `walls`;
 * - `glass`: an object of that type: solid, but transparent to sight;
 * - `door`: an object of that type (a rectangle or polygon): opaque and solid while shut, starting open
 *   when its boolean property `open` is true;
 * - solid tiles: every tile of a tile layer whose property `solid` is true, and every tile whose tileset
 *   tile has the property `solid: true` (flip flags ignored), merged into rectangles;
 * - every other object, as a {@link TiledObject} for the game to interpret.
 * Meters are Tiled pixels divided by the map property `pixelsPerMeter` (default 32).
 * @throws TiledMapError naming the file, the layer and the object
 */
export function readTiledMap(json: unknown, options: TiledReadOptions = {}): TiledLevel {
  const file = options.file ?? "map";
  const fail = (detail: string, layer?: string, id?: number): never => {
    throw new TiledMapError(file, detail, layer, id);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) fail("is not a Tiled map (the map is not a JSON object)");
  const m = json as Record<string, unknown>;
  if (m.orientation !== "orthogonal") fail(`orientation must be "orthogonal" (got ${JSON.stringify(m.orientation)})`);
  if (m.infinite === true) fail("infinite maps are not supported: save it as a fixed-size map");
  const cols = positiveInt(m.width, "width", fail);
  const rows = positiveInt(m.height, "height", fail);
  const tileW = positiveNumber(m.tilewidth, "tilewidth", fail);
  const tileH = positiveNumber(m.tileheight, "tileheight", fail);
  const mapProps = properties(m.properties, fail);
  const ppm = mapProps.has("pixelsPerMeter") ? positiveNumber(mapProps.get("pixelsPerMeter"), "property pixelsPerMeter", fail) : DEFAULT_PIXELS_PER_METER;
  if (!Array.isArray(m.layers)) fail("has no layers array");
  const areaKinds = new Set(["wall", "glass", "door", ...(options.areaKinds ?? [])]);

  const out: TiledLevel = {
    pixelsPerMeter: ppm, columns: cols, rows, tileWidth: tileW / ppm, tileHeight: tileH / ppm,
    width: (cols * tileW) / ppm, height: (rows * tileH) / ppm,
    walls: [], glass: [], doors: [], solidTiles: [], solidTileCount: 0, objects: [],
  };
  const solidGids = solidTileGids(m.tilesets, options, fail);
  const ids = new Set<number>();

  const walk = (layers: unknown[]): void => {
    for (const raw of layers) {
      if (typeof raw !== "object" || raw === null) fail("has a layer that is not an object");
      const layer = raw as Record<string, unknown>;
      const lname = typeof layer.name === "string" ? layer.name : "(unnamed)";
      if (layer.type === "group") {
        if (!Array.isArray(layer.layers)) fail("group layer has no layers array", lname);
        walk(layer.layers as unknown[]);
      } else if (layer.type === "tilelayer") {
        readTileLayer(layer, lname);
      } else if (layer.type === "objectgroup") {
        if (!Array.isArray(layer.objects)) fail("object layer has no objects array", lname);
        for (const o of layer.objects as unknown[]) readObject(o as RawObject, lname);
      }
      // Image layers carry no geometry.
    }
  };

  const readTileLayer = (layer: Record<string, unknown>, lname: string): void => {
    const layerFail: Fail = (d) => fail(d, lname);
    const wholeLayerSolid = properties(layer.properties, layerFail).get("solid") === true;
    if (!wholeLayerSolid && solidGids.size === 0) return;
    const w = positiveInt(layer.width, "width", layerFail);
    const h = positiveInt(layer.height, "height", layerFail);
    const gids = tileData(layer, w * h, options, layerFail);
    const solid = (c: number, r: number): boolean => {
      const gid = gids[r * w + c]! & 0x0fffffff; // strip the flip and rotation flags
      return gid !== 0 && (wholeLayerSolid || solidGids.has(gid));
    };
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) if (solid(c, r)) out.solidTileCount++;
    const ox = num(layer.offsetx, 0);
    const oy = num(layer.offsety, 0);
    for (const rect of greedyMesh(w, h, solid)) {
      out.solidTiles.push({
        x: (ox + rect.col * tileW) / ppm, y: (oy + rect.row * tileH) / ppm,
        width: (rect.cols * tileW) / ppm, height: (rect.rows * tileH) / ppm,
      });
    }
  };

  const readObject = (obj: RawObject, lname: string): void => {
    if (typeof obj !== "object" || obj === null) fail("has an object that is not an object", lname);
    const id = typeof obj.id === "number" && Number.isInteger(obj.id) ? obj.id : fail("object without an integer id", lname);
    const oops: Fail = (detail) => fail(detail, lname, id);
    if (ids.has(id)) oops("duplicate object id");
    ids.add(id);
    const type = (typeof obj.type === "string" && obj.type !== "" ? obj.type : typeof obj.class === "string" ? obj.class : "").toLowerCase();
    const point = isPoint(obj);
    const kind = type === "" && lname.toLowerCase() === "walls" && (obj.polygon !== undefined || !point) ? "wall" : type;
    const props = properties(obj.properties, oops);
    const x = finiteNum(obj.x, "x", oops) / ppm;
    const y = finiteNum(obj.y, "y", oops) / ppm;
    const o: TiledObject = { id, name: typeof obj.name === "string" ? obj.name : "", kind, layer: lname, x, y, point, closed: Array.isArray(obj.polygon), properties: props };
    if (areaKinds.has(kind)) {
      o.outline = outlineOf(obj, ppm, oops);
      if (kind === "wall") out.walls.push(o.outline);
      else if (kind === "glass") out.glass.push(o.outline);
      else if (kind === "door") {
        const open = props.get("open") ?? false;
        if (typeof open !== "boolean") oops(`a door's property "open" must be a boolean (got ${JSON.stringify(open)})`);
        out.doors.push({ id, name: o.name, layer: lname, outline: o.outline, open: open as boolean });
      }
    } else if (!point && obj.ellipse !== true && obj.polyline === undefined) {
      // Any other rectangle or polygon keeps its outline when it has a valid one (a zone, a route).
      try {
        o.outline = outlineOf(obj, ppm, oops);
      } catch {
        // Not an area this reader was asked to check: the game decides what to make of it.
      }
    }
    const line = Array.isArray(obj.polyline) ? obj.polyline : Array.isArray(obj.polygon) ? obj.polygon : null;
    if (line !== null) o.points = transformPoints(obj, line, ppm, oops);
    out.objects.push(o);
  };

  walk(m.layers as unknown[]);
  return out;
}
