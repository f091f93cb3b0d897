import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Hearing, type Noise } from "sightline";
import { NoiseDelivery, NOISE_DIRECTION_STEPS, NOISE_LEVEL_STEPS, type AuditCounts, type NoiseListener } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import { SoundAudit } from "sightline/culling";

function counts(): AuditCounts {
  return { leaks: 0, popIns: 0, misses: 0, clientTicks: 0, excused: 0, truthChecks: 0, oracleChecks: 0, sends: 0, soundLeaks: 0, soundsAudited: 0 };
}

/** A wall along x = 10 (y 0..20) with a doorway at y = 8..10, a shut door across it optional. */
function level(shut: boolean): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 8);
  occluders.addRectangle(10, 10, 0.5, 10);
  occluders.addDoor([{ x: 10, y: 8 }, { x: 10.5, y: 8 }, { x: 10.5, y: 10 }, { x: 10, y: 10 }], { open: !shut });
  return occluders;
}

describe("noise delivery", () => {
  it("a team hears through its loudest ear; a client learns the emitter only if its view holds it", () => {
    const delivery = new NoiseDelivery(new Hearing(level(false)));
    const listeners: NoiseListener[] = [
      { id: "far", team: "red", x: 2, y: 18 },
      { id: "near", team: "red", x: 8, y: 9 },
      { id: "alone", team: undefined, x: 30, y: 30 },
    ];
    const noise: Noise = { x: 13, y: 9, loudness: 8, kind: "footstep", emitter: "thief" };
    delivery.hear(noise, listeners);
    const hidden = delivery.messageFor("far", "red", false)!;
    expect(hidden).toEqual({ kind: "footstep", level: Math.ceil((1 - 5 / 8) * NOISE_LEVEL_STEPS) / NOISE_LEVEL_STEPS, dir: 0, listener: "near" });
    expect(delivery.messageFor("far", "red", true)).toMatchObject({ emitter: "thief", x: 13, y: 9 });
    expect(delivery.messageFor("alone", undefined, true)).toBeUndefined();
    // Directions come in 1/32 turns.
    expect((hidden.dir / ((2 * Math.PI) / NOISE_DIRECTION_STEPS)) % 1).toBe(0);
  });

  it("a shut door keeps the sound on its side", () => {
    const delivery = new NoiseDelivery(new Hearing(level(true)));
    delivery.hear({ x: 13, y: 9, loudness: 8, kind: "footstep", emitter: "thief" }, [{ id: "near", team: "red", x: 8, y: 9 }]);
    expect(delivery.messageFor("near", "red", false)).toBeUndefined();
  });

  it("randomized: what it delivers never leaks, by the audit's exact way around", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.double({ min: 0, max: 30, noNaN: true }), y: fc.double({ min: 0, max: 30, noNaN: true }), w: fc.double({ min: 0.2, max: 8, noNaN: true }), h: fc.double({ min: 0.2, max: 8, noNaN: true }) }), { maxLength: 12 }),
        fc.array(fc.record({ x: fc.double({ min: 0, max: 30, noNaN: true }), y: fc.double({ min: 0, max: 30, noNaN: true }), team: fc.constantFrom("red", "blue", undefined) }), { minLength: 1, maxLength: 8 }),
        fc.record({ x: fc.double({ min: 0, max: 30, noNaN: true }), y: fc.double({ min: 0, max: 30, noNaN: true }), loudness: fc.double({ min: 0.5, max: 25, noNaN: true }) }),
        fc.boolean(),
        (walls, people, n, holds) => {
          const occluders = new Occluders();
          for (const w of walls) occluders.addRectangle(w.x, w.y, w.w, w.h);
          const delivery = new NoiseDelivery(new Hearing(occluders));
          const listeners: NoiseListener[] = people.map((p, i) => ({ id: `c${i}`, team: p.team, x: p.x, y: p.y }));
          const noise: Noise = { ...n, kind: "step", emitter: "e" };
          delivery.hear(noise, listeners);
          const c = counts();
          const failures: string[] = [];
          const audit = new SoundAudit(occluders, c, failures, 1);
          for (const l of listeners) {
            const m = delivery.messageFor(l.id, l.team, holds);
            // A server may ask whether the team heard before it asks its views about the emitter.
            expect(delivery.heardBy(l.id, l.team)).toBe(m !== undefined);
            if (m === undefined) continue;
            const ears = listeners.filter((o) => o.id === l.id || (l.team !== undefined && o.team === l.team));
            // The emitter makes its noise where it stands.
            audit.check(l.id, noise, m, ears, holds, { x: noise.x, y: noise.y });
          }
          expect(failures).toEqual([]);
          expect(c.soundLeaks).toBe(0);
        },
      ),
      { numRuns: 300, seed: 3303 },
    );
  });

  it("the audit counts a noise no teammate could hear, and one that names a hidden emitter, as sound leaks", () => {
    const c = counts();
    const failures: string[] = [];
    const audit = new SoundAudit(level(true), c, failures, 1);
    const noise: Noise = { x: 13, y: 9, loudness: 8, kind: "footstep", emitter: "thief" };
    // Behind the shut door: not in earshot by any way.
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me" }, [{ x: 8, y: 9 }], false, { x: 13, y: 9 });
    // In earshot (same side), but naming an emitter the view lacks.
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me", emitter: "thief", x: 13, y: 9 }, [{ x: 14, y: 9 }], false, { x: 13, y: 9 });
    // Fine: in earshot, nothing named.
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me" }, [{ x: 14, y: 9 }], false, { x: 13, y: 9 });
    expect(c).toMatchObject({ soundLeaks: 2, soundsAudited: 3 });
    expect(failures[0]).toMatch(/could not hear/);
    expect(failures[1]).toMatch(/view lacks/);
  });

  it("the audit counts the spot of a stone that landed away from its thrower as a sound leak, even to a client that sees the thrower", () => {
    const c = counts();
    const failures: string[] = [];
    const audit = new SoundAudit(level(true), c, failures, 1);
    const stone: Noise = { x: 14, y: 6, loudness: 10, kind: "thud", emitter: "thief" };
    const told = { kind: "thud", level: 0.5, dir: 0, listener: "me", emitter: "thief", x: 14, y: 6 };
    // The thrower stands 3 m from where the stone fell: its spot is news the view does not carry.
    audit.check("me", stone, told, [{ x: 14, y: 9 }], true, { x: 14, y: 9 });
    // Named where it stands (within a meter), the same message is fine; a gone thrower is no excuse.
    audit.check("me", stone, told, [{ x: 14, y: 9 }], true, { x: 14.5, y: 6.5 });
    audit.check("me", stone, told, [{ x: 14, y: 9 }], true, undefined);
    expect(c).toMatchObject({ soundLeaks: 2, soundsAudited: 3 });
    expect(failures[0]).toMatch(/spot of a thud made away from thief/);
  });
});

describe("noise delivery keeps teams apart, and refuses what it cannot place", () => {
  const step: Noise = { x: 0, y: 0, loudness: 8, kind: "footstep", emitter: "thief" };

  it("a loner whose id is some team's name does not hear through that team's ears, nor the team through its", () => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    // "b" of team "A" stands a meter from the noise; the loner "A" 70 m away.
    expect(delivery.hear(step, [{ id: "b", team: "A", x: 1, y: 0 }, { id: "A", team: undefined, x: 50, y: 50 }])).toBe(true);
    expect(delivery.messageFor("A", undefined, false)).toBeUndefined();
    expect(delivery.messageFor("b", "A", false)).toMatchObject({ listener: "b" });
    // The other way round: the loner hears, team "A" (far off) does not.
    expect(delivery.hear(step, [{ id: "A", team: undefined, x: 1, y: 0 }, { id: "b", team: "A", x: 50, y: 50 }])).toBe(true);
    expect(delivery.messageFor("b", "A", false)).toBeUndefined();
    expect(delivery.messageFor("A", undefined, false)).toMatchObject({ listener: "A" });
  });

  it("names the emitter only for a holdsEmitter of true, and refuses anything but a boolean", () => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    delivery.hear(step, [{ id: "b", team: "red", x: 1, y: 0 }]);
    for (const truthy of ["no", {}, 1]) {
      expect(() => delivery.messageFor("b", "red", truthy as never)).toThrow(RangeError);
      expect(() => delivery.messageFor("b", "red", truthy as never)).toThrow(/NoiseDelivery\.messageFor holdsEmitter must be a boolean/);
    }
    expect(delivery.messageFor("b", "red", false)).not.toHaveProperty("emitter");
    expect(delivery.messageFor("b", "red", true)).toMatchObject({ emitter: "thief", x: 0, y: 0 });
  });

  it("tells whether a team heard without building its message, and refuses what names no one", () => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    expect(delivery.heardBy("b", "red")).toBe(false);
    delivery.hear(step, [{ id: "b", team: "red", x: 1, y: 0 }, { id: "far", team: "blue", x: 40, y: 0 }]);
    expect(delivery.heardBy("teammate", "red")).toBe(true);
    expect(delivery.heardBy("far", "blue")).toBe(false);
    expect(delivery.heardBy("b", undefined)).toBe(false);
    expect(() => delivery.heardBy("", "red")).toThrow(/NoiseDelivery\.heardBy character/);
    expect(() => delivery.heardBy("b", "" as never)).toThrow(/NoiseDelivery\.heardBy team/);
    // The next noise reaches no one: what the last one reached is not heard again.
    delivery.hear({ ...step, x: 100 }, [{ id: "b", team: "red", x: 1, y: 0 }]);
    expect(delivery.heardBy("b", "red")).toBe(false);
  });

  it("needs a Hearing", () => {
    expect(() => new NoiseDelivery(undefined as never)).toThrow(RangeError);
    expect(() => new NoiseDelivery({} as never)).toThrow(/NoiseDelivery hearing must be a Hearing/);
  });

  it.each([
    ["NoiseListener.x", { id: "g", team: "red", x: Number.NaN, y: 0 }],
    ["NoiseListener.y", { id: "g", team: "red", x: 1, y: Infinity }],
    ["NoiseListener.id", { id: "", team: "red", x: 1, y: 0 }],
    ["NoiseListener.id", { id: 7, team: "red", x: 1, y: 0 }],
    ["NoiseListener.team", { id: "g", team: "", x: 1, y: 0 }],
    ["NoiseListener.team", { id: "g", team: null, x: 1, y: 0 }],
    ["NoiseListener", null],
  ])("a listener with a bad %s is refused, naming it, and what the last noise said still stands", (field, bad) => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    delivery.hear(step, [{ id: "b", team: "red", x: 1, y: 0 }]);
    const told = delivery.messageFor("b", "red", false);
    expect(told).toMatchObject({ kind: "footstep", listener: "b" });
    const thud: Noise = { x: 2, y: 0, loudness: 10, kind: "thud", emitter: "thief" };
    // The first listener hears the thud before the bad one comes: it must not count either.
    expect(() => delivery.hear(thud, [{ id: "c", team: "red", x: 2, y: 1 }, bad as never])).toThrow(RangeError);
    expect(() => delivery.hear(thud, [{ id: "c", team: "red", x: 2, y: 1 }, bad as never])).toThrow(new RegExp(`^${field.replace(".", "\\.")} `));
    expect(delivery.messageFor("b", "red", false)).toEqual(told);
  });

  it("a listener list that is not one, or a bad noise, is refused before the last noise is forgotten", () => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    delivery.hear(step, [{ id: "b", team: "red", x: 1, y: 0 }]);
    const told = delivery.messageFor("b", "red", true);
    expect(() => delivery.hear({ ...step, kind: "thud" }, null as never)).toThrow(/NoiseDelivery\.hear listeners must be an iterable/);
    expect(() => delivery.hear({ ...step, kind: "thud" }, 5 as never)).toThrow(RangeError);
    expect(() => delivery.hear({ ...step, x: Number.NaN }, [])).toThrow(/Noise\.x/);
    expect(() => delivery.hear(step, [], "" as never)).toThrow(/NoiseDelivery\.hear deafTeam/);
    expect(delivery.messageFor("b", "red", true)).toEqual(told);
  });

  it("listeners may come from a generator, walked once", () => {
    const delivery = new NoiseDelivery(new Hearing(new Occluders()));
    function* characters(): Generator<NoiseListener> {
      yield { id: "b", team: "red", x: 1, y: 0 };
      yield { id: "c", team: undefined, x: 0, y: 2 };
    }
    expect(delivery.hear(step, characters())).toBe(true);
    expect(delivery.messageFor("b", "red", false)).toMatchObject({ listener: "b", level: 7 / 8 });
    expect(delivery.messageFor("c", undefined, false)).toMatchObject({ listener: "c", level: 6 / 8 });
  });
});
