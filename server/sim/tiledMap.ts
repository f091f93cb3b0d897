import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { readTiledMap, TiledMapError, type Point as Vec, type TiledLevel, type TiledObject } from "sightline/occluders";
import { publicMapJson } from "./publicMap.js";

/**
 * A level as the simulation needs it, in world meters and radians (y grows downward, as in Tiled): the
 * level the library's reader finds (walls, glass, doors, merged solid tiles, the tile grid, every object),
 * and the game's own objects.
 */
export interface StealthMap extends TiledLevel {
  /** The file name without extension: what the room's `map` option names. */
  name: string;
  file: string;
  /** The Tiled JSON it was read from, as parsed. */
  source: unknown;
  /**
   * What every client may have of it (`GET /maps/<name>.tmj`): the source without the objects this parse
   * took for guards and cameras, nor the guards' patrol routes (unless a route is a wall or glass: geometry
   * every client has anyway, and nothing left says a guard walks it).
   */
  publicSource: unknown;
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

/**
 * A map that cannot be loaded: says which file, layer and object, and why. The library's Tiled reader
 * throws it for the geometry, and the game's own rules below throw it for guards, cameras and spawns, so
 * callers catch one class whichever part of the map is wrong.
 */
export const MapError = TiledMapError;
export type MapError = TiledMapError;

const DEG = Math.PI / 180;
/** Defaults for guard and camera properties a map leaves out (degrees, meters, seconds). */
export const PLACEMENT_DEFAULTS = Object.freeze({
  guard: { facing: 0, fov: 90, range: 12 },
  camera: { facing: 0, fov: 60, range: 12, sweep: 45, period: 6 },
});


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
 * Kinds a patrol route may also have that the game shows every client anyway (geometry and exits): such a
 * route stays in the public map, since removing it would take a wall or an exit away from the clients,
 * and nothing left in the file says a guard walks it.
 */
const PUBLIC_ROUTE_KINDS: ReadonlySet<string> = new Set(["wall", "glass", "exit"]);

/**
 * Turns Tiled JSON (orthogonal, finite) into a {@link StealthMap}: the library's reader for the geometry,
 * then the game's kinds (spawns, guards with their patrol routes, cameras, exits). `readTileset` resolves
 * external JSON tilesets (`.tsj`/`.json`) relative to the map. Throws a MapError naming the file, layer
 * and object.
 */
export function parseTiledMap(json: unknown, file: string, readTileset?: (source: string) => string): StealthMap {
  const level = readTiledMap(json, { file, readTileset, inflate, areaKinds: ["exit"] });
  const all = level.objects;
  const out: StealthMap = { ...level, name: basename(file, extname(file)), file, source: json, publicSource: undefined, spawns: [], guards: [], cameras: [], exits: [] };
  const objects = new Map<number, TiledObject>();
  const pendingGuards: { obj: TiledObject; patrolId: number | undefined; guard: GuardPlacement }[] = [];
  for (const obj of all) {
    objects.set(obj.id, obj);
    const oops = (detail: string): never => {
      throw new MapError(file, detail, obj.layer, obj.id);
    };
    const { id, name, x, y, properties: props } = obj;
    switch (obj.kind) {
      case "exit":
        out.exits.push(obj.outline!);
        break;
      case "spawn":
        if (!obj.point) oops("a spawn must be a point object");
        if (name !== "" && out.spawns.some((s) => s.name === name)) oops(`spawn name "${name}" is used twice`);
        out.spawns.push({ id, name, x, y });
        break;
      case "guard": {
        if (!obj.point) oops("a guard must be a point object");
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
        pendingGuards.push({ obj, patrolId: patrol as number | undefined, guard });
        out.guards.push(guard);
        break;
      }
      case "camera": {
        if (!obj.point) oops("a camera must be a point object");
        const d = PLACEMENT_DEFAULTS.camera;
        out.cameras.push({
          id, name, x, y,
          facing: angleProp(props, "facing", d.facing, oops),
          fov: fovProp(props, d.fov, oops),
          range: positiveProp(props, "range", d.range, "meters", oops),
          sweep: nonNegativeAngle(props, "sweep", d.sweep, oops),
          period: positiveProp(props, "period", d.period, "seconds", oops),
        });
        break;
      }
      default:
        // Anything else (routes, decorations, notes) is only read when something refers to it.
        break;
    }
  }
  for (const { obj, patrolId, guard } of pendingGuards) {
    if (patrolId === undefined) continue;
    const route = objects.get(patrolId);
    if (route === undefined) throw new MapError(file, `property "patrol" refers to object ${patrolId}, which does not exist`, obj.layer, guard.id);
    if (route.points === undefined || route.points.length < 2) {
      throw new MapError(file, `property "patrol" refers to object ${patrolId}, which is not a polyline or polygon`, obj.layer, guard.id);
    }
    guard.patrol = route.points;
    guard.patrolLoop = route.closed;
  }
  // Hidden by the same parse that made them guards and cameras: one rule for what an object is.
  const hidden = new Set<number>([...out.guards.map((g) => g.id), ...out.cameras.map((c) => c.id)]);
  for (const { patrolId } of pendingGuards) {
    const kind = patrolId === undefined ? undefined : objects.get(patrolId)?.kind;
    if (kind !== undefined && !PUBLIC_ROUTE_KINDS.has(kind)) hidden.add(patrolId!);
  }
  out.publicSource = publicMapJson(json, hidden);
  return out;
}

/** Decompresses a base64 tile layer's bytes for the reader, which itself runs in browsers too. */
function inflate(bytes: Uint8Array, compression: string): Uint8Array {
  if (compression === "zlib") return inflateSync(bytes);
  if (compression === "gzip") return gunzipSync(bytes);
  return zstdDecompressSync(bytes);
}

function angleProp(props: ReadonlyMap<string, unknown>, key: string, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !Number.isFinite(v)) oops(`property "${key}" must be a number of degrees (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function fovProp(props: ReadonlyMap<string, unknown>, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get("fov");
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !(v > 0 && v <= 360)) oops(`property "fov" must be degrees in (0, 360] (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function nonNegativeAngle(props: ReadonlyMap<string, unknown>, key: string, fallbackDeg: number, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallbackDeg * DEG;
  if (typeof v !== "number" || !(v >= 0 && v <= 180)) oops(`property "${key}" must be degrees in [0, 180] (got ${JSON.stringify(v)})`);
  return (v as number) * DEG;
}

function positiveProp(props: ReadonlyMap<string, unknown>, key: string, fallback: number, unit: string, oops: (d: string) => never): number {
  const v = props.get(key);
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) oops(`property "${key}" must be a positive number of ${unit} (got ${JSON.stringify(v)})`);
  return v as number;
}
