import { Box, Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../shared/seededRandom.js";
import { AwarenessModel, VisionSystem, type DetectionEvent, type Sighting } from "../../server/vision/index.js";
import { DT, sight } from "../fixtures/awarenessRuns.js";
import { DEG } from "../fixtures/degrees.js";
import { emptyWorld } from "../fixtures/planckWorld.js";

describe("the sixth sense through the vision engine", () => {
  it("a presence right behind the guard is noticed, more slowly than in plain view, and sightings() says it came through proximity", () => {
    const vision = new VisionSystem(emptyWorld());
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 15, fov: 90 * DEG, proximityRadius: 2 });
    vision.addObservable("behind", { position: { x: -1.5, y: 0 }, radius: 0.3 });
    vision.addObservable("ahead", { position: { x: 1.5, y: 0.25 }, radius: 0.3 });
    vision.tick();
    const sightings = vision.sightings();
    const behind = sightings.find((s) => s.targetId === "behind")!;
    const ahead = sightings.find((s) => s.targetId === "ahead")!;
    expect(behind.proximity).toBe(true);
    expect(behind.offAxis).toBeCloseTo(Math.PI, 9);
    expect(behind.distance).toBeCloseTo(1.5, 9);
    expect(ahead.proximity).toBe(false);
    expect(ahead.distance).toBeCloseTo(Math.hypot(1.5, 0.25), 9);
    expect(ahead.offAxis).toBeCloseTo(Math.atan2(0.25, 1.5), 9);
    expect(ahead.halfFov).toBeCloseTo(45 * DEG, 12);
    expect(ahead.range).toBe(15);

    // One meter per target (a guard alerted by one target would acquire the other faster).
    const models = { behind: new AwarenessModel(), ahead: new AwarenessModel() };
    let behindAt = Infinity;
    let aheadAt = Infinity;
    for (let tick = 1; tick <= 200; tick++) {
      vision.tick();
      const all = vision.sightings();
      for (const id of ["behind", "ahead"] as const) {
        for (const e of models[id].step(tick, DT, all.filter((x) => x.targetId === id))) {
          if (e.type !== "spotted") continue;
          if (id === "behind") behindAt = Math.min(behindAt, tick);
          else aheadAt = Math.min(aheadAt, tick);
        }
      }
    }
    // Same distance: behind the back, through the sixth sense, takes about three times as long.
    expect(behindAt).toBeGreaterThan(2.5 * aheadAt);
    expect(behindAt).toBeLessThan(Infinity);
  });
});

describe("the memo slot: meters found without id lookups, and nothing else changes", () => {
  /** A walled room where guards and players wander (seeded); `step(tick)` moves everyone and ticks vision. */
  function wanderingRoom() {
    const world = emptyWorld();
    const rnd = seededRandom(5);
    for (let i = 0; i < 14; i++) {
      world.createBody({ position: Vec2(rnd() * 40, rnd() * 40), angle: rnd() * Math.PI }).createFixture({ shape: new Box(0.3 + rnd() * 1.5, 0.3 + rnd() * 1.5) });
    }
    const vision = new VisionSystem(world);
    const agents = Array.from({ length: 24 }, (_, i) => ({ id: i < 14 ? `g${i}` : `p${i}`, x: rnd() * 40, y: rnd() * 40, facing: rnd() * 7 }));
    for (const a of agents) {
      if (a.id.startsWith("g")) vision.addObserver(a.id, { position: a, facing: a.facing, range: 14, fov: 100 * DEG, proximityRadius: 1.5 });
      else vision.addObservable(a.id, { position: a, radius: 0.4 });
    }
    const step = () => {
      for (const a of agents) {
        a.x = Math.min(40, Math.max(0, a.x + (rnd() - 0.5) * 0.6));
        a.y = Math.min(40, Math.max(0, a.y + (rnd() - 0.5) * 0.6));
        a.facing += (rnd() - 0.5) * 0.3;
        if (a.id.startsWith("g")) vision.moveObserver(a.id, a.x, a.y, a.facing);
        else vision.moveObservable(a.id, a.x, a.y);
      }
      vision.tick();
    };
    return { vision, step };
  }

  /** The same sightings as plain objects, without the slot: the model finds every meter by id. */
  const plain = (list: readonly Sighting[]): Sighting[] =>
    list.map((s) => ({ observerId: s.observerId, targetId: s.targetId, distance: s.distance, offAxis: s.offAxis, halfFov: s.halfFov, range: s.range, proximity: s.proximity, visibility: s.visibility, position: { ...s.position } }));

  it("the engine keeps one sighting object per visible pair, offering the slot (null when first seen) and never touching it", () => {
    const { vision, step } = wanderingRoom();
    let kept = 0;
    let before = new Map<string, Sighting>();
    for (let tick = 1; tick <= 200; tick++) {
      step();
      const now = new Map<string, Sighting>();
      for (const s of vision.sightings()) {
        const key = `${s.observerId}>${s.targetId}`;
        const was = before.get(key);
        if (was !== undefined) {
          expect(s).toBe(was);
          expect(s.memo).toBe(key);
          kept++;
        } else expect(s.memo).toBeNull();
        s.memo = key;
        now.set(key, s);
      }
      before = now;
    }
    expect(kept).toBeGreaterThan(100);
  });

  it("events, levels and states are the same whether the model finds its meters through the slot or by id", () => {
    const { vision, step } = wanderingRoom();
    const viaMemo = new AwarenessModel();
    const byId = new AwarenessModel();
    const a: DetectionEvent[] = [];
    const b: DetectionEvent[] = [];
    for (let tick = 1; tick <= 600; tick++) {
      step();
      const seen = vision.sightings();
      if (tick === 200) for (const m of [viaMemo, byId]) m.remove("p15");
      if (tick === 300) for (const m of [viaMemo, byId]) m.remove("g3");
      if (tick % 90 === 0) for (const m of [viaMemo, byId]) m.standDown(`g${(tick / 90) % 14}`);
      b.push(...byId.step(tick, DT, plain(seen)));
      a.push(...viaMemo.step(tick, DT, seen));
      if (tick % 50 === 0) {
        for (let g = 0; g < 14; g++) {
          expect(viaMemo.state(`g${g}`)).toBe(byId.state(`g${g}`));
          expect(viaMemo.lastKnown(`g${g}`)).toEqual(byId.lastKnown(`g${g}`));
          for (let p = 14; p < 24; p++) expect(viaMemo.level(`g${g}`, `p${p}`)).toBe(byId.level(`g${g}`, `p${p}`));
        }
      }
    }
    expect(new Set(a.map((e) => e.type))).toEqual(new Set(["noticed", "suspicious", "spotted", "lost", "cleared"]));
    expect(a).toEqual(b);
  });

  it("two models sharing the engine's sightings each keep their own meters, as if each had its own copy", () => {
    const { vision, step } = wanderingRoom();
    const sharing = [new AwarenessModel(), new AwarenessModel({ fillRate: 0.8 })];
    const alone = [new AwarenessModel(), new AwarenessModel({ fillRate: 0.8 })];
    const events = [[], [], [], []] as DetectionEvent[][];
    for (let tick = 1; tick <= 300; tick++) {
      step();
      const seen = vision.sightings();
      sharing.forEach((m, i) => events[i]!.push(...m.step(tick, DT, seen)));
      alone.forEach((m, i) => events[2 + i]!.push(...m.step(tick, DT, plain(seen))));
    }
    expect(events[0]!.length).toBeGreaterThan(10);
    expect(events[0]).toEqual(events[2]);
    expect(events[1]).toEqual(events[3]);
  });

  it("a foreign value in the slot is ignored, and a meter dropped by remove() does not come back through it", () => {
    const model = new AwarenessModel();
    const s = { ...sight(5), memo: { not: "a meter" } as unknown };
    model.step(1, DT, [s]);
    const once = model.level("guard", "player");
    expect(once).toBeGreaterThan(0);
    expect(s.memo).not.toEqual({ not: "a meter" });
    model.step(2, DT, [s]);
    expect(model.level("guard", "player")).toBeCloseTo(2 * once, 12);
    model.remove("player");
    model.step(3, DT, [s]);
    expect(model.level("guard", "player")).toBeCloseTo(once, 12);
  });
});
