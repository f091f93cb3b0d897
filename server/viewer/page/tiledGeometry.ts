/**
 * What the viewer draws of a map: the public Tiled JSON (`GET /maps/<map>.tmj`, guards and cameras
 * already stripped) read in the browser, in meters, y down, as the server reads it
 * (`server/sim/tiledMap.ts`, which needs Node for files and zlib and so cannot run here).
 */

export interface Point {
  x: number;
  y: number;
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
  exits: Point[][];
  spawns: { name: string; x: number; y: number }[];
  /** One byte per tile, row-major: 1 where a solid tile is. */
  solidTiles: Uint8Array;
  /** What was left out and why (a compressed tile layer, an external tileset). */
  warnings: string[];
}

type Json = Record<string, unknown>;

/** Reads a public Tiled map. Throws an Error naming the layer and object of anything malformed. */
export function readTiledGeometry(json: unknown): MapGeometry {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("map: not a Tiled JSON object");
  const m = json as Json;
  if (m.orientation !== "orthogonal") throw new Error(`map: orientation must be "orthogonal" (got ${JSON.stringify(m.orientation)})`);
  const columns = positive(m.width, "map width");
  const rows = positive(m.height, "map height");
  const tilePxW = positive(m.tilewidth, "map tilewidth");
  const tilePxH = positive(m.tileheight, "map tileheight");
  const ppmProp = propertiesOf(m).get("pixelsPerMeter");
  const ppm = ppmProp === undefined ? 32 : positive(ppmProp, "map property pixelsPerMeter");
  const out: MapGeometry = {
    width: (columns * tilePxW) / ppm,
    height: (rows * tilePxH) / ppm,
    tileWidth: tilePxW / ppm,
    tileHeight: tilePxH / ppm,
    columns,
    rows,
    walls: [],
    glass: [],
    exits: [],
    spawns: [],
    solidTiles: new Uint8Array(columns * rows),
    warnings: [],
  };
  const solidGids = solidTileIds(m.tilesets, out.warnings);

  const walk = (layers: unknown): void => {
    if (!Array.isArray(layers)) throw new Error("map: layers must be an array");
    for (const layer of layers as Json[]) {
      const name = typeof layer?.name === "string" ? layer.name : "(unnamed)";
      if (layer?.type === "group") walk(layer.layers);
      else if (layer?.type === "tilelayer") readTiles(layer, name, solidGids, out);
      else if (layer?.type === "objectgroup") {
        if (!Array.isArray(layer.objects)) throw new Error(`map layer "${name}": objects must be an array`);
        for (const o of layer.objects as Json[]) readObject(o, name, ppm, out);
      }
    }
  };
  walk(m.layers);
  return out;
}

function readObject(o: Json, layer: string, ppm: number, out: MapGeometry): void {
  const where = `map layer "${layer}", object ${String(o?.id)}`;
  const kind = String((o.type !== undefined && o.type !== "" ? o.type : o.class) ?? "").toLowerCase();
  const isPoint = o.point === true || (o.polygon === undefined && o.polyline === undefined && !o.width && !o.height);
  const effective = kind === "" && layer.toLowerCase() === "walls" && !isPoint ? "wall" : kind;
  if (effective === "spawn") {
    out.spawns.push({ name: typeof o.name === "string" ? o.name : "", x: finite(o.x, where) / ppm, y: finite(o.y, where) / ppm });
    return;
  }
  if (effective !== "wall" && effective !== "glass" && effective !== "exit") return;
  const local: Point[] = Array.isArray(o.polygon)
    ? (o.polygon as Json[]).map((p) => ({ x: finite(p?.x, where), y: finite(p?.y, where) }))
    : [{ x: 0, y: 0 }, { x: finite(o.width, where), y: 0 }, { x: finite(o.width, where), y: finite(o.height, where) }, { x: 0, y: finite(o.height, where) }];
  if (local.length < 3) throw new Error(`${where}: an outline needs at least 3 points`);
  // Tiled rotates clockwise on screen (y down) about the object's origin, in degrees.
  const rot = (o.rotation === undefined ? 0 : finite(o.rotation, where)) * (Math.PI / 180);
  const c = Math.cos(rot);
  const s = Math.sin(rot);
  const ox = finite(o.x, where);
  const oy = finite(o.y, where);
  const outline = local.map((p) => ({ x: (ox + c * p.x - s * p.y) / ppm, y: (oy + s * p.x + c * p.y) / ppm }));
  (effective === "wall" ? out.walls : effective === "glass" ? out.glass : out.exits).push(outline);
}

function readTiles(layer: Json, name: string, solidGids: Set<number>, out: MapGeometry): void {
  const wholeLayer = propertiesOf(layer).get("solid") === true;
  if (!wholeLayer && solidGids.size === 0) return;
  let gids: ArrayLike<number>;
  if (Array.isArray(layer.data)) gids = layer.data as number[];
  else if (typeof layer.data === "string" && layer.encoding === "base64" && (layer.compression === undefined || layer.compression === "")) {
    const bytes = Uint8Array.from(atob(layer.data), (ch) => ch.charCodeAt(0));
    gids = new Uint32Array(bytes.buffer, 0, bytes.length >> 2);
  } else {
    out.warnings.push(`tile layer "${name}" is compressed or chunked: its solid tiles are not drawn`);
    return;
  }
  const width = positive(layer.width, `tile layer "${name}" width`);
  const height = positive(layer.height, `tile layer "${name}" height`);
  for (let r = 0; r < Math.min(height, out.rows); r++) {
    for (let c = 0; c < Math.min(width, out.columns); c++) {
      const gid = (gids[r * width + c] ?? 0) & 0x0fffffff; // without the flip flags
      if (gid !== 0 && (wholeLayer || solidGids.has(gid))) out.solidTiles[r * out.columns + c] = 1;
    }
  }
}

/** Global ids of embedded tileset tiles with `solid: true`. External tilesets are not fetched. */
function solidTileIds(tilesets: unknown, warnings: string[]): Set<number> {
  const ids = new Set<number>();
  if (!Array.isArray(tilesets)) return ids;
  for (const ts of tilesets as Json[]) {
    if (typeof ts?.source === "string") {
      warnings.push(`external tileset "${ts.source}" is not read: its solid tiles are not drawn`);
      continue;
    }
    const first = typeof ts?.firstgid === "number" ? ts.firstgid : 1;
    for (const tile of Array.isArray(ts?.tiles) ? (ts.tiles as Json[]) : []) {
      if (typeof tile?.id === "number" && propertiesOf(tile).get("solid") === true) ids.add(first + tile.id);
    }
  }
  return ids;
}

function propertiesOf(o: Json): Map<string, unknown> {
  const props = new Map<string, unknown>();
  if (Array.isArray(o.properties)) for (const p of o.properties as Json[]) if (typeof p?.name === "string") props.set(p.name, p.value);
  return props;
}

function finite(v: unknown, where: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${where}: expected a finite number (got ${JSON.stringify(v)})`);
  return v;
}

function positive(v: unknown, what: string): number {
  if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) throw new Error(`${what} must be a positive number (got ${JSON.stringify(v)})`);
  return v;
}
