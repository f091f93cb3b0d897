import type { Fail } from "./tiledMapError.js";
import { positiveInt, properties } from "./tiledValues.js";

/** How the reader gets what plain map JSON cannot carry by itself. @internal */
export interface TileSources {
  readTileset?: (source: string) => unknown;
  inflate?: (bytes: Uint8Array, compression: string) => Uint8Array;
}

/**
 * Global tile ids whose tileset tile has the property `solid: true`, from embedded tilesets and from
 * external JSON ones (`.tsj`/`.json`) that `readTileset` resolves (parsed JSON or its text).
 * @internal
 */
export function solidTileGids(tilesets: unknown, sources: TileSources, fail: Fail): Set<number> {
  const out = new Set<number>();
  if (tilesets === undefined) return out;
  if (!Array.isArray(tilesets)) fail("tilesets must be an array");
  for (const raw of tilesets as Record<string, unknown>[]) {
    const first = positiveInt(raw?.firstgid, "tileset firstgid", fail);
    let ts = raw;
    if (typeof raw.source === "string") {
      const src = raw.source;
      if (!/\.(tsj|json)$/i.test(src)) fail(`external tileset "${src}" is not JSON: export it as .tsj or embed it in the map`);
      if (sources.readTileset === undefined) fail(`external tileset "${src}" needs options.readTileset (or embed it in the map)`);
      try {
        const read = sources.readTileset!(src);
        ts = (typeof read === "string" ? JSON.parse(read) : read) as Record<string, unknown>;
      } catch (err) {
        fail(`external tileset "${src}" cannot be read (${(err as Error).message})`);
      }
      if (typeof ts !== "object" || ts === null) fail(`external tileset "${src}" is not a JSON object`);
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

/**
 * A tile layer's global ids (flip flags included), from a plain array or base64: uncompressed, or zlib,
 * gzip or zstd through `inflate` (the reader decompresses nothing itself, so it runs in a browser).
 * @internal
 */
export function tileData(layer: Record<string, unknown>, count: number, sources: TileSources, fail: Fail): ArrayLike<number> {
  if (layer.chunks !== undefined) fail("chunked (infinite) tile layers are not supported");
  let gids: ArrayLike<number>;
  if (Array.isArray(layer.data)) {
    gids = layer.data as number[];
  } else if (typeof layer.data === "string" && layer.encoding === "base64") {
    let bytes = base64Bytes(layer.data, fail);
    const compression = typeof layer.compression === "string" ? layer.compression : "";
    if (compression !== "") {
      if (compression !== "zlib" && compression !== "gzip" && compression !== "zstd") fail(`unknown compression "${compression}"`);
      if (sources.inflate === undefined) fail(`tile data is ${compression}-compressed: pass options.inflate to read it (or save the layer uncompressed)`);
      try {
        bytes = sources.inflate!(bytes, compression);
      } catch (err) {
        fail(`tile data cannot be decompressed (${(err as Error).message})`);
      }
    }
    if (bytes.length !== count * 4) fail(`tile data holds ${bytes.length / 4} tiles, expected ${count}`);
    const ids = new Uint32Array(count);
    for (let i = 0; i < count; i++) ids[i] = (bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24)) >>> 0;
    gids = ids;
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

function base64Bytes(text: string, fail: Fail): Uint8Array {
  let binary: string;
  try {
    binary = atob(text.replace(/\s+/g, ""));
  } catch {
    return fail("tile data is not valid base64");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
