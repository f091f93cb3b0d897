import { Box, Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, staticBox } from "../fixtures/planckWorld.js";

describe("occluder changes make the observers looking there pending by themselves", () => {
  function corridor() {
    const world = emptyWorld();
    const vision = new VisionSystem(world);
    vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 60 * DEG });
    vision.addObservable("p", { position: { x: 10, y: 0 }, radius: 0.3 });
    return { world, vision };
  }

  it("a door (a static body) that slides open reveals the player at the next tick", () => {
    const { world, vision } = corridor();
    const door = staticBox(world, 5, 0, 0.2, 2);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
    expect(vision.tick().rays).toBe(0); // nothing moves: nothing to do
    door.setTransform(Vec2(5, 5), 0);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
  });

  it("a wall built mid-game hides the player; destroying it reveals them again", () => {
    const { world, vision } = corridor();
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
    const built = staticBox(world, 5, 0, 0.2, 2);
    expect(vision.check("g", "p")).toBe(false); // immediately, through the fixture event
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
    world.destroyBody(built);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
  });

  it("a door that turns to glass (its filter changes) and a pushed crate are noticed too", () => {
    const { world, vision } = corridor();
    const door = staticBox(world, 5, 0, 0.2, 2);
    const visionGlass = new VisionSystem(world, { opaqueMask: 0x0001 });
    visionGlass.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 60 * DEG });
    visionGlass.addObservable("p", { position: { x: 10, y: 0 }, radius: 0.3 });
    visionGlass.tick();
    expect(visionGlass.canSee("g", "p")).toBe(false);
    door.getFixtureList()!.setFilterData({ categoryBits: 0x0002, maskBits: 0xffff, groupIndex: 0 });
    visionGlass.tick();
    expect(visionGlass.canSee("g", "p")).toBe(true);

    const crate = world.createBody({ type: "dynamic", position: Vec2(7, 5) });
    crate.createFixture({ shape: new Box(0.5, 1), density: 1 });
    vision.tick();
    door.setTransform(Vec2(5, 50), 0);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
    crate.setTransform(Vec2(7, 0), 0); // pushed into the line of sight
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
  });

  it("a wall switched off (deactivated) reveals the player, switched on hides them, and idles in between", () => {
    const { world, vision } = corridor();
    const wallBody = staticBox(world, 5, 0, 0.2, 2);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
    wallBody.setActive(false);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
    // An inactive wall is a change once, not every tick.
    expect(vision.tick().evaluated).toBe(0);
    expect(vision.tick().evaluated).toBe(0);
    wallBody.setActive(true);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
  });

  it("invalidateArea wakes the observers whose reach overlaps it, and rejects NaN", () => {
    const { vision } = corridor();
    vision.tick();
    expect(vision.tick().evaluated).toBe(0);
    vision.invalidateArea(40, 40, 50, 50); // far from the guard's 20 m reach
    expect(vision.tick().evaluated).toBe(0);
    vision.invalidateArea(4, -1, 6, 1);
    expect(vision.tick().evaluated).toBe(1);
    vision.invalidateArea(-Infinity, -Infinity, Infinity, Infinity);
    expect(vision.tick().evaluated).toBe(1);
    expect(() => vision.invalidateArea(NaN, 0, 1, 1)).toThrow(RangeError);
    expect(() => vision.invalidateArea(2, 0, 1, 1)).toThrow(RangeError);
  });
});

describe("temporal coherence: the blocker cache", () => {
  it("a player shuffling behind the same crate is re-checked against that crate alone, with no tree ray", () => {
    const world = emptyWorld();
    staticBox(world, 5, 0, 0.5, 2);
    const vision = new VisionSystem(world);
    vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 60 * DEG });
    vision.addObservable("p", { position: { x: 8, y: 0 }, radius: 0.4 });
    expect(vision.tick().rays).toBe(1); // the crate is found once...
    let hits = 0;
    for (let i = 1; i <= 10; i++) {
      vision.moveObservable("p", 8, i * 0.05);
      const r = vision.tick();
      expect(r.rays).toBe(0); // ...then answers by itself
      hits += r.blockerCacheHits;
      expect(r.stillBlocked).toBe(1);
    }
    expect(hits).toBe(10);
    expect(vision.canSee("g", "p")).toBe(false);
    vision.moveObservable("p", 8, 4); // out from behind it, still in the cone
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
  });
});

describe("a crowd of moving occluders", () => {
  it("past 64 changed areas in a tick, every observer is marked pending instead of checked box by box", () => {
    const world = emptyWorld();
    const vision = new VisionSystem(world);
    vision.addObserver("near", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: Math.PI / 2 });
    vision.addObserver("far", { position: { x: 500, y: 500 }, facing: 0, range: 10, fov: Math.PI / 2 });
    vision.addObservable("p", { position: { x: 5, y: 0 } });
    vision.addObservable("q", { position: { x: 505, y: 500 } });
    vision.tick();
    expect(vision.tick().evaluated).toBe(0);
    for (let i = 0; i < 10; i++) vision.invalidateArea(200 + i, 200, 201 + i, 201); // far from both
    expect(vision.tick().evaluated).toBe(0);
    for (let i = 0; i < 100; i++) vision.invalidateArea(200 + i, 200, 201 + i, 201);
    expect(vision.tick().evaluated).toBe(2); // everyone, conservatively
    expect(vision.tick().evaluated).toBe(0); // and only for that tick
  });
});
