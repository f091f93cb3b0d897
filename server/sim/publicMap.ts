/**
 * The part of a Tiled map every client may have: geometry, spawns and exits, without the objects the
 * server hides (guards, cameras, the guards' patrol routes). Those are culled entities: sending where a
 * guard stands or walks in the map file would hand a wallhack what the StateViews withhold. Which objects
 * those are is decided once, by the map's parse (`parseTiledMap`, on the library reader's object kinds),
 * and this only removes them, so the public file can never keep an object the server took for a guard.
 * Works on the raw Tiled JSON, so the client still gets a file its Tiled tooling reads; the input is not
 * modified.
 */
export function publicMapJson(json: unknown, hidden: ReadonlySet<number>): unknown {
  const map = structuredClone(json) as { layers?: unknown[] };
  const strip = (list: unknown[]) => {
    for (const layer of list as Record<string, unknown>[]) {
      if (Array.isArray(layer.layers)) strip(layer.layers);
      if (Array.isArray(layer.objects)) layer.objects = (layer.objects as Record<string, unknown>[]).filter((o) => !hidden.has(o.id as number));
    }
  };
  strip(Array.isArray(map.layers) ? map.layers : []);
  return map;
}
