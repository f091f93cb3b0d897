import type { OpacityGrid } from "./opacityGrid.js";
import { rasterizeOpacity, type Point } from "./rasterizeOpacity.js";

/** What a client may pass to read tile layers the plain JSON cannot carry by itself. */
export interface TiledOpacityOptions {
  /** An external tileset (`.tsj`) by its `source`, already parsed (e.g. fetched beforehand). */
  readTileset?: (source: string) => unknown;
  /** Decompresses a base64 tile layer's bytes ("zlib", "gzip" or "zstd"); plain and CSV layers need none. */
  inflate?: (bytes: Uint8Array, compression: string) => Uint8Array;
}

/** Pixels per meter when the map has no `pixelsPerMeter` property (the server's default too). */
const DEFAULT_PIXELS_PER_METER = 32;
const DEG = Math.PI / 180;

type Json = Record<string, unknown>;

/**
 * The opacity grid of a Tiled map (`.tmj` JSON, orthogonal) at the map's own tile size, in the browser
 * or on the server: give it the public map a client fetches from `/maps/<map>.tmj`. Reads what blocks
 * sight by the same rules as the server's map loader: walls (objects of class `wall`, or untyped
 * rectangles and polygons in a layer named `walls`, rotation included) and solid tiles (a tile layer with
 * `solid: true`, or tiles whose tileset tile has `solid: true`), then applies {@link rasterizeOpacity}'s
 * rule. Glass, exits, spawns and everything else are transparent.
 * @throws Error naming what is wrong with the map
 */
export function opacityGridFromTiled(json: unknown, options: TiledOpacityOptions = {}): OpacityGrid {
  const map = object(json, "the map");
  if (map.orientation !== "orthogonal") throw new Error(`Tiled map: orientation must be "orthogonal" (got ${JSON.stringify(map.orientation)})`);
  if (map.infinite === true) throw new Error("Tiled map: infinite maps are not supported");
  const columns = positiveInteger(map.width, "width");
  const rows = positiveInteger(map.height, "height");
  const tilePxW = positiveNumber(map.tilewidth, "tilewidth");
  const tilePxH = positiveNumber(map.tileheight, "tileheight");
  const ppm = property(map, "pixelsPerMeter") ?? DEFAULT_PIXELS_PER_METER;
  if (typeof ppm !== "number" || !(ppm > 0 && Number.isFinite(ppm))) throw new Error(`Tiled map: property pixelsPerMeter must be a positive number (got ${JSON.stringify(ppm)})`);
  const solidGids = solidTileGids(map.tilesets, options);
  const opaque: Point[][] = [];

  const walk = (layers: unknown): void => {
    if (!Array.isArray(layers)) throw new Error("Tiled map: layers must be an array");
    for (const raw of layers) {
      const layer = object(raw, "a layer");
      const name = typeof layer.name === "string" ? layer.name : "(unnamed)";
      if (layer.type === "group") walk(layer.layers);
      else if (layer.type === "tilelayer") readTiles(layer, name);
      else if (layer.type === "objectgroup" && Array.isArray(layer.objects)) {
        for (const o of layer.objects) readWall(object(o, `an object of layer "${name}"`), name);
      }
    }
  };

  const readTiles = (layer: Json, name: string): void => {
    const wholeLayer = property(layer, "solid") === true;
    if (!wholeLayer && solidGids.size === 0) return;
    const w = positiveInteger(layer.width, `layer "${name}" width`);
    const h = positiveInteger(layer.height, `layer "${name}" height`);
    const gids = tileIds(layer, w * h, name, options);
    const ox = typeof layer.offsetx === "number" ? layer.offsetx : 0;
    const oy = typeof layer.offsety === "number" ? layer.offsety : 0;
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const gid = gids[r * w + c]! & 0x0fffffff; // strip the flip flags
        if (gid === 0 || !(wholeLayer || solidGids.has(gid))) continue;
        const x0 = (ox + c * tilePxW) / ppm;
        const y0 = (oy + r * tilePxH) / ppm;
        const x1 = (ox + (c + 1) * tilePxW) / ppm;
        const y1 = (oy + (r + 1) * tilePxH) / ppm;
        opaque.push([{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }]);
      }
    }
  };

  const readWall = (o: Json, layerName: string): void => {
    const kind = String((typeof o.type === "string" && o.type !== "" ? o.type : o.class) ?? "").toLowerCase();
    const isPoint = o.point === true || (o.polygon === undefined && o.polyline === undefined && !o.width && !o.height);
    const wall = kind === "wall" || (kind === "" && layerName.toLowerCase() === "walls" && (o.polygon !== undefined || !isPoint));
    if (!wall || o.ellipse === true || o.polyline !== undefined || isPoint) return;
    const w = Number(o.width);
    const h = Number(o.height);
    const local = Array.isArray(o.polygon) ? (o.polygon as unknown[]) : [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];
    const x = Number(o.x);
    const y = Number(o.y);
    const rotation = (typeof o.rotation === "number" ? o.rotation : 0) * DEG;
    const cos = Math.cos(rotation);
    const sin = Math.sin(rotation);
    opaque.push(local.map((p) => {
      const px = Number((p as Json)?.x);
      const py = Number((p as Json)?.y);
      // Tiled rotates clockwise on screen (y down) about the object's origin.
      return { x: (x + cos * px - sin * py) / ppm, y: (y + sin * px + cos * py) / ppm };
    }));
  };

  walk(map.layers);
  return rasterizeOpacity({ columns, rows, tileWidth: tilePxW / ppm, tileHeight: tilePxH / ppm, opaque });
}

function object(v: unknown, what: string): Json {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`Tiled map: ${what} is not a JSON object`);
  return v as Json;
}

function positiveInteger(v: unknown, what: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw new Error(`Tiled map: ${what} must be a positive integer (got ${JSON.stringify(v)})`);
  return v;
}

function positiveNumber(v: unknown, what: string): number {
  if (typeof v !== "number" || !(v > 0 && Number.isFinite(v))) throw new Error(`Tiled map: ${what} must be a positive number (got ${JSON.stringify(v)})`);
  return v;
}

/** A custom property's value, or undefined. */
function property(owner: Json, name: string): unknown {
  if (!Array.isArray(owner.properties)) return undefined;
  for (const p of owner.properties as Json[]) if (p?.name === name) return p.value;
  return undefined;
}

function solidTileGids(tilesets: unknown, options: TiledOpacityOptions): Set<number> {
  const out = new Set<number>();
  if (!Array.isArray(tilesets)) return out;
  for (const raw of tilesets) {
    const entry = object(raw, "a tileset");
    const first = positiveInteger(entry.firstgid, "tileset firstgid");
    let tileset = entry;
    if (typeof entry.source === "string") {
      if (options.readTileset === undefined) throw new Error(`Tiled map: external tileset "${entry.source}" needs options.readTileset (or embed it in the map)`);
      tileset = object(options.readTileset(entry.source), `tileset "${entry.source}"`);
    }
    if (!Array.isArray(tileset.tiles)) continue;
    for (const tile of tileset.tiles as Json[]) {
      if (typeof tile?.id === "number" && property(tile, "solid") === true) out.add(first + tile.id);
    }
  }
  return out;
}

/** A tile layer's global tile ids, from a plain array or base64 (compressed ones through options.inflate). */
function tileIds(layer: Json, count: number, name: string, options: TiledOpacityOptions): ArrayLike<number> {
  if (Array.isArray(layer.data)) {
    if (layer.data.length !== count) throw new Error(`Tiled map: layer "${name}" holds ${layer.data.length} tiles, expected ${count}`);
    return layer.data as number[];
  }
  if (typeof layer.data !== "string" || layer.encoding !== "base64") throw new Error(`Tiled map: layer "${name}" data must be an array or base64`);
  const text = atob(layer.data);
  let bytes: Uint8Array = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const compression = typeof layer.compression === "string" ? layer.compression : "";
  if (compression !== "") {
    if (options.inflate === undefined) throw new Error(`Tiled map: layer "${name}" is ${compression}-compressed: pass options.inflate`);
    bytes = options.inflate(bytes, compression);
  }
  if (bytes.length !== count * 4) throw new Error(`Tiled map: layer "${name}" holds ${bytes.length / 4} tiles, expected ${count}`);
  const ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) ids[i] = (bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24)) >>> 0;
  return ids;
}
