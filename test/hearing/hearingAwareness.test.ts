import { describe, expect, it } from "vitest";
import { AwarenessModel, type DetectionEvent, type Heard, type Sighting } from "sightline";
import { seededRandom } from "../../shared/seededRandom.js";

const DT = 0.05;

function heard(level: number, x = 4, y = 2): Heard {
  return { observerId: "guard", targetId: "thief", level, position: { x, y } };
}

function seen(x: number, y: number): Sighting {
  return { observerId: "guard", targetId: "thief", distance: 3, offAxis: 0, halfFov: Math.PI / 4, range: 15, position: { x, y } };
}

/** Steps the model `steps` times, with a footstep heard every `every` steps. */
function footsteps(model: AwarenessModel, from: number, steps: number, every: number, level: number): DetectionEvent[] {
  const events: DetectionEvent[] = [];
  for (let t = from; t < from + steps; t++) events.push(...model.step(t, DT, [], (t - from) % every === 0 ? [heard(level)] : []));
  return events;
}

describe("hearing in the awareness model", () => {
  it("footsteps make a guard suspicious, and it goes to where the noise was, not to where the thief is", () => {
    const model = new AwarenessModel();
    const events = footsteps(model, 0, 30, 5, 0.8);
    expect(events.map((e) => [e.type, e.sense])).toEqual([["noticed", "hearing"], ["suspicious", "hearing"]]);
    expect(model.state("guard")).toBe("suspicious");
    expect(model.lastKnown("guard")).toEqual({ x: 4, y: 2 });
    const level = model.level("guard", "thief");
    expect(level).toBeGreaterThanOrEqual(0.35);
    expect(level).toBeLessThan(0.9);
  });

  it("louder noises fill faster, and a run is heard sooner than a walk", () => {
    const loud = new AwarenessModel();
    const soft = new AwarenessModel();
    footsteps(loud, 0, 20, 5, 0.9);
    footsteps(soft, 0, 20, 5, 0.3);
    expect(loud.level("guard", "thief")).toBeGreaterThan(2.5 * soft.level("guard", "thief"));
  });

  it("hearing alone never spots: the meter stops below full until the guard sees", () => {
    const model = new AwarenessModel();
    const events = footsteps(model, 0, 400, 2, 1);
    expect(events.some((e) => e.type === "spotted")).toBe(false);
    expect(model.level("guard", "thief")).toBeCloseTo(0.9, 9);
    const seenEvents: DetectionEvent[] = [];
    for (let t = 400; t < 420 && !seenEvents.some((e) => e.type === "spotted"); t++) seenEvents.push(...model.step(t, DT, [seen(5, 5)]));
    expect(seenEvents.at(-1)).toMatchObject({ type: "spotted", sense: "sight", position: { x: 5, y: 5 } });
  });

  it("with hearingCeiling 1, a noise can spot, and says so", () => {
    const model = new AwarenessModel({ hearingCeiling: 1 });
    const events = footsteps(model, 0, 400, 2, 1);
    expect(events.find((e) => e.type === "spotted")).toMatchObject({ sense: "hearing", position: { x: 4, y: 2 } });
  });

  it("a thief both seen and heard in one step keeps what was seen", () => {
    const model = new AwarenessModel();
    model.step(0, DT, [seen(5, 5)], [heard(1, 9, 9)]);
    const after = model.level("guard", "thief");
    const sightOnly = new AwarenessModel();
    sightOnly.step(0, DT, [seen(5, 5)]);
    expect(after).toBe(sightOnly.level("guard", "thief"));
  });

  it("leaving out what a guard heard of a thief it sees that step changes nothing, over a long random watch", () => {
    // So a room may skip asking the ears of guards that see the emitter now.
    const random = seededRandom(11);
    const guards = ["g1", "g2", "g3"];
    const thieves = ["t1", "t2"];
    const all = new AwarenessModel();
    const unseenOnly = new AwarenessModel();
    const senses: string[] = [];
    let dropped = 0;
    for (let t = 0; t < 600; t++) {
      const sightings: Sighting[] = [];
      const noises: Heard[] = [];
      for (const g of guards) for (const thief of thieves) {
        const x = random() * 20;
        const y = random() * 20;
        if (random() < 0.25) sightings.push({ observerId: g, targetId: thief, distance: 2 + random() * 10, offAxis: random() * 0.7, halfFov: Math.PI / 4, range: 15, position: { x, y } });
        if (random() < 0.3) noises.push({ observerId: g, targetId: thief, level: 0.05 + random() * 0.95, position: { x: x + 1, y } });
      }
      const seenNow = new Set(sightings.map((s) => `${s.observerId}|${s.targetId}`));
      const a = all.step(t, DT, sightings, noises);
      const unseen = noises.filter((h) => !seenNow.has(`${h.observerId}|${h.targetId}`));
      dropped += noises.length - unseen.length;
      const b = unseenOnly.step(t, DT, sightings, unseen);
      expect(b).toEqual(a);
      for (const e of a) senses.push(`${e.type} ${e.sense}`);
      for (const g of guards) {
        expect(unseenOnly.state(g)).toBe(all.state(g));
        expect(unseenOnly.lastKnown(g)).toEqual(all.lastKnown(g));
        for (const thief of thieves) expect(unseenOnly.level(g, thief)).toBe(all.level(g, thief));
      }
    }
    // Not vacuous: entries were left out, and both senses moved the guards.
    expect(dropped).toBeGreaterThan(100);
    expect(senses).toEqual(expect.arrayContaining(["noticed hearing", "spotted sight", "noticed sight"]));
  });

  it("an alerted guard that hears its target keeps the chase and follows the noise", () => {
    const model = new AwarenessModel();
    for (let t = 0; t < 200 && model.state("guard") !== "alerted"; t++) model.step(t, DT, [seen(5, 5)]);
    expect(model.state("guard")).toBe("alerted");
    // 2.5 s unseen (inside the 3 s window), then heard, then 2.5 s more: still alerted, at the noise.
    for (let t = 0; t < 50; t++) model.step(1000 + t, DT, []);
    model.step(1050, DT, [], [heard(0.5, 12, 3)]);
    for (let t = 0; t < 50; t++) model.step(1051 + t, DT, []);
    expect(model.state("guard")).toBe("alerted");
    expect(model.lastKnown("guard")).toEqual({ x: 12, y: 3 });
  });

  it("refuses a malformed heard noise with a RangeError naming the field, and nothing changes", () => {
    const model = new AwarenessModel();
    expect(() => model.step(0, DT, [seen(1, 1)], [heard(1.5)])).toThrow(/Heard\.level/);
    expect(() => model.step(0, DT, [], [{ ...heard(0.5), position: { x: Number.NaN, y: 0 } }])).toThrow(/Heard\.position\.x/);
    expect(model.level("guard", "thief")).toBe(0);
    expect(() => new AwarenessModel({ hearingCeiling: 0 })).toThrow(/AwarenessOptions\.hearingCeiling/);
    expect(() => new AwarenessModel({ hearingFill: -1 })).toThrow(/AwarenessOptions\.hearingFill/);
  });

  it("refuses a heard list or sightings that are not lists, naming the parameter, and the model does not move", () => {
    const model = new AwarenessModel();
    const twin = new AwarenessModel();
    for (const m of [model, twin]) m.step(0, DT, [seen(5, 5)], [heard(0.8)]);
    for (const notAList of [null, 5, {}]) {
      expect(() => model.step(1, DT, [seen(5, 5)], notAList as never)).toThrow(RangeError);
      expect(() => model.step(1, DT, [seen(5, 5)], notAList as never)).toThrow(/^AwarenessModel\.step heard must be/);
      expect(() => model.step(1, DT, notAList as never, [heard(0.8)])).toThrow(/^AwarenessModel\.step sightings must be/);
    }
    // As if the refused steps never came: the same levels, and the same clock (decay would show a skew).
    for (let t = 1; t < 80; t++) {
      const noises = t % 10 === 0 ? [heard(0.5)] : [];
      expect(model.step(t, DT, [], noises)).toEqual(twin.step(t, DT, [], noises));
      expect(model.level("guard", "thief")).toBe(twin.level("guard", "thief"));
    }
    expect(model.state("guard")).toBe(twin.state("guard"));
  });
});
