import { describe, expect, it } from "vitest";
import { VisionSystem } from "../../server/vision/index.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, staticBox } from "../fixtures/planckWorld.js";

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
