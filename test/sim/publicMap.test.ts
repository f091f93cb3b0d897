import { describe, expect, it } from "vitest";
import { loadMapFile, parseTiledMap } from "../../server/sim/tiledMap.js";
import { objectLayer, point, prop, PX, rect, tiledJson } from "../fixtures/tiledJson.js";

/** Every object id left in a Tiled JSON, whatever layer or group holds it. */
function idsOf(json: unknown): number[] {
  const out: number[] = [];
  const visit = (layers: { layers?: unknown[]; objects?: { id: number }[] }[]) => {
    for (const l of layers) {
      if (Array.isArray(l.layers)) visit(l.layers as never);
      for (const o of l.objects ?? []) out.push(o.id);
    }
  };
  visit((json as { layers: never[] }).layers);
  return out.sort((a, b) => a - b);
}

describe("the public map every client downloads", () => {
  it("a guard and a camera named by their class, with an empty type, are taken out, as the server reads them", () => {
    const route = { id: 5, name: "", type: "", x: 2 * PX, y: 2 * PX, polyline: [{ x: 0, y: 0 }, { x: 3 * PX, y: 0 }] };
    const json = tiledJson([
      objectLayer("walls", [rect(1, 0, 0, 10, 0.5)]),
      { type: "group", name: "actors", layers: [objectLayer("crew", [
        { ...point(2, "", "Ed", 4, 4, [prop("patrol", 5)]), class: "guard" },
        { ...point(3, "", "Eye", 6, 6), class: "Camera" },
        point(4, "spawn", "start", 1, 8),
        route,
      ])] },
    ]);
    const map = parseTiledMap(json, "classes.tmj");
    expect(map.guards.map((g) => g.id)).toEqual([2]);
    expect(map.cameras.map((c) => c.id)).toEqual([3]);
    // Walls and spawns stay; the guard, the camera and the guard's route do not.
    expect(idsOf(map.publicSource)).toEqual([1, 4]);
    expect(JSON.stringify(map.publicSource)).not.toMatch(/"Ed"|"Eye"/);
    // The source itself is untouched.
    expect(idsOf(map.source)).toEqual([1, 2, 3, 4, 5]);
  });

  it("a route that is a wall stays: it is geometry every client has, and nothing left says a guard walks it", () => {
    const json = tiledJson([objectLayer("level", [
      { id: 1, name: "", type: "wall", x: PX, y: PX, polygon: [{ x: 0, y: 0 }, { x: 2 * PX, y: 0 }, { x: 2 * PX, y: 2 * PX }] },
      point(2, "guard", "Ed", 6, 6, [prop("patrol", 1)]),
    ])]);
    const map = parseTiledMap(json, "wallroute.tmj");
    expect(idsOf(map.publicSource)).toEqual([1]);
  });

  it("a route that is an exit stays: the exit is public, and a player would otherwise miss it", () => {
    const json = tiledJson([objectLayer("level", [
      { id: 1, name: "", type: "exit", x: PX, y: PX, polygon: [{ x: 0, y: 0 }, { x: 2 * PX, y: 0 }, { x: 2 * PX, y: 2 * PX }] },
      point(2, "guard", "Ed", 6, 6, [prop("patrol", 1)]),
      point(3, "spawn", "start", 1, 8),
    ])]);
    const map = parseTiledMap(json, "exitroute.tmj");
    expect(map.exits).toHaveLength(1);
    expect(idsOf(map.publicSource)).toEqual([1, 3]);
  });

  it.each(["demo", "vault", "compound"])("%s: no guard, camera or patrol route of the bundled map is public", (name) => {
    const map = loadMapFile(`server/maps/${name}.tmj`);
    const left = new Set(idsOf(map.publicSource));
    expect(map.guards.length + map.cameras.length).toBeGreaterThan(0);
    for (const g of [...map.guards, ...map.cameras]) expect(left.has(g.id), `${name} object ${g.id}`).toBe(false);
    expect(idsOf(map.source).length).toBeGreaterThan(left.size);
  });
});
