import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "sightline";
import { Occluders, readTiledMap, TiledMapError } from "sightline/occluders";
import { buildMapWorld, CATEGORY } from "../../server/sim/mapWorld.js";
import { parseTiledMap } from "../../server/sim/tiledMap.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { objectLayer, tiledJson } from "../fixtures/tiledJson.js";

const MAPS = resolve(import.meta.dirname, "../../server/maps");

describe("occluders from a Tiled map", () => {
  it.each(["demo", "vault"])("the %s map answers as its walls and doors built as planck fixtures do, on hundreds of random pairs", (name) => {
    const json = JSON.parse(readFileSync(join(MAPS, `${name}.tmj`), "utf8"));
    const occluders = Occluders.fromTiled(json, { file: `${name}.tmj` });
    const level = readTiledMap(json);
    expect(occluders.size).toBe(level.walls.length + level.solidTiles.length + level.doors.length);
    const { world } = buildMapWorld(parseTiledMap(json, `${name}.tmj`));
    const onWorld = new VisionSystem(world, { opaqueMask: CATEGORY.WALL | CATEGORY.DOOR, raysPerTick: Infinity });
    const onOccluders = new VisionSystem(occluders, { raysPerTick: Infinity });
    const random = seededRandom(name.length);
    for (let i = 0; i < 40; i++) {
      const eye = { position: { x: random() * level.width, y: random() * level.height }, facing: 0, range: 30, fov: 2 * Math.PI };
      onWorld.addObserver(`o${i}`, eye);
      onOccluders.addObserver(`o${i}`, eye);
      const target = { position: { x: random() * level.width, y: random() * level.height }, radius: 0.35 };
      onWorld.addObservable(`t${i}`, target);
      onOccluders.addObservable(`t${i}`, target);
    }
    onWorld.tick();
    onOccluders.tick();
    let seen = 0;
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 40; j++) {
        const expected = onWorld.canSee(`o${i}`, `t${j}`);
        if (expected) seen++;
        expect(onOccluders.canSee(`o${i}`, `t${j}`), `o${i} -> t${j}`).toBe(expected);
      }
    }
    expect(seen).toBeGreaterThan(40);
    expect(seen).toBeLessThan(1500);
  });

  it("glass is left out, and a malformed map names the file, layer and object", () => {
    const map = (objects: unknown[]) => tiledJson([objectLayer("walls", objects)]);
    expect(Occluders.fromTiled(map([{ id: 1, type: "glass", x: 0, y: 0, width: 32, height: 32 }])).size).toBe(0);
    expect(Occluders.fromTiled(map([{ id: 1, x: 0, y: 0, width: 32, height: 64 }])).size).toBe(1);
    const bad = () => Occluders.fromTiled(map([{ id: 9, x: 0, y: 0, polygon: [{ x: 0, y: 0 }, { x: 32, y: 32 }, { x: 64, y: 64 }] }]), { file: "level.tmj" });
    expect(bad).toThrow(TiledMapError);
    expect(bad).toThrow(/^level\.tmj: layer "walls", object 9: a wall .*no area/);
  });
});
