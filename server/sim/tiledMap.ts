import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { greedyMesh } from "./greedyMesh.js";
import type { Vec } from "./triangulate.js";

/** A level as the simulation needs it, in world meters and radians (y grows downward, as in Tiled). */
export interface StealthMap {
  /** The file name without extension: what the room's `map` option names. */
  name: string;
  file: string;
  pixelsPerMeter: number;
  /** Extent of the tile grid, meters. */
  width: number;
  height: number;
  /** The tile grid: columns and rows, and the size of one tile in meters (tile field of view works on it). */
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** Opaque, solid outlines (rectangles and polygons, possibly concave), world meters. */
  walls: Vec[][];
  /** Solid but transparent outlines (windows). */
  glass: Vec[][];
  /** Solid tiles merged into rectangles, world meters. */
  solidTiles: { x: number; y: number; width: number; height: number }[];
  /** Tile counts before and after merging, for the record. */
  solidTileCount: number;
  spawns: { id: number; name: string; x: number; y: number }[];
  guards: GuardPlacement[];
  cameras: CameraPlacement[];
  /** Areas the infiltrators must reach. */
  exits: Vec[][];
}

/** Something placed on the map that looks: where it stands and its cone (meters, radians). */
export interface ViewerPlacement {
  /** The Tiled object id. */
  id: number;
  name: string;
  x: number;
  y: number;
  /** Radians (for a camera: the centre of its sweep). */
  facing: number;
  /** FULL cone angle, radians. */
  fov: number;
  /** Meters. */
  range: number;
}

export interface GuardPlacement extends ViewerPlacement {
  /** Route to walk, world meters (empty for a guard that stands still). */
  patrol: Vec[];
  /** True when the route is a closed polygon (walk round), false for a polyline (walk back and forth). */
  patrolLoop: boolean;
}

export interface CameraPlacement extends ViewerPlacement {
  /** Radians either side of `facing`. */
  sweep: number;
  /** Seconds for a full sweep and back. */
  period: number;
}

/** A map that cannot be loaded: says which file, layer and object, and why. */
export class MapError extends Error {
  constructor(readonly file: string, readonly detail: string, readonly layer?: string, readonly objectId?: number) {
    super(`${file}${layer !== undefined ? `: layer "${layer}"` : ""}${objectId !== undefined ? `, object ${objectId}` : ""}: ${detail}`);
    this.name = "MapError";
  }
}

const DEG = Math.PI / 180;
const DEFAULT_PPM = 32;
/** Defaults for guard and camera properties a map leaves out (degrees, meters, seconds). */
export const PLACEMENT_DEFAULTS = Object.freeze({
  guard: { facing: 0, fov: 90, range: 12 },
  camera: { facing: 0, fov: 60, range: 12, sweep: 45, period: 6 },
});

interface TiledProperty { name: string; type?: string; value: unknown }
interface TiledObject {
  id?: unknown; name?: unknown; type?: unknown; class?: unknown;
  x?: unknown; y?: unknown; width?: unknown; height?: unknown; rotation?: unknown;
  point?: unknown; ellipse?: unknown; polygon?: unknown; polyline?: unknown; text?: unknown; gid?: unknown;
  properties?: unknown;
}

/** Reads and parses one `.tmj` file. Throws a MapError. */
export function loadMapFile(path: string): StealthMap {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new MapError(basename(path), `cannot be read (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MapError(basename(path), `is not valid JSON (${(err as Error).message})`);
  }
  return parseTiledMap(json, basename(path), (source) => readFileSync(join(dirname(path), source), "utf8"));
}

/**
 * Loads every `.tmj` in a folder. A broken map does not stop the others: its error is returned and the
 * maps that loaded are kept, keyed by name.
 */
export function loadMapsDir(dir: string): { maps: Map<string, StealthMap>; errors: MapError[] } {
  const maps = new Map<string, StealthMap>();
  const errors: MapError[] = [];
  for (const file of readdirSync(dir).filter((f) => extname(f) === ".tmj").sort()) {
    try {
      const map = loadMapFile(join(dir, file));
      maps.set(map.name, map);
    } catch (err) {
      errors.push(err instanceof MapError ? err : new MapError(file, String(err)));
    }
  }
  return { maps, errors };
}

/**
 * Turns Tiled JSON (orthogonal, finite) into a {@link StealthMap}. `readTileset` resolves external JSON
 * tilesets (`.tsj`/`.json`) relative to the map. Throws a MapError naming the file, layer and object.
 */
export function parseTiledMap(json: unknown, file: string, readTileset?: (source: string) => string): StealthMap {
  const fail = (detail: string, layer?: string, id?: number): never => {
    throw new MapError(file, detail, layer, id);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) fail("is not a Tiled map (expected a JSON object)");
  const m = json as Record<string, unknown>;
  if (m.orientation !== "orthogonal") fail(`orientation must be "orthogonal" (got ${JSON.stringify(m.orientation)})`);
  if (m.infinite === true) fail("infinite maps are not supported: save it as a fixed-size map");
  const cols = positiveInt(m.width, "width", fail);
  const rows = positiveInt(m.height, "height", fail);
  const tileW = positiveNumber(m.tilewidth, "tilewidth", fail);
  const tileH = positiveNumber(m.tileheight, "tileheight", fail);
  const mapProps = properties(m.properties, fail);
  const ppm = mapProps.has("pixelsPerMeter") ? positiveNumber(mapProps.get("pixelsPerMeter"), "property pixelsPerMeter", fail) : DEFAULT_PPM;
  if (!Array.isArray(m.layers)) fail("has no layers array");

  const out: StealthMap = {
    name: basename(file, extname(file)), file, pixelsPerMeter: ppm,
    width: (cols * tileW) / ppm, height: (rows * tileH) / ppm,
    columns: cols, rows, tileWidth: tileW / ppm, tileHeight: tileH / ppm,
    walls: [], glass: [], solidTiles: [], solidTileCount: 0, spawns: [], guards: [], cameras: [], exits: [],
  };
  const solidGids = solidTileGids(m.tilesets, file, readTileset, fail);
  const objects = new Map<number, { obj: TiledObject; layer: string }>();
  const pendingGuards: { obj: TiledObject; layer: string; patrolId: number | undefined; guard: GuardPlacement }[] = [];

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
        for (const o of layer.objects as unknown[]) readObject(o as TiledObject, lname);
      }
      // Image layers carry no gameplay.
    }
  };

  const readTileLayer = (layer: Record<string, unknown>, lname: string): void => {
    const props = properties(layer.properties, (d) => fail(d, lname));
    const wholeLayerSolid = props.get("solid") === true;
    if (!wholeLayerSolid && solidGids.size === 0) return;
    const w = positiveInt(layer.width, "width", (d) => fail(d, lname));
    const h = positiveInt(layer.height, "height", (d) => fail(d, lname));
    const gids = tileData(layer, w * h, (d) => fail(d, lname));
    const solid = (c: number, r: number): boolean => {
      const gid = gids[r * w + c]! & 0x0fffffff; // strip the flip and rotation flags
      return gid !== 0 && (wholeLayerSolid || solidGids.has(gid));
    };
    let count = 0;
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) if (solid(c, r)) count++;
    out.solidTileCount += count;
    const ox = num(layer.offsetx, 0);
    const oy = num(layer.offsety, 0);
    for (const rect of greedyMesh(w, h, solid)) {
      out.solidTiles.push({
        x: (ox + rect.col * tileW) / ppm, y: (oy + rect.row * tileH) / ppm,
        width: (rect.cols * tileW) / ppm, height: (rect.rows * tileH) / ppm,
      });
    }
  };

  const readObject = (obj: TiledObject, lname: string): void => {
    if (typeof obj !== "object" || obj === null) fail("has an object that is not an object", lname);
    const id = typeof obj.id === "number" && Number.isInteger(obj.id) ? obj.id : fail("object without an integer id", lname);
    const oops = (detail: string): never => fail(detail, lname, id);
    if (objects.has(id)) oops("duplicate object id");
    objects.set(id, { obj, layer: lname });
    const kind = (typeof obj.type === "string" && obj.type !== "" ? obj.type : typeof obj.class === "string" ? obj.class : "").toLowerCase();
    const effective = kind === "" && lname.toLowerCase() === "walls" && (obj.polygon !== undefined || !isPoint(obj)) ? "wall" : kind;
    const props = properties(obj.properties, oops);
    const x = finiteNum(obj.x, "x", oops) / ppm;
    const y = finiteNum(obj.y, "y", oops) / ppm;
    const name = typeof obj.name === "string" ? obj.name : "";
    switch (effective) {
      case "wall":
      case "glass":
      case "exit": {
        const outline = outlineOf(obj, ppm, oops);
        (effective === "wall" ? out.walls : effective === "glass" ? out.glass : out.exits).push(outline);
        return;
      }
      case "spawn":
        if (!isPoint(obj)) oops("a spawn must be a point object");
        if (name !== "" && out.spawns.some((s) => s.name === name)) oops(`spawn name "${name}" is used twice`);
        out.spawns.push({ id, name, x, y });
        return;
      case "guard": {
        if (!isPoint(obj)) oops("a guard must be a point object");
        const d = PLACEMENT_DEFAULTS.guard;
        const guard: GuardPlacement = {
          id, name, x, y,
          facing: angleProp(props, "facing", d.facing, oops),
          fov: fovProp(props, d.fov, oops),
          range: positiveProp(props, "range", d.range, "meters", oops),
          patrol: [], patrolLoop: false,
        };
        const patrol = props.get("patrol");
        if (patrol !== undefined && (typeof patrol !== "number" || !Number.isInteger(patrol))) {
          oops(`property "patrol" must be the id of a polyline or polygon object (got ${JSON.stringify(patrol)})`);
        }
        pendingGuards.push({ obj, layer: lname, patrolId: patrol as number | undefined, guard });
        out.guards.push(guard);
        return;
      }
      case "camera": {
        if (!isPoint(obj)) oops("a camera must be a point object");
        const d = PLACEMENT_DEFAULTS.camera;
        out.cameras.push({
          id, name, x, y,
          facing: angleProp(props, "facing", d.facing, oops),
          fov: fovProp(props, d.fov, oops),
          range: positiveProp(props, "range", d.range, "meters", oops),
          sweep: nonNegativeAngle(props, "sweep", d.sweep, oops),
          period: positiveProp(props, "period", d.period, "seconds", oops),
        });
        return;
      }
      default:
        // Anything else (routes, decorations, notes) is only read when something refers to it.
        return;
    }
  };

  walk(m.layers as unknown[]);

  for (const { layer, patrolId, guard } of pendingGuards) {
    if (patrolId === undefined) continue;
    const route = objects.get(patrolId);
    if (route === undefined) fail(`property "patrol" refers to object ${patrolId}, which does not exist`, layer, guard.id);
    const r = route!.obj;
    const pts = Array.isArray(r.polyline) ? r.polyline : Array.isArray(r.polygon) ? r.polygon : null;
    if (pts === null || pts.length < 2) fail(`property "patrol" refers to object ${patrolId}, which is not a polyline or polygon`, layer, guard.id);
    guard.patrol = transformPoints(r, pts as unknown[], ppm, (d) => fail(d, route!.layer, patrolId));
    guard.patrolLoop = Array.isArray(r.polygon);
  }
  return out;
}

function isPoint(obj: TiledObject): boolean {
  return obj.point === true || (obj.polygon === undefined && obj.polyline === undefined && !obj.width && !obj.height);
}

/** A wall/glass/exit object's outline in world meters: a rotated rectangle or a polygon. */
function outlineOf(obj: TiledObject, ppm: number, oops: (d: string) => never): Vec[] {
  if (obj.ellipse === true) oops("ellipses are not supported here: draw a polygon");
  if (Array.isArray(obj.polygon)) {
    if (obj.polygon.length < 3) oops("a polygon needs at least 3 points");
    return transformPoints(obj, obj.polygon, ppm, oops);
  }
  if (obj.polyline !== undefined || obj.point === true) oops("must be a rectangle or a polygon");
  const w = finiteNum(obj.width, "width", oops);
  const h = finiteNum(obj.height, "height", oops);
  if (!(w > 0 && h > 0)) oops(`a rectangle needs a positive width and height (got ${w} x ${h})`);
  return transformPoints(obj, [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }], ppm, oops);
}

/** Object-relative pixel points to world meters, rotated (clockwise degrees, as Tiled) about the object's origin. */
function transformPoints(obj: TiledObject, pts: unknown[], ppm: number, oops: (d: string) => never): Vec[] {
  const ox = finiteNum(obj.x, "x", oops);
  const oy = finiteNum(obj.y, "y", oops);
  const rot = obj.rotation === undefined ? 0 : finiteNum(obj.rotation, "rotation", oops) * DEG;
  const c = Math.cos(rot);
  const s = Math.sin(rot);
  return pts.map((p, i) => {
    const pt = p as { x?: unknown; y?: unknown };
    const px = finiteNum(pt?.x, `point ${i} x`, oops);
    const py = finiteNum(pt?.y, `point ${i} y`, oops);
    return { x: (ox + c * px - s * py) / ppm, y: (oy + s * px + c * py) / ppm };
  });
}

function properties(raw: unknown, fail: (d: string) => never): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (raw === undefined) return out;
  if (!Array.isArray(raw)) fail("properties must be an array");
  for (const p of raw as TiledProperty[]) {
    if (typeof p !== "object" || p === null || typeof p.name !== "string") fail("has a property without a name");
    out.set(p.name, p.value);
  }
  return out;
}

function angleProp(props: Map<string, unknown>, key: string, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !Number.isFinite(v)) oops(`property "${key}" must be a number of degrees (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function fovProp(props: Map<string, unknown>, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get("fov");
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !(v > 0 && v <= 360)) oops(`property "fov" must be degrees in (0, 360] (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function nonNegativeAngle(props: Map<string, unknown>, key: string, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !(v >= 0 && v <= 180)) oops(`property "${key}" must be degrees in [0, 180] (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function positiveProp(props: Map<string, unknown>, key: string, fallback: number, unit: string, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) oops(`property "${key}" must be a positive number of ${unit} (got ${JSON.stringify(v)})`);
  return v as number;
}

function finiteNum(v: unknown, what: string, oops: (d: string) => never): number {
  if (typeof v !== "number" || !Number.isFinite(v)) oops(`${what} must be a finite number (got ${JSON.stringify(v)})`);
  return v as number;
}

function num(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

function positiveNumber(v: unknown, what: string, fail: (d: string) => never): number {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) fail(`${what} must be a positive number (got ${JSON.stringify(v)})`);
  return v as number;
}

function positiveInt(v: unknown, what: string, fail: (d: string) => never): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0 || v > 100_000) fail(`${what} must be a positive integer (got ${JSON.stringify(v)})`);
  return v as number;
}

/** Global tile ids whose tileset tile has the property `solid: true`. */
function solidTileGids(
  tilesets: unknown, file: string, readTileset: ((source: string) => string) | undefined, fail: (d: string) => never,
): Set<number> {
  const out = new Set<number>();
  if (tilesets === undefined) return out;
  if (!Array.isArray(tilesets)) fail("tilesets must be an array");
  for (const raw of tilesets as Record<string, unknown>[]) {
    const first = positiveInt(raw?.firstgid, "tileset firstgid", fail);
    let ts = raw;
    if (typeof raw.source === "string") {
      const src = raw.source;
      if (!/\.(tsj|json)$/i.test(src)) fail(`external tileset "${src}" is not JSON: export it as .tsj or embed it in the map`);
      if (readTileset === undefined) fail(`external tileset "${src}" cannot be resolved here: embed it in the map`);
      try {
        ts = JSON.parse(readTileset!(src)) as Record<string, unknown>;
      } catch (err) {
        fail(`external tileset "${src}" cannot be read (${(err as Error).message})`);
      }
    }
    if (!Array.isArray(ts.tiles)) continue;
    for (const tile of ts.tiles as Record<string, unknown>[]) {
      if (typeof tile?.id !== "number") continue;
      const props = properties(tile.properties, fail);
      if (props.get("solid") === true) out.add(first + tile.id);
    }
  }
  return out;
}

/** A tile layer's global ids, from a plain array or base64 (uncompressed, zlib, gzip or zstd). */
function tileData(layer: Record<string, unknown>, count: number, fail: (d: string) => never): ArrayLike<number> {
  if (layer.chunks !== undefined) fail("chunked (infinite) tile layers are not supported");
  let gids: ArrayLike<number>;
  if (Array.isArray(layer.data)) {
    gids = layer.data as number[];
  } else if (typeof layer.data === "string" && layer.encoding === "base64") {
    let bytes: Buffer = Buffer.from(layer.data, "base64");
    try {
      if (layer.compression === "zlib") bytes = inflateSync(bytes);
      else if (layer.compression === "gzip") bytes = gunzipSync(bytes);
      else if (layer.compression === "zstd") bytes = zstdDecompressSync(bytes);
      else if (layer.compression !== undefined && layer.compression !== "") fail(`unknown compression "${String(layer.compression)}"`);
    } catch (err) {
      fail(`tile data cannot be decompressed (${(err as Error).message})`);
    }
    if (bytes.length !== count * 4) fail(`tile data holds ${bytes.length / 4} tiles, expected ${count}`);
    const view = new Uint32Array(count);
    for (let i = 0; i < count; i++) view[i] = bytes.readUInt32LE(i * 4);
    gids = view;
  } else {
    fail("tile data must be an array or base64 (save the map as JSON with CSV or Base64 layer format)");
  }
  if (gids!.length !== count) fail(`tile data holds ${gids!.length} tiles, expected ${count}`);
  for (let i = 0; i < count; i++) {
    const g = gids![i];
    if (typeof g !== "number" || !Number.isInteger(g) || g < 0) fail(`tile ${i} is not a tile id (got ${JSON.stringify(g)})`);
  }
  return gids!;
}
