import fc from "fast-check";
import { Box, Vec2, World } from "planck";
import { describe, expect, it } from "vitest";
import { Hearing, shortestSoundPath, type Earshot, type Noise } from "sightline";
import { Occluders } from "sightline/occluders";

function ear(): Earshot {
  return { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
}

function step(x: number, y: number, loudness: number): Noise {
  return { x, y, loudness, kind: "footstep", emitter: "p1" };
}

/** A wall 4 m thick and 10 m long: x from 0 to 4, y from -5 to 5. */
function thickWall(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(0, -5, 4, 10);
  return occluders;
}

describe("hearing at the edges: ends inside walls and pillars", () => {
  it("a listener 1 cm inside a wall's face hears as one 1 cm outside it does, not through the wall", () => {
    const occluders = thickWall();
    const hearing = new Hearing(occluders);
    const e = ear();
    // 6 m through 4 m of wall; round its end about 14.4 m.
    expect(hearing.hears(step(6, 0, 7), -0.01, 0, e)).toBe(false);
    expect(hearing.hears(step(6, 0, 7), 0.01, 0, e)).toBe(false);
    expect(hearing.distance(6, 0, 0.01, 0, 7)).toBe(Infinity);
    expect(shortestSoundPath(occluders, 6, 0, 0.01, 0, 7)).toBe(Infinity);
    // Loud enough to come round: both ways start at the left face, 2 cm apart.
    expect(hearing.hears(step(6, 0, 20), -0.01, 0, e)).toBe(true);
    const outside = e.distance;
    expect(hearing.hears(step(6, 0, 20), 0.01, 0, e)).toBe(true);
    expect(e.direct).toBe(false);
    expect(Math.abs(e.distance - outside)).toBeLessThan(0.021);
    // From the face, round the wall's end: heard from up or down the face, not from across the wall.
    expect(Math.abs(e.dirY)).toBeGreaterThan(0.9);
    const truth = shortestSoundPath(occluders, 6, 0, 0.01, 0, 20);
    expect(truth).toBeCloseTo(0.01 + 5 + 4 + Math.hypot(2, 5), 4);
    expect(truth).toBeLessThanOrEqual(e.distance + 1e-9);
  });

  it("a noise made 1 cm inside a wall's face is heard as one made just outside it, by the listener across the wall too", () => {
    const occluders = thickWall();
    const hearing = new Hearing(occluders);
    const e = ear();
    expect(hearing.hears(step(3.99, 0, 7), -2, 0, e)).toBe(false);
    expect(hearing.hears(step(3.99, 0, 7), 6, 0, e)).toBe(true);
    expect(e.distance).toBeCloseTo(2.01, 5);
    expect(e.dirX).toBeCloseTo(-1, 9);
  });

  it("a noise inside a round pillar is heard as a listener inside one hears, whichever is inside", () => {
    const occluders = new Occluders();
    occluders.addCircle(0, 0, 1);
    const hearing = new Hearing(occluders);
    const e = ear();
    // From the pillar's centre, straight out toward the other end.
    expect(hearing.hears(step(0, 0, 4), 3, 0, e)).toBe(true);
    expect(e.distance).toBeCloseTo(3, 5);
    expect([e.dirX, e.dirY, e.direct]).toEqual([-1, 0, false]);
    expect(hearing.hears(step(3, 0, 4), 0, 0, e)).toBe(true);
    expect(e.distance).toBeCloseTo(3, 5);
    expect([e.dirX, e.dirY, e.direct]).toEqual([1, 0, false]);
    // Off centre: out through the nearest point of the outline, (1, 0).
    expect(hearing.hears(step(0.7, 0, 4), 3, 0, e)).toBe(true);
    expect(e.distance).toBeCloseTo(2.3, 5);
    expect(e.dirX).toBeCloseTo(-1, 9);
    const listenerInside = ear();
    expect(hearing.hears(step(3, 0, 4), 0.7, 0, listenerInside)).toBe(true);
    expect(listenerInside.distance).toBeCloseTo(e.distance, 9);
    expect(listenerInside.direct).toBe(e.direct);
    expect(shortestSoundPath(occluders, 0.7, 0, 3, 0, 4)).toBeLessThanOrEqual(e.distance + 1e-9);
  });

  it("a noise inside a round pillar is heard as one inside a box is", () => {
    const round = new Occluders();
    round.addCircle(0, 0, 1);
    const square = new Occluders();
    square.addRectangle(-1, -1, 2, 2);
    const e = ear();
    for (const occluders of [round, square]) {
      const hearing = new Hearing(occluders);
      expect(hearing.hears(step(0.7, 0, 4), 3, 0, e)).toBe(true);
      expect(e.distance).toBeCloseTo(2.3, 5);
      expect(e.direct).toBe(false);
      // Out of the far side it has to come round.
      expect(hearing.hears(step(-0.7, 0, 4), 3, 0, e)).toBe(false);
    }
  });

  it("a listener inside a thick wall of two boxes, near their seam, leaves by the wall's face, not into the next box", () => {
    const occluders = new Occluders();
    occluders.addRectangle(0, 0, 3, 0.4);
    occluders.addRectangle(3, 0, 3, 0.4);
    const hearing = new Hearing(occluders);
    const e = ear();
    // 5 cm from the seam, midway between the faces: out of the one on the noise's side.
    expect(hearing.hears(step(2.95, 2, 3), 2.95, 0.2, e)).toBe(true);
    expect(e.distance).toBeCloseTo(1.8, 5);
    expect([e.dirX, e.dirY, e.direct]).toEqual([0, 1, false]);
    expect(hearing.hears(step(2.95, -2, 3), 2.95, 0.2, e)).toBe(true);
    expect(e.distance).toBeCloseTo(2.2, 5);
    expect(shortestSoundPath(occluders, 2.95, -2, 2.95, 0.2, 3)).toBeCloseTo(2.2, 5);
  });

  it("an ear in the thin rim of a round pillar is held to the audit's answer, which is never the longer", () => {
    const occluders = new Occluders();
    occluders.addCircle(0, 0, 1);
    const hearing = new Hearing(occluders);
    const e = ear();
    const [lx, ly] = [0.99 * Math.cos(Math.PI / 16), 0.99 * Math.sin(Math.PI / 16)];
    for (const loudness of [4.5, 6, 10]) {
      if (!hearing.hears(step(-3, 0, loudness), lx, ly, e)) continue;
      expect(shortestSoundPath(occluders, -3, 0, lx, ly, loudness)).toBeLessThanOrEqual(e.distance + 1e-9);
      expect(e.direct).toBe(false);
    }
    // Round the pillar from its face: longer than the 3.98 m straight through it.
    expect(hearing.hears(step(-3, 0, 10), lx, ly, e)).toBe(true);
    expect(e.distance).toBeGreaterThan(4.2);
  });

  it("the audit never reports a longer way than is heard, with ends anywhere: in walls, in pillars' rims, where pieces overlap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.double({ min: 0, max: 10, noNaN: true }), y: fc.double({ min: 0, max: 10, noNaN: true }), w: fc.double({ min: 0.2, max: 4, noNaN: true }), h: fc.double({ min: 0.2, max: 4, noNaN: true }), circle: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        // Each end near a piece: which piece, where on its box (a little beyond it too), or anywhere.
        fc.array(fc.tuple(fc.nat(), fc.double({ min: -0.1, max: 1.1, noNaN: true }), fc.double({ min: -0.1, max: 1.1, noNaN: true }), fc.boolean()), { minLength: 8, maxLength: 8 }),
        fc.double({ min: 1, max: 16, noNaN: true }),
        (pieces, ends, loudness) => {
          const occluders = new Occluders();
          for (const p of pieces) {
            if (p.circle) occluders.addCircle(p.x, p.y, p.w / 2);
            else occluders.addRectangle(p.x, p.y, p.w, p.h);
          }
          const at = ([k, u, v, anywhere]: [number, number, number, boolean]): [number, number] => {
            if (anywhere) return [u * 12 - 1, v * 12 - 1];
            const p = pieces[k % pieces.length]!;
            if (!p.circle) return [p.x + u * p.w, p.y + v * p.h];
            // On a circle: in its rim, just outside it, or across it.
            const a = 2 * Math.PI * u;
            const r = (p.w / 2) * (0.95 + 0.1 * v);
            return [p.x + r * Math.cos(a), p.y + r * Math.sin(a)];
          };
          const hearing = new Hearing(occluders, { cellSize: 0.4 });
          const e = ear();
          for (let i = 0; i + 1 < ends.length; i += 2) {
            const [nx, ny] = at(ends[i]!);
            const [lx, ly] = at(ends[i + 1]!);
            if (!hearing.hears(step(nx, ny, loudness), lx, ly, e)) continue;
            expect(shortestSoundPath(occluders, nx, ny, lx, ly, loudness + 1e-6)).toBeLessThanOrEqual(e.distance + 1e-9);
            // Noise and listener swapped, the same answer.
            expect(hearing.distance(lx, ly, nx, ny, loudness)).toBeGreaterThanOrEqual(shortestSoundPath(occluders, lx, ly, nx, ny, loudness + 1e-6) - 1e-9);
          }
        },
      ),
      { numRuns: 300, seed: 41 },
    );
  });

  it("a noise in a corridor kilometres long is heard round a pillar as it is near the corridor's start", () => {
    for (const x of [1000, 19000]) {
      const occluders = new Occluders();
      occluders.addRectangle(0, -1, 20000, 1); // the corridor's south wall
      occluders.addRectangle(0, 10, 20000, 1); // and its north wall
      occluders.addCircle(x, 5, 1);
      const hearing = new Hearing(occluders);
      const e = ear();
      // Tangents of sqrt(3) m each and a sixth of the pillar's round: 4.51 m.
      const exact = 2 * Math.sqrt(3) + Math.PI / 3;
      expect(hearing.hears(step(x - 2, 5, 6), x + 2, 5, e)).toBe(true);
      expect(e.distance).toBeGreaterThanOrEqual(exact - 1e-9);
      expect(e.distance).toBeLessThan(exact * 1.1);
      expect(shortestSoundPath(occluders, x - 2, 5, x + 2, 5, 6)).toBeLessThanOrEqual(e.distance);
    }
  });

  it("hears refuses an answer object that is not one before it counts anything", () => {
    const hearing = new Hearing(thickWall());
    // The straight line is stopped: a query that got on would count a detour.
    expect(() => hearing.hears(step(6, 0, 20), -2, 0, null as unknown as Earshot)).toThrow(RangeError);
    expect(() => hearing.hears(step(6, 0, 20), -2, 0, null as unknown as Earshot)).toThrow(/Hearing\.hears out/);
    expect(() => hearing.hears(step(6, 0, 20), -2, 0, 5 as unknown as Earshot)).toThrow(/Hearing\.hears out/);
    expect(hearing.counts.detours).toBe(0);
  });

  it("distance refuses a coordinate that is not a finite number, and a cap that is not a finite one", () => {
    const hearing = new Hearing(thickWall());
    for (const [i, name] of ["ax", "ay", "bx", "by"].entries()) {
      const args: [number, number, number, number] = [6, 0, -2, 0];
      args[i] = Number.NaN;
      expect(() => hearing.distance(...args, 20)).toThrow(new RegExp(`Hearing\\.distance ${name}`));
    }
    expect(() => hearing.distance(6, 0, -2, 0, Number.POSITIVE_INFINITY)).toThrow(/Hearing\.distance maxDistance/);
    expect(() => hearing.distance(6, 0, -2, 0, 1e7)).toThrow(/Hearing\.distance maxDistance/);
    expect(hearing.counts.detours).toBe(0);
    expect(hearing.distance(6, 0, -2, 0, 1000)).toBeGreaterThan(2 * Math.hypot(2, 5) + 4);
  });

  it("the audit's exact answer refuses bad occluders, coordinates and bounds, and takes Infinity for no cap", () => {
    const occluders = thickWall();
    for (const [i, name] of ["ax", "ay", "bx", "by"].entries()) {
      const args: [number, number, number, number] = [6, 0, -2, 0];
      args[i] = Number.NaN;
      expect(() => shortestSoundPath(occluders, ...args, 20)).toThrow(new RegExp(`shortestSoundPath ${name}`));
    }
    expect(() => shortestSoundPath(occluders, 6, 0, -2, 0, Number.NaN)).toThrow(/shortestSoundPath bound/);
    expect(() => shortestSoundPath(occluders, 6, 0, -2, 0, 0)).toThrow(/shortestSoundPath bound/);
    expect(() => shortestSoundPath({} as Occluders, 6, 0, -2, 0, 10)).toThrow(/shortestSoundPath occluders/);
    // No cap: the way round the wall's end.
    expect(shortestSoundPath(occluders, 6, 0, -2, 0, Number.POSITIVE_INFINITY)).toBeCloseTo(Math.hypot(2, 5) + 4 + Math.hypot(2, 5), 9);
  });

  it("refuses a misspelt or out-of-range option naming it as the options' own field", () => {
    const world = new World();
    world.createBody().createFixture(new Box(0.2, 5, new Vec2(5, 0), 0));
    expect(() => new Hearing(world, { opaqueMask: -1 })).toThrow(/HearingOptions\.opaqueMask/);
    expect(() => new Hearing(new Occluders(), { cellsize: 1 } as never)).toThrow(RangeError);
    expect(() => new Hearing(new Occluders(), { cellsize: 1 } as never)).toThrow(/HearingOptions\.cellsize/);
    expect(() => new Hearing(new Occluders(), { cellSize: 1, opaqueMask: undefined })).not.toThrow();
  });
});
