/**
 * The part of a Tiled map every client may have: geometry, spawns and exits, without the guards, the
 * cameras and the guards' patrol routes. Those are culled entities: sending where a guard stands or walks
 * in the map file would hand a wallhack what the StateViews withhold. Works on the raw Tiled JSON, so the
 * client still gets a file its Tiled tooling reads; the input is not modified.
 */
export function publicMapJson(json: unknown): unknown {
  const map = structuredClone(json) as { layers?: unknown[] };
  const kindOf = (o: Record<string, unknown>) => String(o.type ?? o.class ?? "").toLowerCase();
  const layers = Array.isArray(map.layers) ? map.layers : [];
  const hidden = new Set<unknown>();
  const visit = (list: unknown[]) => {
    for (const layer of list as Record<string, unknown>[]) {
      if (Array.isArray(layer.layers)) visit(layer.layers);
      if (!Array.isArray(layer.objects)) continue;
      for (const o of layer.objects as Record<string, unknown>[]) {
        const kind = kindOf(o);
        if (kind !== "guard" && kind !== "camera") continue;
        hidden.add(o.id);
        for (const p of Array.isArray(o.properties) ? (o.properties as Record<string, unknown>[]) : []) {
          if (p.name === "patrol") hidden.add(p.value);
        }
      }
    }
  };
  visit(layers);
  const strip = (list: unknown[]) => {
    for (const layer of list as Record<string, unknown>[]) {
      if (Array.isArray(layer.layers)) strip(layer.layers);
      if (Array.isArray(layer.objects)) layer.objects = (layer.objects as Record<string, unknown>[]).filter((o) => !hidden.has(o.id));
    }
  };
  strip(layers);
  return map;
}
