import fc from "fast-check";
import { Box, Chain, Vec2, World } from "planck";
import { describe, expect, it } from "vitest";
import { Hearing, shortestSoundPath, type Earshot, type Noise } from "sightline";
import { Occluders } from "sightline/occluders";

function ear(): Earshot {
  return { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
}

function step(x: number, y: number, loudness: number): Noise {
  return { x, y, loudness, kind: "footstep", emitter: "p1" };
}

/**
 * Two rooms side by side: a wall 0.4 m thick along x = 10 from y = -10 to y = 10, with a doorway 1.2 m
 * wide between y = 6 and y = 7.2, and an outer shell so the doorway is the only way through.
 */
function twoRooms(): { occluders: Occluders; door: number } {
  const occluders = new Occluders();
  occluders.addRectangle(10, -10, 0.4, 16);
  occluders.addRectangle(10, 7.2, 0.4, 2.8);
  occluders.addRectangle(-1, -11, 22, 1); // south shell
  occluders.addRectangle(-1, 10, 22, 1); // north shell
  occluders.addRectangle(-2, -11, 1, 22); // west shell
  occluders.addRectangle(21, -11, 1, 22); // east shell
  const door = occluders.addDoor([{ x: 10, y: 6 }, { x: 10.4, y: 6 }, { x: 10.4, y: 7.2 }, { x: 10, y: 7.2 }], { open: true });
  return { occluders, door };
}

/** The way from (6, 0) to (14, 0) through the doorway's near corners (10, 6) and (10.4, 6). */
const AROUND = Math.hypot(4, 6) + 0.4 + Math.hypot(3.6, 6);

describe("hearing", () => {
  it("a footstep in the open is heard at its straight distance, loud as it still is, from where it was", () => {
    const hearing = new Hearing(new Occluders());
    const e = ear();
    expect(hearing.hears(step(3, 4, 10), 0, 0, e)).toBe(true);
    expect(e.distance).toBeCloseTo(5, 12);
    expect(e.level).toBeCloseTo(0.5, 12);
    expect(e.direct).toBe(true);
    expect([e.dirX, e.dirY]).toEqual([0.6, 0.8]);
    expect(hearing.hears(step(6, 8, 10), 0, 0, e)).toBe(false);
  });

  it("a wall between two rooms muffles: the sound goes round through the doorway, and arrives from it", () => {
    const { occluders } = twoRooms();
    const hearing = new Hearing(occluders);
    const e = ear();
    // 8 m apart in a straight line, about 14.6 m around: a 12 m noise is not heard, a 16 m one is.
    expect(hearing.hears(step(6, 0, 12), 14, 0, e)).toBe(false);
    expect(hearing.hears(step(6, 0, 16), 14, 0, e)).toBe(true);
    expect(e.direct).toBe(false);
    expect(e.distance).toBeGreaterThanOrEqual(AROUND - 1e-9);
    expect(e.distance).toBeLessThanOrEqual(AROUND * 1.08);
    expect(e.level).toBeCloseTo(1 - e.distance / 16, 12);
    // Heard from the doorway's side (north-west of the listener), not through the wall (due west).
    expect(e.dirY).toBeGreaterThan(0.5);
    expect(shortestSoundPath(occluders, 6, 0, 14, 0, 100)).toBeCloseTo(AROUND, 9);
  });

  it("a shut door stops the sound; opened, it goes through again at once", () => {
    const { occluders, door } = twoRooms();
    const hearing = new Hearing(occluders);
    const e = ear();
    const noise = step(8, 6.6, 6);
    expect(hearing.hears(noise, 12, 6.6, e)).toBe(true);
    expect(e.direct).toBe(true);
    occluders.setOpen(door, false);
    expect(hearing.hears(noise, 12, 6.6, e)).toBe(false);
    expect(hearing.distance(8, 6.6, 12, 6.6, 1000)).toBe(Infinity);
    occluders.setOpen(door, true);
    expect(hearing.hears(noise, 12, 6.6, e)).toBe(true);
  });

  it("smoke hides but does not silence", () => {
    const occluders = new Occluders();
    occluders.addSmoke(5, 0, { radius: 2, seconds: 10 });
    occluders.advance(5);
    const hearing = new Hearing(occluders);
    const e = ear();
    expect(hearing.hears(step(0, 0, 12), 10, 0, e)).toBe(true);
    expect(e.direct).toBe(true);
    expect(e.distance).toBe(10);
  });

  it("works on the static fixtures of a planck World", () => {
    const world = new World();
    world.createBody().createFixture(new Box(0.2, 5, new Vec2(5, 0), 0));
    const hearing = new Hearing(world);
    const d = hearing.distance(3, 0, 7, 0, 100);
    const truth = shortestSoundPath(Occluders.fromWorld(world), 3, 0, 7, 0, 100);
    expect(truth).toBeCloseTo(2 * Math.hypot(1.8, 5) + 0.4, 9);
    expect(d).toBeGreaterThanOrEqual(truth - 1e-9);
    // The field's way pulled taut: within a few percent around a thin wall's end.
    expect(d).toBeLessThan(truth * 1.06);
  });

  it("a wall built later beyond the first walls still stops sound", () => {
    const occluders = new Occluders();
    occluders.addRectangle(0, 0, 1, 1);
    const hearing = new Hearing(occluders);
    expect(hearing.distance(40, -5, 40, 5, 30)).toBe(10);
    occluders.addRectangle(39.8, -3, 0.4, 6);
    occluders.addRectangle(20, 0, 1, 1); // a second change, after the grid was outgrown
    const d = hearing.distance(40, -5, 40, 5, 30);
    expect(d).toBeGreaterThan(2 * Math.hypot(0.2, 2) + 6 - 1e-9);
    expect(d).toBeGreaterThanOrEqual(shortestSoundPath(occluders, 40, -5, 40, 5, 30) - 1e-9);
  });

  it("never says a noise carries further than the true shortest way (random walls, doors and pillars)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.double({ min: 0, max: 20, noNaN: true }), y: fc.double({ min: 0, max: 20, noNaN: true }), w: fc.double({ min: 0.1, max: 6, noNaN: true }), h: fc.double({ min: 0.1, max: 6, noNaN: true }), circle: fc.boolean() }), { maxLength: 14 }),
        fc.array(fc.tuple(fc.double({ min: -2, max: 22, noNaN: true }), fc.double({ min: -2, max: 22, noNaN: true })), { minLength: 4, maxLength: 4 }),
        fc.double({ min: 1, max: 25, noNaN: true }),
        (walls, points, loudness) => {
          const occluders = new Occluders();
          for (const w of walls) {
            if (w.circle) occluders.addCircle(w.x, w.y, w.w / 2);
            else occluders.addRectangle(w.x, w.y, w.w, w.h);
          }
          const hearing = new Hearing(occluders, { cellSize: 0.4 });
          const e = ear();
          for (let i = 0; i + 1 < points.length; i += 2) {
            const [nx, ny] = points[i]!;
            const [lx, ly] = points[i + 1]!;
            if (!hearing.hears(step(nx, ny, loudness), lx, ly, e)) continue;
            const truth = shortestSoundPath(occluders, nx, ny, lx, ly, loudness);
            expect(truth).toBeLessThanOrEqual(e.distance + 1e-9);
            expect(e.level).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300, seed: 33 },
    );
  });

  it("a footstep behind a crate is heard round it, at the exact shortest way, from the corner it comes round", () => {
    const occluders = new Occluders();
    occluders.addRectangle(4, -1, 2, 2); // a crate from (4, -1) to (6, 1)
    const hearing = new Hearing(occluders);
    const e = ear();
    expect(hearing.hears(step(10, 0.5, 12), 0, 0, e)).toBe(true);
    expect(e.direct).toBe(false);
    // Round the crate's near corner (4, 1) and far corner (6, 1).
    const exact = Math.hypot(4, 1) + 2 + Math.hypot(4, 0.5);
    expect(shortestSoundPath(occluders, 10, 0.5, 0, 0, 100)).toBeCloseTo(exact, 9);
    expect(e.distance).toBeGreaterThanOrEqual(exact);
    expect(e.distance).toBeLessThan(exact + 0.005);
    expect(e.dirX).toBeCloseTo(4 / Math.hypot(4, 1), 3);
    expect(e.dirY).toBeCloseTo(1 / Math.hypot(4, 1), 3);
    expect(hearing.counts).toMatchObject({ detours: 1, roundPieces: 1, cellsSearched: 0 });
    // 10.15 m of way: a 10.1 m footstep does not carry round, though the straight line is 10.01 m.
    expect(hearing.hears(step(10, 0.5, 10.1), 0, 0, e)).toBe(false);
  });

  it("round two walls that meet, the way is still exact", () => {
    const occluders = new Occluders();
    occluders.addRectangle(4, -3, 0.4, 6); // a wall across the straight line
    occluders.addRectangle(4, 2.6, 3, 0.4); // and one from its end, back over the listener's side
    const hearing = new Hearing(occluders);
    const e = ear();
    expect(hearing.hears(step(8, 1, 20), 0, 1, e)).toBe(true);
    const truth = shortestSoundPath(occluders, 8, 1, 0, 1, 100);
    // Over where they meet: round the second wall's far corner (7, 3), along its top, over the first.
    expect(truth).toBeCloseTo(Math.hypot(1, 2) + 3 + Math.hypot(4, 2), 9);
    expect(e.distance).toBeGreaterThanOrEqual(truth);
    expect(e.distance).toBeLessThan(truth + 0.005);
    expect(hearing.counts.roundPieces).toBe(1);
  });

  it("a wall drawn as segments end to end, or a segment along a box, lets no sound through where they meet", () => {
    const chainLike = new Occluders();
    chainLike.addSegment(-10, 0, 5, 0);
    chainLike.addSegment(5, 0, 20, 0);
    const e = ear();
    // 2 m apart through the wall; round its nearer end (x = -10) the way is 26 m.
    expect(new Hearing(chainLike).hears(step(3, -1, 10), 3, 1, e)).toBe(false);
    const world = new World();
    const body = world.createBody();
    body.createFixture(new Chain(Array.from({ length: 21 }, (_, i) => new Vec2(i - 10, 0)), false));
    expect(new Hearing(world).hears(step(0.5, -1, 10), 0.5, 1, e)).toBe(false);
    const segmentAndBox = new Occluders();
    segmentAndBox.addSegment(0, 0, 5, 0);
    segmentAndBox.addRectangle(4, 0, 6, 1); // its bottom edge runs along the segment's end
    // Round the segment's west end: 4.61 + 4.24 = 8.85 m; a 7 m noise is not heard.
    expect(new Hearing(segmentAndBox).hears(step(3, 3, 7), 4.5, -1, e)).toBe(false);
    expect(new Hearing(segmentAndBox).hears(step(3, 3, 9), 4.5, -1, e)).toBe(true);
    expect(e.distance).toBeCloseTo(Math.hypot(4.5, 1) + Math.hypot(3, 3), 2);
  });

  it("no sound crosses a long wall however it is cut into segments or boxes (random angles, cuts and ends)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.array(fc.double({ min: -40, max: 40, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.double({ min: -8, max: 8, noNaN: true }),
        fc.double({ min: 0.05, max: 4, noNaN: true }),
        fc.double({ min: 0.05, max: 4, noNaN: true }),
        (angle, cuts, boxes, along, below, above) => {
          // A wall 100 m long through the origin, cut where `cuts` say; a 10 m noise on one side, an ear on the other.
          const ux = Math.cos(angle);
          const uy = Math.sin(angle);
          // Cuts on a centimetre grid, each piece starting where the last ended: no gap, however thin.
          const marks = [...new Set([-50, ...cuts.map((c) => Math.round(c * 100) / 100), 50])].sort((a, b) => a - b);
          const occluders = new Occluders();
          for (let i = 0; i + 1 < marks.length; i++) {
            const [a, b] = [marks[i]!, marks[i + 1]!];
            if (!boxes) occluders.addSegment(a * ux, a * uy, b * ux, b * uy);
            else occluders.addPolygon([{ x: a * ux, y: a * uy }, { x: b * ux, y: b * uy }, { x: b * ux - 0.3 * uy, y: b * uy + 0.3 * ux }, { x: a * ux - 0.3 * uy, y: a * uy + 0.3 * ux }]);
          }
          // Noise and ear exactly in line with a joint: the straight ray then runs along the seam itself,
          // where rays graze both pieces (for sight as for sound); that measure-zero line is left out.
          if (marks.some((m) => Math.abs(m - along) < 1e-3)) return;
          const hearing = new Hearing(occluders);
          const nx = along * ux + below * uy;
          const ny = along * uy - below * ux;
          const lx = along * ux - (above + (boxes ? 0.3 : 0)) * uy;
          const ly = along * uy + (above + (boxes ? 0.3 : 0)) * ux;
          expect(hearing.hears(step(nx, ny, 10), lx, ly, ear())).toBe(false);
        },
      ),
      { numRuns: 400, seed: 35 },
    );
  });

  it("a noise made inside a wall gets out of it toward the listener, as the listener's would", () => {
    const occluders = new Occluders();
    occluders.addRectangle(-10, 0, 20, 0.4);
    const hearing = new Hearing(occluders);
    const e = ear();
    expect(hearing.hears(step(0, 0.05, 12), 0, -3, e)).toBe(true);
    expect(e.distance).toBeCloseTo(3.05, 6);
    expect(hearing.hears(step(0, -3, 12), 0, 0.05, e)).toBe(true);
    expect(e.distance).toBeCloseTo(3.05, 6);
  });

  it("round a few crates the way is exact; only a maze is left to the grid (random crates)", () => {
    let round = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.double({ min: 0, max: 20, noNaN: true }), y: fc.double({ min: 0, max: 20, noNaN: true }), w: fc.double({ min: 0.1, max: 6, noNaN: true }), h: fc.double({ min: 0.1, max: 6, noNaN: true }) }), { minLength: 2, maxLength: 8 }),
        fc.array(fc.tuple(fc.double({ min: -2, max: 22, noNaN: true }), fc.double({ min: -2, max: 22, noNaN: true })), { minLength: 20, maxLength: 20 }),
        fc.double({ min: 1, max: 25, noNaN: true }),
        (walls, points, loudness) => {
          const occluders = new Occluders();
          for (const w of walls) occluders.addRectangle(w.x, w.y, w.w, w.h);
          const hearing = new Hearing(occluders);
          const e = ear();
          for (let i = 0; i + 1 < points.length; i += 2) {
            const [nx, ny] = points[i]!;
            const [lx, ly] = points[i + 1]!;
            // Ends inside a crate follow their own rule (they leave through its nearest face, see
            // hearingEdges.test.ts): only ends in the open are held to the exact answer here.
            if (walls.some((w) => (nx >= w.x && nx <= w.x + w.w && ny >= w.y && ny <= w.y + w.h) || (lx >= w.x && lx <= w.x + w.w && ly >= w.y && ly <= w.y + w.h))) continue;
            const before = hearing.counts.roundPieces;
            const heard = hearing.hears(step(nx, ny, loudness), lx, ly, e);
            if (hearing.counts.roundPieces === before) continue;
            round++;
            const truth = shortestSoundPath(occluders, nx, ny, lx, ly, loudness);
            // Exact to within a few millimetres (each corner is passed a millimetre out), both ways.
            if (heard) {
              expect(e.distance).toBeGreaterThanOrEqual(truth - 1e-9);
              expect(e.distance).toBeLessThan(truth + 0.02);
            } else expect(truth).toBeGreaterThan(loudness - 0.02);
          }
        },
      ),
      { numRuns: 300, seed: 34 },
    );
    expect(round).toBeGreaterThan(100);
  });

  it("round one convex piece of any shape the way is exact, and comes from its first corner (random polygons)", () => {
    let round = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 9 }),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        // Pairs of ends outside the piece's circle, on about opposite sides: the noise's angle and distance
        // past the circle, the listener's turn from the opposite angle and distance past the circle.
        fc.array(fc.tuple(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0.01, max: 6, noNaN: true }), fc.double({ min: -0.8, max: 0.8, noNaN: true }), fc.double({ min: 0.01, max: 6, noNaN: true })), { minLength: 10, maxLength: 10 }),
        fc.double({ min: 2, max: 25, noNaN: true }),
        (sides, rx, ry, turn, ends, loudness) => {
          // A convex polygon: `sides` corners of an ellipse, turned.
          const outline = Array.from({ length: sides }, (_, i) => {
            const a = (2 * Math.PI * i) / sides;
            const x = rx * Math.cos(a);
            const y = ry * Math.sin(a);
            return { x: x * Math.cos(turn) - y * Math.sin(turn), y: x * Math.sin(turn) + y * Math.cos(turn) };
          });
          const occluders = new Occluders();
          occluders.addPolygon(outline);
          const hearing = new Hearing(occluders);
          const e = ear();
          const circle = Math.max(rx, ry);
          for (const [a, past, across, past2] of ends) {
            const nx = (circle + past) * Math.cos(a);
            const ny = (circle + past) * Math.sin(a);
            const lx = (circle + past2) * Math.cos(a + Math.PI + across);
            const ly = (circle + past2) * Math.sin(a + Math.PI + across);
            const before = hearing.counts.roundPieces;
            const heard = hearing.hears(step(nx, ny, loudness), lx, ly, e);
            if (hearing.counts.roundPieces === before) continue;
            const truth = shortestSoundPath(occluders, nx, ny, lx, ly, loudness);
            round++;
            if (heard) {
              expect(e.distance).toBeGreaterThanOrEqual(truth - 1e-9);
              expect(e.distance).toBeLessThan(truth + 0.01);
              // Toward the first corner of the way: never straight at the noise, whose line the piece stops.
              expect(Math.hypot(e.dirX, e.dirY)).toBeCloseTo(1, 9);
              expect(e.dirX * (nx - lx) + e.dirY * (ny - ly)).toBeLessThan(Math.hypot(nx - lx, ny - ly) - 1e-9);
            } else expect(truth).toBeGreaterThan(loudness - 0.01);
          }
        },
      ),
      { numRuns: 300, seed: 35 },
    );
    expect(round).toBeGreaterThan(300);
  });

  it("refuses a malformed noise or option with a RangeError naming the field", () => {
    const hearing = new Hearing(new Occluders());
    expect(() => hearing.hears(step(0, 0, Number.NaN), 1, 1, ear())).toThrow(/Noise\.loudness/);
    expect(() => hearing.hears({ ...step(0, 0, 5), emitter: "" }, 1, 1, ear())).toThrow(/Noise\.emitter/);
    expect(() => hearing.hears(step(0, 0, 5), Number.POSITIVE_INFINITY, 1, ear())).toThrow(/Hearing\.hears x/);
    expect(() => new Hearing(new Occluders(), { cellSize: 0 })).toThrow(/HearingOptions\.cellSize/);
    expect(() => new Hearing({} as Occluders)).toThrow(/Hearing level/);
  });
});
