import fc from "fast-check";
import { createRequire } from "node:module";
import { Box, Chain, Circle, Edge, Polygon, Vec2, World } from "planck";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "sightline";
import { Occluders } from "sightline/occluders";
import { seededRandom } from "../../shared/seededRandom.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld } from "../fixtures/planckWorld.js";

/** A guard at the origin looking east, 90 degrees, 20 m. */
function guardOn(occluders: Occluders): VisionSystem {
  const vision = new VisionSystem(occluders);
  vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
  return vision;
}

describe("vision without physics: occluders", () => {
  it("guard sees a player across open floor, and not one behind a rectangle", () => {
    const occluders = new Occluders();
    occluders.addRectangle(5, -1, 0.5, 2); // a wall across the line to (9, 0)
    const vision = guardOn(occluders);
    vision.addObservable("open", { position: { x: 6, y: 4 }, radius: 0.35 });
    vision.addObservable("behind", { position: { x: 9, y: 0 }, radius: 0.35 });
    vision.tick();
    expect([...vision.visibleTo("guard")]).toEqual(["open"]);
  });

  it("a wall added at runtime hides the player at the next tick, and removing it shows the player again", () => {
    const occluders = new Occluders();
    const vision = guardOn(occluders);
    vision.addObservable("player", { position: { x: 8, y: 0 }, radius: 0.35 });
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(true);
    const wall = occluders.addRectangle(4, -2, 0.5, 4);
    expect(vision.check("guard", "player")).toBe(false); // the exact answer knows at once
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
    expect(occluders.remove(wall)).toBe(true);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(true);
    expect(occluders.remove(wall)).toBe(false);
  });

  it("an L-shaped wall keeps its notch open, so a player standing in it is seen", () => {
    const occluders = new Occluders();
    // An L whose convex hull would cover (6.5, 1.5): the notch between its arms.
    occluders.addPolygon([{ x: 5, y: 0 }, { x: 9, y: 0 }, { x: 9, y: 1 }, { x: 6, y: 1 }, { x: 6, y: 4 }, { x: 5, y: 4 }].reverse());
    const vision = new VisionSystem(occluders);
    vision.addObserver("guard", { position: { x: 10, y: 5 }, facing: -135 * DEG, range: 20, fov: 60 * DEG });
    vision.addObservable("in-notch", { position: { x: 7, y: 2 }, radius: 0.2 });
    vision.addObservable("behind-arm", { position: { x: 4, y: 2 }, radius: 0.2 });
    vision.tick();
    expect(vision.canSee("guard", "in-notch")).toBe(true);
    expect(vision.canSee("guard", "behind-arm")).toBe(false);
  });

  it("a pillar and a thin segment block, from either side of the segment", () => {
    const occluders = new Occluders();
    occluders.addCircle(5, 3, 1);
    occluders.addSegment(5, -4, 5, -1);
    const vision = guardOn(occluders);
    vision.addObservable("behind-pillar", { position: { x: 10, y: 6 } });
    vision.addObservable("behind-segment", { position: { x: 10, y: -5 } });
    vision.addObservable("between", { position: { x: 10, y: 1 } });
    vision.tick();
    expect([...vision.visibleTo("guard")]).toEqual(["between"]);
    const back = new VisionSystem(occluders);
    back.addObserver("east", { position: { x: 10, y: -5 }, facing: Math.PI, range: 20, fov: 2 * Math.PI });
    back.addObservable("origin", { position: { x: 0, y: -1.5 } });
    back.tick();
    expect(back.canSee("east", "origin")).toBe(false);
  });

  it("answers exactly as vision on the same level built of static planck fixtures", () => {
    let pairs = 0;
    let seen = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
      const random = seededRandom(seed);
      const world = emptyWorld();
      for (let i = 0; i < 25; i++) {
        const body = world.createBody({ type: "static", position: Vec2(random() * 30, random() * 30), angle: random() * 6 });
        const kind = Math.floor(random() * 5);
        const shape = kind === 0 ? new Box(0.2 + random() * 2, 0.2 + random()) : kind === 1 ? new Circle(0.3 + random())
          : kind === 2 ? new Edge(Vec2(0, 0), Vec2(random() * 3, random() * 3))
          : kind === 3 ? new Chain([Vec2(0, 0), Vec2(1, random()), Vec2(2, random() * 2)], false)
          : new Polygon([Vec2(0, 0), Vec2(1.5, 0.2), Vec2(0.7, 1.4)]);
        body.createFixture({ shape, filterCategoryBits: random() < 0.15 ? 0x2 : 0x1 });
      }
      const onWorld = new VisionSystem(world, { opaqueMask: 0x1, raysPerTick: Infinity });
      const onOccluders = new VisionSystem(Occluders.fromWorld(world, { opaqueMask: 0x1 }), { raysPerTick: Infinity });
      for (let i = 0; i < 30; i++) {
        const spec = { position: { x: random() * 30, y: random() * 30 }, facing: random() * 7, range: 25, fov: (30 + random() * 330) * DEG };
        onWorld.addObserver(`o${i}`, spec);
        onOccluders.addObserver(`o${i}`, spec);
        const target = { position: { x: random() * 30, y: random() * 30 }, radius: random() < 0.5 ? 0 : random() * 0.6 };
        onWorld.addObservable(`t${i}`, target);
        onOccluders.addObservable(`t${i}`, target);
      }
      onWorld.tick();
      onOccluders.tick();
      for (let i = 0; i < 30; i++) {
        for (let j = 0; j < 30; j++) {
          pairs++;
          const a = onWorld.canSee(`o${i}`, `t${j}`);
          if (a) seen++;
          expect(onOccluders.canSee(`o${i}`, `t${j}`), `seed ${seed}: o${i} -> t${j}`).toBe(a);
        }
      }
      onWorld.dispose();
    }), { numRuns: 40 });
    // Both answers occur often enough for the agreement to mean something.
    expect(seen).toBeGreaterThan(pairs * 0.05);
    expect(seen).toBeLessThan(pairs * 0.9);
  });
});

describe("vision refuses what it cannot use, saying why", () => {
  it("a plain object as the world is a RangeError naming what was expected", () => {
    expect(() => new VisionSystem({} as never)).toThrow(/VisionSystem world must be a planck World or an Occluders/);
    expect(() => new VisionSystem(null as never)).toThrow(RangeError);
  });

  it("a World or Body from a second copy of planck is named as such", () => {
    // planck's CommonJS build is a second copy beside the ES module this library imports.
    const other = createRequire(import.meta.url)("planck") as typeof import("planck");
    const foreign = new other.World({ gravity: other.Vec2(0, 0) });
    expect(foreign).not.toBeInstanceOf(World);
    expect(() => new VisionSystem(foreign as never)).toThrow(/from another copy of planck/);
    const vision = new VisionSystem(new World());
    const body = foreign.createBody({ type: "dynamic" });
    expect(() => vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 5, fov: 1, body: body as never })).toThrow(/ObserverSpec\.body is a planck Body from another copy of planck/);
    expect(vision.size.observers).toBe(0);
  });

  it("a body or an opaque mask on occluders is refused: occluders have neither", () => {
    const occluders = new Occluders();
    expect(() => new VisionSystem(occluders, { opaqueMask: 1 })).toThrow(/VisionOptions\.opaqueMask applies to a planck World only/);
    const vision = new VisionSystem(occluders);
    const body = new World().createBody();
    expect(() => vision.addObservable("p", { position: { x: 0, y: 0 }, body })).toThrow(/ObservableSpec\.body needs a VisionSystem built on a planck World/);
  });

  it("bad occluder shapes are RangeErrors naming the argument, and change nothing", () => {
    const occluders = new Occluders();
    expect(() => occluders.addRectangle(0, 0, -1, 2)).toThrow(/Occluders\.addRectangle width must be a finite number > 0 of meters \(got -1\)/);
    expect(() => occluders.addCircle(0, Number.NaN, 1)).toThrow(/Occluders\.addCircle y must be a finite number \(got NaN\)/);
    expect(() => occluders.addSegment(1, 1, 1, 1)).toThrow(/two distinct end points/);
    expect(() => occluders.addPolygon([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }])).toThrow(/Occluders\.addPolygon points: .*no area/);
    expect(() => occluders.addPolygon([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }, { x: 1, y: 1 }])).toThrow(RangeError);
    expect(() => new Occluders({ cellSize: 0 })).toThrow(/OccludersOptions\.cellSize/);
    expect(occluders.size).toBe(0);
    expect(occluders.version).toBe(0);
  });
});
