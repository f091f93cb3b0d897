import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld } from "../fixtures/planckWorld.js";

describe("hysteresis: a target on the edge does not flicker", () => {
  it("a target standing still exactly on the range edge never flips", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 10.2, y: 0 }, radius: 0.2 });
    let flips = 0;
    let last = false;
    for (let i = 0; i < 100; i++) {
      vision.tick();
      const now = vision.canSee("g", "p");
      if (now !== last) flips++;
      last = now;
    }
    expect(flips).toBe(1); // seen once, then held
  });

  it("a target jittering across the range edge and across the cone edge flips at most once", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("range", { position: { x: 10, y: 0 } });
    vision.addObservable("cone", { position: { x: 6, y: 6 } });
    const flips = { range: 0, cone: 0 };
    const last = { range: false, cone: false };
    for (let i = 0; i < 200; i++) {
      const j = i % 2 === 0 ? 0.02 : -0.02; // 2 cm in and out, every tick
      vision.moveObservable("range", 10 + j, 0);
      vision.moveObservable("cone", 6 - j, 6 + j);
      vision.tick();
      for (const id of ["range", "cone"] as const) {
        const now = vision.canSee("g", id);
        if (now !== last[id]) flips[id]++;
        last[id] = now;
      }
    }
    expect(flips.range).toBeLessThanOrEqual(1);
    expect(flips.cone).toBeLessThanOrEqual(1);
  });

  it("sight is lost once the target is clearly past the lose margin (110% of range, 5 degrees past the edge)", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 9, y: 0 } });
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
    vision.moveObservable("p", 10.9, 0);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true); // within the 10% margin
    vision.moveObservable("p", 11.1, 0);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
    vision.moveObservable("p", 5, 0);
    vision.tick();
    const inside = 48 * DEG; // 3 degrees past the 45-degree edge
    vision.moveObservable("p", 5 * Math.cos(inside), 5 * Math.sin(inside));
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
    const outside = 51 * DEG;
    vision.moveObservable("p", 5 * Math.cos(outside), 5 * Math.sin(outside));
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(false);
    // And without margins the same pair is lost at the edge itself.
    const strict = new VisionSystem(emptyWorld(), { loseRangeMargin: 0, loseAngleMargin: 0 });
    strict.addObserver("g", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    strict.addObservable("p", { position: { x: 9, y: 0 } });
    strict.tick();
    strict.moveObservable("p", 10.1, 0);
    strict.tick();
    expect(strict.canSee("g", "p")).toBe(false);
  });
});
