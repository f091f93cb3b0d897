import { Box, Circle, Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, playerBody, staticBox } from "../fixtures/planckWorld.js";

const WALL = 0x0001;
const GLASS = 0x0002;
const PLAYER = 0x0004;

describe("a guard, three targets and a crate", () => {
  it("one target is seen, one is outside the cone, one hides behind a box", () => {
    const world = emptyWorld();
    staticBox(world, 6, 0, 0.5, 0.5);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("seen", { position: { x: 5, y: 3 }, radius: 0.3 });
    vision.addObservable("outside", { position: { x: -4, y: 1 }, radius: 0.3 });
    vision.addObservable("hidden", { position: { x: 9, y: 0 }, radius: 0.3 });

    const report = vision.tick();

    expect([...vision.visibleTo("guard")]).toEqual(["seen"]);
    expect(vision.canSee("guard", "outside")).toBe(false);
    expect(vision.canSee("guard", "hidden")).toBe(false);
    expect(vision.seenBy("seen").has("guard")).toBe(true);
    expect(report.evaluated).toBe(1);
    // "outside" fails the cone test before any ray; "seen" needs one ray; "hidden" needs one tree ray,
    // after which the crate it hit answers its two silhouette samples (the blocker cache).
    expect(report.rays).toBe(2);
  });

  it("without the blocker cache the hidden target costs a tree ray per sample", () => {
    const world = emptyWorld();
    staticBox(world, 6, 0, 0.5, 0.5);
    const vision = new VisionSystem(world, { blockerCache: false });
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("hidden", { position: { x: 9, y: 0 }, radius: 0.3 });
    expect(vision.tick().rays).toBe(3);
    expect(vision.canSee("guard", "hidden")).toBe(false);
  });

  it("a target beyond the range is not seen even in the open", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("far", { position: { x: 10.5, y: 0 }, radius: 0.3 });
    vision.addObservable("rim", { position: { x: 10.25, y: 0 }, radius: 0.3 }); // its body crosses the arc
    vision.tick();
    expect(vision.canSee("guard", "far")).toBe(false);
    expect(vision.canSee("guard", "rim")).toBe(true);
  });
});

describe("a round body against the cone's edges", () => {
  it("a body whose centre is outside the cone but whose circle crosses its edge is seen", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 60 * DEG });
    // 35 degrees off-axis at 8 m: 5 degrees outside a 30-degree half-angle, about 0.7 m from the edge.
    const off = 35 * DEG;
    vision.addObservable("broad", { position: { x: 8 * Math.cos(off), y: 8 * Math.sin(off) }, radius: 0.8 });
    vision.addObservable("thin", { position: { x: 8 * Math.cos(off), y: 8 * Math.sin(off) + 0.01 }, radius: 0.5 });
    vision.tick();
    expect(vision.canSee("guard", "broad")).toBe(true);
    expect(vision.canSee("guard", "thin")).toBe(false);
  });

  it("a body at the guard's feet but behind the apex still counts when it overlaps the apex", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 30 * DEG });
    vision.addObservable("touching", { position: { x: -0.3, y: 0 }, radius: 0.5 });
    vision.tick();
    expect(vision.canSee("guard", "touching")).toBe(true);
  });
});

describe("glass, several rays and the turret", () => {
  it("glass does not block but a wall does", () => {
    const world = emptyWorld();
    staticBox(world, 3, 2, 0.1, 1, GLASS);
    staticBox(world, 3, -2, 0.1, 1, WALL);
    const vision = new VisionSystem(world, { opaqueMask: WALL | PLAYER });
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 120 * DEG });
    vision.addObservable("behind-glass", { position: { x: 6, y: 4 } });
    vision.addObservable("behind-wall", { position: { x: 6, y: -4 } });
    vision.tick();
    expect(vision.canSee("guard", "behind-glass")).toBe(true);
    expect(vision.canSee("guard", "behind-wall")).toBe(false);
  });

  it("glass blocks when its category is in the opaque mask (the mask decides, not the shape)", () => {
    const world = emptyWorld();
    staticBox(world, 3, 0, 0.1, 1, GLASS);
    const vision = new VisionSystem(world); // default mask 0xFFFF: every category blocks
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 120 * DEG });
    vision.addObservable("p", { position: { x: 6, y: 0 } });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(false);
  });

  it("a sensor (a trigger zone) never blocks", () => {
    const world = emptyWorld();
    const zone = world.createBody({ position: Vec2(3, 0) });
    zone.createFixture({ shape: new Box(1, 1), isSensor: true });
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 6, y: 0 } });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);
  });

  it("the observer's own body never blocks its sight", () => {
    const world = emptyWorld();
    // A guard whose body carries a shield fixture in front of its eye.
    const guard = world.createBody({ type: "dynamic", position: Vec2(0, 0) });
    guard.createFixture({ shape: new Circle(0.4), density: 1 });
    guard.createFixture({ shape: new Box(0.1, 0.6, Vec2(0.6, 0), 0), density: 1 });
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG, body: guard });
    vision.addObserver("stranger", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 6, y: 0 } });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);
    // The same geometry without the body link: the shield is just another fixture and blocks.
    expect(vision.canSee("stranger", "p")).toBe(false);
  });

  it("a ray that reaches the target's own body ends clear, even if a wall stands right behind it", () => {
    const world = emptyWorld();
    // The player leans into a wall: its centre is inside the wall, its front is not.
    staticBox(world, 6.2, 0, 0.4, 2);
    const body = playerBody(world, 6, 0, 0.5);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    vision.addObservable("with-body", { position: { x: 6, y: 0 }, radius: 0.5, body, samples: 1 });
    vision.tick();
    expect(vision.canSee("guard", "with-body")).toBe(true);
  });

  it("an observable placed inside its own body without naming it is refused, since its body would hide it from everyone", () => {
    const world = emptyWorld();
    const body = playerBody(world, 6, 0, 0.5);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
    expect(() => vision.addObservable("no-body", { position: { x: 6, y: 0 }, radius: 0.5 })).toThrow(/ObservableSpec\.body is required here/);
    expect(vision.size.observables).toBe(0);
    // Named, it is the target and the guard sees it; a point outside any moving body needs no body.
    vision.addObservable("with-body", { position: { x: 6, y: 0 }, radius: 0.5, body });
    vision.addObservable("beside", { position: { x: 6, y: 2 } });
    vision.tick();
    expect(vision.canSee("guard", "with-body")).toBe(true);
    // Taking the body away again is refused the same way.
    expect(() => vision.updateObservable("with-body", { body: undefined })).toThrow(RangeError);
  });

  it("other players' bodies block like any fixture unless their category is left out of the mask", () => {
    const world = emptyWorld();
    const bystander = playerBody(world, 3, 0, 0.5);
    const seeThroughPlayers = new VisionSystem(world, { opaqueMask: WALL });
    const solidPlayers = new VisionSystem(world);
    for (const v of [seeThroughPlayers, solidPlayers]) {
      v.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 90 * DEG });
      v.addObservable("p", { position: { x: 6, y: 0 }, samples: 1 });
      v.addObservable("bystander", { position: { x: 3, y: 0 }, radius: 0.5, body: bystander });
      v.tick();
    }
    expect(seeThroughPlayers.canSee("guard", "p")).toBe(true);
    expect(solidPlayers.canSee("guard", "p")).toBe(false);
    expect(solidPlayers.canSee("guard", "bystander")).toBe(true);
  });

  it("a turret (fov >= 2*PI) sees all around", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("turret", { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 2 * Math.PI });
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * 2 * Math.PI;
      vision.addObservable(`p${i}`, { position: { x: 5 * Math.cos(a), y: 5 * Math.sin(a) } });
    }
    vision.tick();
    expect(vision.visibleTo("turret").size).toBe(8);
  });

  it("range Infinity sees across the whole level", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("sniper", { position: { x: 0, y: 0 }, facing: 0, range: Infinity, fov: 10 * DEG });
    vision.addObservable("far", { position: { x: 1e6, y: 1e3 } });
    vision.addObservable("aside", { position: { x: 1e6, y: 1e6 } });
    vision.tick();
    expect(vision.canSee("sniper", "far")).toBe(true);
    expect(vision.canSee("sniper", "aside")).toBe(false);
  });
});

describe("k of n samples: a thin pillar hides part of a body", () => {
  // Guard at the origin looking along +x; a player of radius 0.5 at 10 m.
  function setup(pillarY: number, pillarHalfWidth: number) {
    const world = emptyWorld();
    staticBox(world, 5, pillarY, 0.05, pillarHalfWidth);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
    for (const required of [1, 2, 3]) {
      vision.addObservable(`need${required}`, { position: { x: 10, y: 0 }, radius: 0.5, samples: 3, required });
    }
    vision.addObservable("centreOnly", { position: { x: 10, y: 0 }, radius: 0.5, samples: 1 });
    vision.tick();
    return vision;
  }

  it("a pillar covering only the centre: 2 of 3 still see, 3 of 3 do not, the centre ray alone does not", () => {
    const vision = setup(0, 0.05);
    expect(vision.canSee("guard", "need1")).toBe(true);
    expect(vision.canSee("guard", "need2")).toBe(true);
    expect(vision.canSee("guard", "need3")).toBe(false);
    expect(vision.canSee("guard", "centreOnly")).toBe(false);
  });

  it("a pillar covering the centre and one flank: 1 of 3 sees, 2 of 3 does not", () => {
    const vision = setup(0.12, 0.15);
    expect(vision.canSee("guard", "need1")).toBe(true);
    expect(vision.canSee("guard", "need2")).toBe(false);
  });

  it("more samples spread along the silhouette find a gap that three rays miss", () => {
    const world = emptyWorld();
    // Two posts hide the centre and both flank samples but leave a gap in between.
    staticBox(world, 5, 0, 0.05, 0.04);
    staticBox(world, 5, 0.22, 0.05, 0.03);
    staticBox(world, 5, -0.22, 0.05, 0.03);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
    vision.addObservable("three", { position: { x: 10, y: 0 }, radius: 0.5, samples: 3 });
    vision.addObservable("seven", { position: { x: 10, y: 0 }, radius: 0.5, samples: 7 });
    vision.tick();
    expect(vision.canSee("guard", "three")).toBe(false);
    expect(vision.canSee("guard", "seven")).toBe(true);
  });
});

describe("the sixth sense (proximityRadius)", () => {
  it("notices a presence right behind the back, but not through a wall, and not farther than its radius", () => {
    const world = emptyWorld();
    staticBox(world, 0, 1.5, 2, 0.1);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", {
      position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 60 * DEG, proximityRadius: 2,
    });
    vision.addObservable("behind", { position: { x: -1.5, y: 0 }, radius: 0.3 });
    vision.addObservable("beyond-wall", { position: { x: 0, y: 2 }, radius: 0.3 });
    vision.addObservable("too-far-behind", { position: { x: -2.5, y: 0 }, radius: 0.3 });
    vision.addObservable("grazing", { position: { x: -2.2, y: 0 }, radius: 0.3 }); // body circle reaches 1.9 m
    vision.tick();
    expect(vision.canSee("guard", "behind")).toBe(true);
    expect(vision.canSee("guard", "beyond-wall")).toBe(false);
    expect(vision.canSee("guard", "too-far-behind")).toBe(false);
    expect(vision.canSee("guard", "grazing")).toBe(true);
  });

  it("reaches past the range when larger than it (a blind sentry that only hears)", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("sentry", { position: { x: 0, y: 0 }, facing: 0, range: 0, fov: 1 * DEG, proximityRadius: 3 });
    vision.addObservable("p", { position: { x: 0, y: -2.5 } });
    vision.tick();
    expect(vision.canSee("sentry", "p")).toBe(true);
  });
});
