import { NavGrid } from "../server/sim/navGrid.js";
import { parseTiledMap, type StealthMap } from "../server/sim/tiledMap.js";

/** What a bot knows of the level: the public map (geometry, spawns, exits) and a nav grid over it. */
export interface PublicLevel {
  map: StealthMap;
  nav: NavGrid;
}

/**
 * Fetches the map every client may have (`GET /maps/<name>.tmj`: no guards, cameras or routes) and bakes
 * the server's own nav grid over it, once per run: every bot of the run shares it. Throws with the URL
 * and the reason when the server does not serve it or the file does not parse.
 */
export async function fetchPublicLevel(httpBase: string, name: string): Promise<PublicLevel> {
  const url = `${httpBase}/maps/${encodeURIComponent(name)}.tmj`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new Error(`cannot fetch the map ${url}: ${(err as Error).message}`);
  }
  if (!response.ok) throw new Error(`cannot fetch the map ${url}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  const map = parseTiledMap(await response.json(), `${name}.tmj`);
  // Bots are players: the grid keeps a character's radius clear of walls, as the server's does.
  return { map, nav: NavGrid.ofMap(map) };
}
