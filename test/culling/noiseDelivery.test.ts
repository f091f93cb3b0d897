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
            if (m === undefined) continue;
            const ears = listeners.filter((o) => o.id === l.id || (l.team !== undefined && o.team === l.team));
            audit.check(l.id, noise, m, ears, holds);
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
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me" }, [{ x: 8, y: 9 }], false);
    // In earshot (same side), but naming an emitter the view lacks.
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me", emitter: "thief", x: 13, y: 9 }, [{ x: 14, y: 9 }], false);
    // Fine: in earshot, nothing named.
    audit.check("me", noise, { kind: "footstep", level: 0.5, dir: 0, listener: "me" }, [{ x: 14, y: 9 }], false);
    expect(c).toMatchObject({ soundLeaks: 2, soundsAudited: 3 });
    expect(failures[0]).toMatch(/could not hear/);
    expect(failures[1]).toMatch(/view lacks/);
  });
});
