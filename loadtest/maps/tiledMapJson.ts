/** The parts of a Tiled JSON map the level generators write. */
export interface TiledMapJson {
  [key: string]: unknown;
  width: number;
  height: number;
  layers: Record<string, unknown>[];
}

/**
 * The map as Tiled writes it, but with the tile data one map row per line, so a change to the level reads
 * as a diff of the rows it touched.
 */
export function formatTiledMap(map: TiledMapJson): string {
  const layers = map.layers.map((l) => (l.type === "tilelayer" ? { ...l, data: "@@DATA@@" } : l));
  const text = JSON.stringify({ ...map, layers }, null, 1);
  const tiles = map.layers.find((l) => l.type === "tilelayer")!;
  const data = tiles.data as number[];
  const rows: string[] = [];
  for (let r = 0; r < map.height; r++) rows.push(data.slice(r * map.width, (r + 1) * map.width).join(","));
  return `${text.replace('"@@DATA@@"', `[\n${rows.join(",\n")}]`)}\n`;
}
