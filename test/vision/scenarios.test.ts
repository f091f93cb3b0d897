import { Body, Box, Circle, Vec2, World } from "planck";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, staticBox } from "../fixtures/planckWorld.js";

const WALL = 0x0001;
const GLASS = 0x0002;
const PLAYER = 0x0004;

function playerBody(world: World, x: number, y: number, radius: number): Body {
  const body = world.createBody({ type: "dynamic", position: Vec2(x, y) });
  body.createFixture({ shape: new Circle(radius), density: 1, filterCategoryBits: PLAYER });
  return body;
}

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

describe("updates, removal and the reverse index", () => {
  it("canSee keeps the last evaluated answer until the next tick; check answers now", () => {
    const world = emptyWorld();
    staticBox(world, 5, 0, 0.5, 2);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 8, y: 5 }, radius: 0.3 });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);

    vision.moveObservable("p", 8, 0); // behind the crate now
    expect(vision.canSee("guard", "p")).toBe(true);
    expect(vision.check("guard", "p")).toBe(false);
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(false);
    expect(vision.seenBy("p").size).toBe(0);

    vision.updateObserver("guard", { position: { x: 0, y: 6 }, facing: -0.5 });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);
  });

  it("turning away loses the target; the cone follows updateObserver and moveObserver", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
    vision.addObservable("p", { position: { x: 5, y: 0 } });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);
    vision.moveObserver("guard", 0, 0, Math.PI);
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(false);
    vision.updateObserver("guard", { fov: 2 * Math.PI });
    vision.tick();
    expect(vision.canSee("guard", "p")).toBe(true);
  });

  it("removing an observer or an observable drops every sighting that involves it", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("a", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 2 * Math.PI });
    vision.addObserver("b", { position: { x: 1, y: 0 }, facing: 0, range: 20, fov: 2 * Math.PI });
    vision.addObservable("p", { position: { x: 5, y: 0 } });
    vision.addObservable("q", { position: { x: -5, y: 0 } });
    vision.tick();
    expect([...vision.seenBy("p")].sort()).toEqual(["a", "b"]);

    vision.remove("a");
    expect([...vision.seenBy("p")]).toEqual(["b"]);
    expect(vision.canSee("a", "p")).toBe(false);
    expect(vision.visibleTo("a").size).toBe(0);

    vision.remove("p");
    expect([...vision.visibleTo("b")]).toEqual(["q"]);
    expect(vision.seenBy("p").size).toBe(0);
    vision.tick();
    expect([...vision.visibleTo("b")]).toEqual(["q"]);
    expect(vision.size).toEqual({ observers: 1, observables: 1 });
  });

  it("one id can be both observer and observable (a player); it never sees itself", () => {
    const vision = new VisionSystem(emptyWorld());
    for (const [id, x] of [["alice", 0], ["bob", 4]] as const) {
      vision.addObserver(id, { position: { x, y: 0 }, facing: 0, range: 20, fov: 2 * Math.PI });
      vision.addObservable(id, { position: { x, y: 0 }, radius: 0.4 });
    }
    vision.tick();
    expect([...vision.visibleTo("alice")]).toEqual(["bob"]);
    expect([...vision.visibleTo("bob")]).toEqual(["alice"]);
    expect(vision.check("alice", "alice")).toBe(false);
    vision.remove("bob");
    expect(vision.visibleTo("alice").size).toBe(0);
    expect(vision.size).toEqual({ observers: 1, observables: 1 });
  });

  it("the reverse index stays consistent with visibleTo through random moves and removals", () => {
    const world = emptyWorld();
    for (let i = 0; i < 12; i++) staticBox(world, (i % 4) * 6 - 9, Math.floor(i / 4) * 6 - 6, 0.5, 1.5);
    // No lose-sight margins here, so the scheduled answer must equal the exact one after every tick.
    const vision = new VisionSystem(world, { loseRangeMargin: 0, loseAngleMargin: 0, raysPerTick: Infinity });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = `e${i}`;
      ids.push(id);
      vision.addObserver(id, { position: { x: rnd() * 30 - 15, y: rnd() * 30 - 15 }, facing: rnd() * 7, range: 12, fov: 100 * DEG });
      vision.addObservable(id, { position: { x: rnd() * 30 - 15, y: rnd() * 30 - 15 }, radius: 0.4 });
    }
    for (let step = 0; step < 30; step++) {
      for (const id of ids) {
        vision.moveObserver(id, rnd() * 30 - 15, rnd() * 30 - 15, rnd() * 7);
        vision.moveObservable(id, rnd() * 30 - 15, rnd() * 30 - 15);
      }
      if (step === 15) for (const id of ids.splice(0, 5)) vision.remove(id);
      vision.tick();
      // sightings() walks its own list of observers that see someone and their own chains of sightings:
      // it must agree with every visible set, each observer's targets together and in that set's order.
      let pairs = 0;
      for (const o of ids) pairs += vision.visibleTo(o).size;
      const listed = vision.sightings();
      expect(listed.length).toBe(pairs);
      const byObserver = new Map<string, string[]>();
      let previous = "";
      for (const s of listed) {
        if (s.observerId !== previous) expect(byObserver.has(s.observerId)).toBe(false);
        previous = s.observerId;
        byObserver.set(s.observerId, [...(byObserver.get(s.observerId) ?? []), s.targetId]);
      }
      for (const [o, targets] of byObserver) expect(targets).toEqual([...vision.visibleTo(o)]);
      for (const o of ids) {
        for (const t of ids) {
          expect(vision.seenBy(t).has(o)).toBe(vision.visibleTo(o).has(t));
          // The scheduled answer equals the exact one right after a full pass.
          expect(vision.canSee(o, t)).toBe(vision.check(o, t));
        }
      }
    }
  });
});

describe("invalid input is refused with a RangeError naming the field, and changes nothing", () => {
  const good = { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 1 };

  it.each([
    ["ObserverSpec.position.x", { ...good, position: { x: NaN, y: 0 } }],
    ["ObserverSpec.position.y", { ...good, position: { x: 0, y: Infinity } }],
    ["ObserverSpec.facing", { ...good, facing: NaN }],
    ["ObserverSpec.range", { ...good, range: -1 }],
    ["ObserverSpec.range", { ...good, range: NaN }],
    ["ObserverSpec.fov", { ...good, fov: 0 }],
    ["ObserverSpec.fov", { ...good, fov: -1 }],
    ["ObserverSpec.proximityRadius", { ...good, proximityRadius: -2 }],
    ["ObserverSpec.priority", { ...good, priority: NaN }],
    ["ObserverSpec.body", { ...good, body: {} }],
    ["ObserverSpec.fov", { position: { x: 0, y: 0 }, facing: 0, range: 10 }],
  ])("addObserver rejects a bad %s", (field, spec) => {
    const vision = new VisionSystem(emptyWorld());
    expect(() => vision.addObserver("g", spec as never)).toThrow(RangeError);
    expect(() => vision.addObserver("g", spec as never)).toThrow(field);
    expect(vision.size.observers).toBe(0);
  });

  it.each([
    ["ObservableSpec.position.x", { position: { x: NaN, y: 0 } }],
    ["ObservableSpec.radius", { position: { x: 0, y: 0 }, radius: -0.1 }],
    ["ObservableSpec.samples", { position: { x: 0, y: 0 }, radius: 1, samples: 2 }],
    ["ObservableSpec.samples", { position: { x: 0, y: 0 }, radius: 1, samples: 0 }],
    ["ObservableSpec.required", { position: { x: 0, y: 0 }, radius: 1, samples: 3, required: 4 }],
    ["ObservableSpec.required", { position: { x: 0, y: 0 }, required: 2 }],
    ["ObservableSpec.required", { position: { x: 0, y: 0 }, radius: 1, required: 0 }],
  ])("addObservable rejects a bad %s", (field, spec) => {
    const vision = new VisionSystem(emptyWorld());
    expect(() => vision.addObservable("p", spec as never)).toThrow(field);
    expect(vision.size.observables).toBe(0);
  });

  it("a duplicate id is refused and the first registration is kept", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("g", good);
    expect(() => vision.addObserver("g", { ...good, range: 99 })).toThrow(/already registered/);
    vision.addObservable("p", { position: { x: 5, y: 0 } });
    expect(() => vision.addObservable("p", { position: { x: 50, y: 0 } })).toThrow(RangeError);
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true);
  });

  it("a bad update changes no field at all, even the valid ones in the same patch", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("g", good);
    vision.addObservable("p", { position: { x: 5, y: 0 }, radius: 1, samples: 3 });
    expect(() => vision.updateObserver("g", { facing: Math.PI, range: NaN })).toThrow("ObserverSpec.range");
    expect(() => vision.updateObservable("p", { position: { x: -5, y: 0 }, required: 5 })).toThrow("ObservableSpec.required");
    expect(() => vision.moveObserver("g", 0, NaN, Math.PI)).toThrow("ObserverSpec.position.y");
    expect(() => vision.moveObservable("p", Infinity, 0)).toThrow("ObservableSpec.position.x");
    vision.tick();
    expect(vision.canSee("g", "p")).toBe(true); // still facing +x, target still at +5
  });

  it("updates of unknown ids throw; queries about unknown ids answer false or an empty set", () => {
    const vision = new VisionSystem(emptyWorld());
    expect(() => vision.updateObserver("ghost", { facing: 1 })).toThrow(RangeError);
    expect(() => vision.updateObservable("ghost", { radius: 1 })).toThrow(RangeError);
    expect(vision.canSee("ghost", "nobody")).toBe(false);
    expect(vision.check("ghost", "nobody")).toBe(false);
    expect(vision.visibleTo("ghost").size).toBe(0);
    expect(vision.seenBy("ghost").size).toBe(0);
    expect(() => vision.remove("ghost")).not.toThrow();
  });

  it("an opaqueMask outside 16 bits is refused", () => {
    expect(() => new VisionSystem(emptyWorld(), { opaqueMask: -1 })).toThrow("opaqueMask");
    expect(() => new VisionSystem(emptyWorld(), { opaqueMask: 0x1ffff })).toThrow("opaqueMask");
  });
});

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
