import { describe, expect, it } from "vitest";
import { seededRandom } from "../../shared/seededRandom.js";
import { AwarenessModel, VisionSystem, type DetectionEvent, type Sighting } from "../../server/vision/index.js";
import { DT, run, secondsUntil, sight } from "../fixtures/awarenessRuns.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld, staticBox } from "../fixtures/planckWorld.js";

describe("the meter fills: a guard staring at an exposed player", () => {
  it("spots them in 2-3 s at 10 m and under 1 s at 2 m, through noticed and suspicious", () => {
    const far = new AwarenessModel();
    const farEvents = run(far, 100, () => [sight(10)]);
    expect(farEvents.map((e) => e.type)).toEqual(["noticed", "suspicious", "spotted"]);
    expect(secondsUntil(farEvents, "spotted")).toBeGreaterThanOrEqual(2);
    expect(secondsUntil(farEvents, "spotted")).toBeLessThanOrEqual(3);
    expect(farEvents[0]!.tick).toBe(1);
    const near = new AwarenessModel();
    expect(secondsUntil(run(near, 40, () => [sight(2)]), "spotted")).toBeLessThan(1);
  });

  it("rises monotonically while seen, and the state follows idle -> suspicious -> alerted", () => {
    const model = new AwarenessModel();
    let last = 0;
    const states: string[] = [];
    for (let tick = 1; tick <= 60; tick++) {
      model.step(tick, DT, [sight(10)]);
      const level = model.level("guard", "player");
      expect(level).toBeGreaterThanOrEqual(last);
      expect(level).toBeLessThanOrEqual(1);
      last = level;
      const s = model.state("guard");
      if (states[states.length - 1] !== s) states.push(s);
    }
    expect(states).toEqual(["idle", "suspicious", "alerted"]);
    expect(model.level("guard", "player")).toBe(1);
    expect(model.focus("guard")).toBe("player");
  });

  it("fills slower in the periphery, when crouching, through the sixth sense; never when fully hidden", () => {
    const t = (s: Sighting) => secondsUntil(run(new AwarenessModel(), 400, () => [s]), "spotted");
    const centre = t(sight(5, 0));
    expect(t(sight(5, 40))).toBeGreaterThan(centre * 1.5);
    expect(t(sight(5, 0, { visibility: 0.5 }))).toBeGreaterThan(centre * 1.8);
    expect(t(sight(5, 150, { proximity: true }))).toBeGreaterThan(centre * 2.5);
    expect(t(sight(5, 0, { visibility: 0 }))).toBe(Infinity);
    // No hard edge: a body just past the cone's edge (seen through its silhouette) fills like one just inside.
    expect(t(sight(5, 46))).toBeCloseTo(t(sight(5, 44.9)), 0);
  });

  it("an alerted guard acquires a second player three times faster than an idle one", () => {
    const model = new AwarenessModel();
    run(model, 60, () => [sight(3)]);
    expect(model.state("guard")).toBe("alerted");
    model.step(61, DT, [sight(3), { ...sight(10), targetId: "second" }]);
    const idle = new AwarenessModel();
    idle.step(1, DT, [{ ...sight(10), targetId: "second" }]);
    expect(model.level("guard", "second")).toBeCloseTo(3 * idle.level("guard", "second"), 9);
  });
});

describe("the meter decays, and the guard calms down, loses and searches", () => {
  it("holds for the grace period, then decays; a suspicious guard that calms down is cleared", () => {
    const model = new AwarenessModel();
    run(model, 24, () => [sight(10)]); // 1.2 s of looking
    const peak = model.level("guard", "player");
    expect(model.state("guard")).toBe("suspicious");
    const events = run(model, 20, () => [], 25); // 1 s unseen: the grace period
    expect(model.level("guard", "player")).toBe(peak);
    expect(events).toEqual([]);
    run(model, 20, () => [], 45); // decays at 0.25 per second
    expect(model.level("guard", "player")).toBeCloseTo(peak - 0.25 * 20 * DT, 9);
    const calm = run(model, 200, () => [], 65);
    expect(calm.map((e) => e.type)).toEqual(["cleared"]);
    expect(calm[0]!.position).toEqual({ x: 10, y: 0 });
    expect(model.state("guard")).toBe("idle");
    expect(model.lastKnown("guard")).toBeUndefined();
  });

  it("an alerted guard loses the player only after the last-known window, searches there, then gives up", () => {
    const model = new AwarenessModel({ lostAfterSeconds: 3, searchSeconds: 8 });
    run(model, 40, (tick) => [sight(4, 0, { position: { x: 4, y: tick * 0.01 } })]);
    expect(model.state("guard")).toBe("alerted");
    expect(model.lastKnown("guard")).toEqual({ x: 4, y: 0.4 });
    const gone = run(model, 59, () => [], 41); // 2.95 s unseen
    expect(gone).toEqual([]);
    expect(model.state("guard")).toBe("alerted");
    const lost = run(model, 1, () => [], 100); // 3 s
    expect(lost.map((e) => [e.type, e.position])).toEqual([["lost", { x: 4, y: 0.4 }]]);
    expect(model.state("guard")).toBe("searching");
    expect(model.lastKnown("guard")).toEqual({ x: 4, y: 0.4 });
    const search = run(model, 160, () => [], 101); // 8 s of searching
    expect(search.map((e) => e.type)).toEqual(["cleared"]);
    expect(search[0]!.tick).toBe(260);
    expect(model.state("guard")).toBe("idle");
  });

  it("a searching guard that sees the player again spots them again", () => {
    const model = new AwarenessModel();
    run(model, 40, () => [sight(4)]);
    run(model, 61, () => [], 41);
    expect(model.state("guard")).toBe("searching");
    const again = run(model, 40, () => [sight(6)], 102);
    expect(again.map((e) => e.type)).toEqual(["spotted"]);
    expect(model.state("guard")).toBe("alerted");
  });
});

describe("standing down", () => {
  it("standDown() clears an alerted guard at once: one cleared event, meters at 0, idle; a calm guard gets none", () => {
    const events: DetectionEvent[] = [];
    const model = new AwarenessModel({ onEvent: (e) => events.push(e) });
    run(model, 40, () => [sight(3)]);
    expect(model.state("guard")).toBe("alerted");
    const cleared = model.standDown("guard");
    expect(cleared).toMatchObject({ type: "cleared", observerId: "guard", targetId: "player", tick: 40 });
    expect(cleared!.seq).toBe(events.at(-2)!.seq + 1);
    expect(events.at(-1)).toBe(cleared);
    expect(model.state("guard")).toBe("idle");
    expect(model.level("guard", "player")).toBe(0);
    expect(model.standDown("guard")).toBeUndefined();
    // Seen again later, it starts over from noticed.
    expect(run(model, 2, () => [sight(3)], 41).map((e) => e.type)).toEqual(["noticed"]);
  });
});

describe("no chatter", () => {
  it("a sighting that flickers every other tick produces noticed, suspicious, spotted once each, in order", () => {
    const model = new AwarenessModel();
    const events = run(model, 400, (tick) => (tick % 2 === 0 ? [sight(8)] : []));
    expect(events.map((e) => e.type)).toEqual(["noticed", "suspicious", "spotted"]);
  });

  it("a glimpse that fades to zero and comes back within the re-arm window is not noticed twice", () => {
    const model = new AwarenessModel();
    const events = [
      ...run(model, 2, () => [sight(12)]), // a glimpse
      ...run(model, 40, () => [], 3), // fades to 0 after the grace period
      ...run(model, 2, () => [sight(12)], 43), // back 1 s later
    ];
    expect(events.map((e) => e.type)).toEqual(["noticed"]);
    // Once the meter has been calm for the re-arm window, a new glimpse is news again.
    const later = [...run(model, 200, () => [], 45), ...run(model, 1, () => [sight(12)], 245)];
    expect(later.map((e) => e.type)).toEqual(["noticed"]);
  });

  it("a player idling on the edge of a guard's cone gets one noticed, one suspicious, one spotted", () => {
    const world = emptyWorld();
    staticBox(world, -20, 0, 1, 1);
    const vision = new VisionSystem(world);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 15, fov: 90 * DEG });
    vision.addObservable("player", { position: { x: 7, y: 7 }, radius: 0.3 });
    const model = new AwarenessModel();
    const events: DetectionEvent[] = [];
    for (let tick = 1; tick <= 600; tick++) {
      // Shuffling 3 cm across the cone's edge, every tick, for 30 s.
      const j = tick % 2 === 0 ? 0.52 : 0.47;
      vision.moveObservable("player", 7 + j, 7.3 + j * (tick % 2 === 0 ? 1 : -1));
      vision.tick();
      events.push(...model.step(tick, DT, vision.sightings()));
    }
    expect(events.map((e) => e.type)).toEqual(["noticed", "suspicious", "spotted"]);
  });
});

describe("events", () => {
  it("carry a per-model sequence number, the tick, both ids and the last known position; onEvent sees them in order", () => {
    const heard: DetectionEvent[] = [];
    const model = new AwarenessModel({ onEvent: (e) => heard.push(e) });
    const events = [
      ...run(model, 60, () => [sight(5), { ...sight(9, 10), observerId: "camera" }]),
      ...run(model, 300, () => [], 61),
    ];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(heard).toEqual(events);
    for (let i = 1; i < events.length; i++) expect(events[i]!.tick).toBeGreaterThanOrEqual(events[i - 1]!.tick);
    expect(new Set(events.map((e) => e.observerId))).toEqual(new Set(["guard", "camera"]));
    const lost = events.find((e) => e.type === "lost" && e.observerId === "guard")!;
    expect(lost.position).toEqual({ x: 5, y: 0 });
    expect(lost.targetId).toBe("player");
  });

  it("are deterministic for a given sequence of sightings", () => {
    const script = () => {
      const rnd = seededRandom(77);
      return Array.from({ length: 600 }, () => {
        const out: Sighting[] = [];
        for (const g of ["g1", "g2", "g3"]) {
          for (const p of ["p1", "p2"]) {
            if (rnd() < 0.35) out.push({ ...sight(1 + rnd() * 14, rnd() * 60, { visibility: rnd() }), observerId: g, targetId: p, proximity: rnd() < 0.1 });
          }
        }
        return out;
      });
    };
    const a = new AwarenessModel();
    const b = new AwarenessModel();
    const sa = script();
    const sb = script();
    const ea = run(a, 600, (t) => sa[t - 1]!);
    const eb = run(b, 600, (t) => sb[t - 1]!);
    expect(ea.length).toBeGreaterThan(10);
    expect(eb).toEqual(ea);
    for (const g of ["g1", "g2", "g3"]) {
      expect(b.state(g)).toBe(a.state(g));
      for (const p of ["p1", "p2"]) expect(b.level(g, p)).toBe(a.level(g, p));
    }
  });
});

describe("bad input loses nothing", () => {
  it("a malformed sighting throws a RangeError naming the field, and no meter moves", () => {
    const model = new AwarenessModel();
    model.step(1, DT, [sight(5)]);
    const before = model.level("guard", "player");
    expect(() => model.step(2, DT, [sight(5), { ...sight(5), distance: NaN }])).toThrow("Sighting.distance");
    expect(() => model.step(2, DT, [{ ...sight(5), position: { x: 0, y: Infinity } }])).toThrow("Sighting.position.y");
    expect(() => model.step(2, DT, [{ ...sight(5), visibility: 2 }])).toThrow("Sighting.visibility");
    expect(() => model.step(2, DT, [{ ...sight(5), observerId: "" }])).toThrow("Sighting.observerId");
    expect(() => model.step(2, 0, [sight(5)])).toThrow("dt");
    expect(() => model.step(2.5, DT, [sight(5)])).toThrow("tick");
    expect(model.level("guard", "player")).toBe(before);
  });

  it.each([
    ["fillRate", { fillRate: 0 }],
    ["decayRate", { decayRate: -1 }],
    ["suspiciousAt", { suspiciousAt: 1 }],
    ["peripherySlowdown", { peripherySlowdown: 2 }],
    ["stateFactor.alerted", { stateFactor: { alerted: NaN } }],
    ["graceSeconds", { graceSeconds: -1 }],
  ])("a bad option %s throws a RangeError naming it", (field, options) => {
    expect(() => new AwarenessModel(options as never)).toThrow(`AwarenessOptions.${field}`);
  });

  it("remove() drops an observer, and a removed target is lost after the window like one that slipped away", () => {
    const model = new AwarenessModel();
    run(model, 40, () => [sight(3), { ...sight(3), observerId: "other" }]);
    model.remove("other");
    expect(model.state("other")).toBe("idle");
    model.remove("player");
    expect(model.level("guard", "player")).toBe(0);
    const after = run(model, 60, () => [], 41);
    expect(after.map((e) => e.type)).toEqual(["lost"]);
  });
});
