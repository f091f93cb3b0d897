import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VisionSystem } from "sightline";
import { Occluders, TiledMapError, type Point } from "sightline/occluders";
import { DEG } from "../fixtures/degrees.js";
import { objectLayer, prop, rect, tiledJson } from "../fixtures/tiledJson.js";

/** A door 0.2 m thick across the line from (0, 0) to (10, 0), at x = 5. */
const DOOR: Point[] = [{ x: 5, y: -1.5 }, { x: 5.2, y: -1.5 }, { x: 5.2, y: 1.5 }, { x: 5, y: 1.5 }];

/** A guard at the origin looking east, and a player 10 m away on its axis. */
function guardAndPlayer(occluders: Occluders): VisionSystem {
  const vision = new VisionSystem(occluders);
  vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 20, fov: 90 * DEG });
  vision.addObservable("player", { position: { x: 10, y: 0 }, radius: 0.35 });
  return vision;
}

describe("doors", () => {
  it("a door between a guard and a player: hidden, then seen the tick after it opens, hidden again the tick after it shuts", () => {
    const occluders = new Occluders();
    const door = occluders.addDoor(DOOR);
    const vision = guardAndPlayer(occluders);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
    expect(occluders.setOpen(door, true)).toBe(true);
    expect(occluders.isOpen(door)).toBe(true);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(true);
    expect(occluders.setOpen(door, true)).toBe(false); // already open: no change
    occluders.setOpen(door, false);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
  });

  it("a door that starts open hides nothing until it shuts", () => {
    const occluders = new Occluders();
    const door = occluders.addDoor(DOOR, { open: true });
    const vision = guardAndPlayer(occluders);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(true);
    occluders.setOpen(door, false);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
  });

  it("opening and shutting a door rebuilds nothing: the packed pieces stay the same object", () => {
    const occluders = new Occluders();
    occluders.addRectangle(0, 5, 10, 1);
    const door = occluders.addDoor(DOOR);
    const packed = (occluders as unknown as { packed: object }).packed;
    for (let i = 0; i < 10; i++) occluders.setOpen(door, i % 2 === 0);
    expect((occluders as unknown as { packed: object }).packed).toBe(packed);
    expect(occluders.version).toBeGreaterThanOrEqual(12);
  });

  it("a door of a Tiled map starts as the map says and is found by its object id", () => {
    const json = tiledJson([
      objectLayer("level", [
        rect(1, 0, 0, 20, 0.5, "wall"),
        { ...rect(2, 5, -1.5, 0.2, 3, "door"), properties: [prop("open", true)] },
        rect(3, 8, -1.5, 0.2, 3, "door"),
      ]),
    ]);
    const occluders = Occluders.fromTiled(json);
    const open = occluders.tiledDoor(2)!;
    const shut = occluders.tiledDoor(3)!;
    expect(occluders.isOpen(open)).toBe(true);
    expect(occluders.isOpen(shut)).toBe(false);
    expect(occluders.tiledDoor(1)).toBeUndefined();
  });

  it("a door whose open property is not a boolean is refused, naming the object", () => {
    const json = tiledJson([objectLayer("level", [{ ...rect(7, 5, 0, 0.2, 3, "door"), properties: [prop("open", "yes")] }])]);
    expect(() => Occluders.fromTiled(json, { file: "doors.tmj" })).toThrow(TiledMapError);
    expect(() => Occluders.fromTiled(json, { file: "doors.tmj" })).toThrow(/doors\.tmj.*object 7.*"open" must be a boolean/);
  });

  it("misuse fails loudly, naming the field: opening a wall, an unknown id, a bad outline or flag", () => {
    const occluders = new Occluders();
    const wall = occluders.addRectangle(0, 0, 1, 1);
    expect(() => occluders.setOpen(wall, true)).toThrow(/Occluders\.setOpen id must be a door \(it is a wall\)/);
    expect(() => occluders.setOpen(999, true)).toThrow(RangeError);
    expect(() => occluders.isOpen(999)).toThrow(/Occluders\.isOpen id/);
    expect(() => occluders.addDoor([{ x: 0, y: 0 }, { x: 1, y: 0 }])).toThrow(/Occluders\.addDoor outline/);
    const door = occluders.addDoor(DOOR);
    expect(() => occluders.setOpen(door, 1 as unknown as boolean)).toThrow(/Occluders\.setOpen open must be a boolean/);
    expect(() => occluders.addDoor(DOOR, { open: "no" as unknown as boolean })).toThrow(/DoorOptions\.open/);
  });
});

describe("smoke", () => {
  it("a cloud grows, hides the player while dense, shows it again as it thins, and is gone after its lifetime", () => {
    const occluders = new Occluders();
    // Grown smoothly (a change every tick), so the first tick still sees past it.
    const cloud = occluders.addSmoke(5, 0, { radius: 2, seconds: 10, growSeconds: 1, growSteps: 0, fadeSeconds: 2 });
    const vision = guardAndPlayer(occluders);
    const seen: boolean[] = [];
    for (let t = 0; t < 220; t++) {
      occluders.advance(0.05);
      vision.tick();
      seen.push(vision.canSee("guard", "player"));
    }
    // Dense from the first tick; a circle at (5, 0) hides a 0.35 m player 10 m away from the origin
    // once its radius passes 0.35 / 2 = 0.175 m, at 0.0875 s: the second tick.
    expect(seen.slice(0, 1)).toEqual([true]);
    expect(seen.slice(2, 178).every((s) => !s)).toBe(true);
    // Density 0.5 at 9 s: the 180th tick is the first that sees through it.
    expect(seen.slice(180).every((s) => s)).toBe(true);
    expect(occluders.smoke(cloud)).toBeUndefined();
    expect(occluders.has(cloud)).toBe(false);
  });

  it("a cloud grows in a few steps, each a change its readers hear of, never smaller than a smooth one", () => {
    const occluders = new Occluders();
    const changes: number[] = [];
    let tick = 0;
    occluders.onChange(() => changes.push(tick));
    const cloud = occluders.addSmoke(5, 0, { radius: 2, seconds: 10, growSeconds: 1 }); // 4 steps by default
    const radii: number[] = [];
    for (tick = 1; tick <= 25; tick++) {
      occluders.advance(0.05);
      radii.push(occluders.smoke(cloud)!.radius);
    }
    // Quarter of the radius from the first tick, half from the 6th (0.3 s), ... full from the 16th (0.8 s).
    expect(radii.slice(0, 5).every((r) => r === 0.5)).toBe(true);
    expect(radii[5]).toBe(1);
    expect(radii[10]).toBe(1.5);
    expect(radii.slice(15).every((r) => r === 2)).toBe(true);
    radii.forEach((r, i) => expect(r).toBeGreaterThanOrEqual(Math.min(2, 2 * 0.05 * (i + 1)) - 1e-9));
    // The throw, then four growth steps: five changes, not one a tick.
    expect(changes).toEqual([0, 1, 6, 11, 16]);
    expect(() => occluders.addSmoke(0, 0, { radius: 1, seconds: 1, growSteps: 1.5 })).toThrow(/SmokeOptions\.growSteps/);
  });

  it("a guard inside a cloud sees nothing out of it, and a player inside one is seen by nobody outside", () => {
    const occluders = new Occluders();
    occluders.addSmoke(0, 0, { radius: 3, seconds: 10, growSeconds: 0 });
    const vision = guardAndPlayer(occluders); // the guard at the cloud's centre
    vision.addObserver("outside", { position: { x: 20, y: 0 }, facing: Math.PI, range: 30, fov: 90 * DEG });
    vision.addObservable("inside", { position: { x: 1, y: 0 }, radius: 0.35 });
    occluders.advance(0.05);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
    expect(vision.canSee("guard", "inside")).toBe(false);
    expect(vision.canSee("outside", "inside")).toBe(false);
    expect(vision.canSee("outside", "player")).toBe(true);
  });

  it("a cloud's state reads back its radius, density and whether it blocks", () => {
    const occluders = new Occluders();
    const cloud = occluders.addSmoke(1, 2, { radius: 3, seconds: 4, growSeconds: 2, fadeSeconds: 1, opaqueDensity: 0.4 });
    occluders.advance(1);
    expect(occluders.smoke(cloud)).toEqual({ x: 1, y: 2, radius: 1.5, density: 1, blocking: true, ageSeconds: 1, seconds: 4 });
    occluders.advance(2.5);
    expect(occluders.smoke(cloud)).toMatchObject({ radius: 3, density: 0.5, blocking: true });
    occluders.advance(0.2);
    expect(occluders.smoke(cloud)).toMatchObject({ density: expect.closeTo(0.3, 9), blocking: false });
  });

  it("bad smoke is refused, naming the field", () => {
    const occluders = new Occluders();
    expect(() => occluders.addSmoke(NaN, 0, { radius: 1, seconds: 1 })).toThrow(/Occluders\.addSmoke x/);
    expect(() => occluders.addSmoke(0, 0, { radius: -1, seconds: 1 })).toThrow(/SmokeOptions\.radius/);
    expect(() => occluders.addSmoke(0, 0, { radius: 1, seconds: Infinity })).toThrow(/SmokeOptions\.seconds/);
    expect(() => occluders.addSmoke(0, 0, { radius: 1, seconds: 1, opaqueDensity: 0 })).toThrow(/SmokeOptions\.opaqueDensity/);
    expect(() => occluders.advance(-0.05)).toThrow(/Occluders\.advance seconds/);
    expect(() => occluders.advance(NaN)).toThrow(/Occluders\.advance seconds/);
    expect(occluders.size).toBe(0);
  });
});

describe("walls that break", () => {
  it("a wall removed for good shows what it hid at the next tick", () => {
    const occluders = new Occluders();
    const wall = occluders.addRectangle(5, -2, 0.5, 4);
    const vision = guardAndPlayer(occluders);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(false);
    occluders.remove(wall);
    vision.tick();
    expect(vision.canSee("guard", "player")).toBe(true);
  });
});

describe("a set that changes answers as a set built fresh", () => {
  it("after any sequence of doors, clouds, adds and removals, every sight check equals one on a fresh set of what blocks now", () => {
    type Op = { kind: "wall" | "door" | "toggle" | "smoke" | "remove" | "advance"; a: number; b: number; c: number };
    const op = fc.record({
      kind: fc.constantFrom<Op["kind"]>("wall", "door", "toggle", "smoke", "remove", "advance"),
      a: fc.double({ min: 0, max: 1, noNaN: true }),
      b: fc.double({ min: 0, max: 1, noNaN: true }),
      c: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        const occluders = new Occluders({ cellSize: 2 });
        /** What each live occluder is, to build the fresh set from. */
        const shapes = new Map<number, { kind: "wall" | "door" | "smoke"; build: (o: Occluders) => void }>();
        const vision = new VisionSystem(occluders);
        for (let i = 0; i < 4; i++) vision.addObserver(`o${i}`, { position: { x: 2 + 5 * i, y: 2 }, facing: Math.PI / 2, range: 30, fov: 2 * Math.PI });
        for (let i = 0; i < 4; i++) vision.addObservable(`t${i}`, { position: { x: 3 + 5 * i, y: 18 }, radius: 0.3 });
        for (const o of ops) {
          const x = 1 + o.a * 18;
          const y = 4 + o.b * 12;
          const ids = [...shapes.keys()];
          const pick = ids[Math.floor(o.c * ids.length)];
          if (o.kind === "wall") {
            const w = 0.5 + o.c * 4;
            shapes.set(occluders.addRectangle(x, y, w, 0.4), { kind: "wall", build: (f) => void f.addRectangle(x, y, w, 0.4) });
          } else if (o.kind === "door") {
            const outline = [{ x, y }, { x: x + 3, y }, { x: x + 3, y: y + 0.3 }, { x, y: y + 0.3 }];
            const id = occluders.addDoor(outline, { open: o.c < 0.5 });
            shapes.set(id, { kind: "door", build: (f) => { if (!occluders.isOpen(id)) f.addPolygon(outline); } });
          } else if (o.kind === "toggle") {
            if (pick !== undefined && shapes.get(pick)!.kind === "door") occluders.setOpen(pick, !occluders.isOpen(pick));
          } else if (o.kind === "smoke") {
            const id = occluders.addSmoke(x, y, { radius: 0.5 + o.c * 2, seconds: 0.5 + o.c * 3 });
            shapes.set(id, { kind: "smoke", build: (f) => { const s = occluders.smoke(id); if (s?.blocking && s.radius > 0) f.addSmoke(s.x, s.y, { radius: s.radius, seconds: 1e9, growSeconds: 0, fadeSeconds: 0 }); } });
          } else if (o.kind === "remove") {
            if (pick !== undefined) {
              occluders.remove(pick);
              shapes.delete(pick);
            }
          } else {
            occluders.advance(o.c);
            for (const [id, s] of shapes) if (s.kind === "smoke" && !occluders.has(id)) shapes.delete(id);
          }
          vision.tick();
        }
        const fresh = new Occluders({ cellSize: 2 });
        for (const s of shapes.values()) s.build(fresh);
        const check = new VisionSystem(fresh);
        for (let i = 0; i < 4; i++) check.addObserver(`o${i}`, { position: { x: 2 + 5 * i, y: 2 }, facing: Math.PI / 2, range: 30, fov: 2 * Math.PI });
        for (let i = 0; i < 4; i++) check.addObservable(`t${i}`, { position: { x: 3 + 5 * i, y: 18 }, radius: 0.3 });
        for (let i = 0; i < 4; i++) {
          for (let j = 0; j < 4; j++) {
            expect(vision.check(`o${i}`, `t${j}`), `o${i} -> t${j}`).toBe(check.check(`o${i}`, `t${j}`));
            expect(vision.canSee(`o${i}`, `t${j}`), `o${i} -> t${j} (scheduled)`).toBe(check.check(`o${i}`, `t${j}`));
          }
        }
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});
