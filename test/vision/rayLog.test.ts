import { Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, playerBody, staticBox } from "../fixtures/planckWorld.js";

describe("the ray log (debug drawing of the rays a tick cast)", () => {
  it("holds exactly the rays of the last tick, each ending where it stopped, and nothing from check()", () => {
    const world = emptyWorld();
    staticBox(world, 6, 0, 0.5, 0.5);
    const body = playerBody(world, 4, 3, 0.3);
    const vision = new VisionSystem(world, { recordRays: true });
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("seen", { position: { x: 4, y: 3 }, radius: 0.3, body });
    vision.addObservable("hidden", { position: { x: 9, y: 0 }, radius: 0.3 });
    const report = vision.tick();
    const log = vision.rayLog!;
    expect(log.count).toBe(report.rays);
    const rays = Array.from({ length: log.count }, (_, i) => log.get(i));
    expect(rays.filter((r) => r.clear)).toHaveLength(1);
    const clear = rays.find((r) => r.clear)!;
    // It ended on the seen player's body surface, 0.3 m short of its centre (5 m away).
    expect(Math.hypot(clear.x2 - clear.x1, clear.y2 - clear.y1)).toBeCloseTo(4.7, 6);
    expect(rays.filter((r) => !r.clear).every((r) => r.x2 > 8)).toBe(true);

    vision.check("guard", "hidden");
    expect(log.count).toBe(report.rays);
    vision.remove("hidden");
    vision.tick(); // nothing the guard looks at changed: it is skipped, no ray
    expect(log.count).toBe(0);
    vision.moveObservable("seen", 4, 3.1);
    body.setPosition(Vec2(4, 3.1));
    vision.tick();
    expect(log.count).toBe(1);
    expect(() => log.get(1)).toThrow(RangeError);
    expect(new VisionSystem(world).rayLog).toBeNull();
  });

  it("can be switched on and off between ticks, recording only while on", () => {
    const world = emptyWorld();
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("target", { position: { x: 4, y: 0 }, radius: 0.3 });
    vision.tick();
    expect(vision.rayLog).toBeNull();
    vision.setRecordRays(true);
    vision.moveObservable("target", 4, 0.5);
    const report = vision.tick();
    expect(report.rays).toBeGreaterThan(0);
    expect(vision.rayLog!.count).toBe(report.rays);
    vision.setRecordRays(false);
    vision.moveObservable("target", 4, 1);
    expect(vision.tick().rays).toBeGreaterThan(0);
    expect(vision.rayLog).toBeNull();
  });
});
