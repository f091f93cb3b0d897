import fc from "fast-check";
import { Body, Box, Chain, Circle, Edge, Polygon, Vec2, World, type Fixture } from "planck";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../shared/seededRandom.js";
import { LineOfSight } from "../../server/vision/lineOfSight.js";
import { blocksSight } from "../../server/planck/fixtureOpacity.js";
import { emptyWorld } from "../fixtures/planckWorld.js";

const OPAQUE = 0x0001 | 0x0004;

/**
 * A random level with every shape kind planck has, on rotated bodies, some sensors, some transparent.
 * `moving` bodies are dynamic (they go to the engine's moving-occluder list, or past its limit make rays
 * walk planck's broadphase); the rest are static (the engine's own occluder tree).
 */
function randomLevel(seed: number, moving = 10): { world: World; bodies: Body[] } {
  const rnd = seededRandom(seed);
  const world = emptyWorld();
  const bodies: Body[] = [];
  for (let i = 0; i < 120; i++) {
    const body = world.createBody({ type: i < moving ? "dynamic" : "static", position: Vec2(rnd() * 40 - 20, rnd() * 40 - 20), angle: rnd() * 7 });
    bodies.push(body);
    const fixtures = 1 + Math.floor(rnd() * 2);
    for (let f = 0; f < fixtures; f++) {
      const kind = Math.floor(rnd() * 6);
      const category = [0x0001, 0x0002, 0x0004, 0x0008][Math.floor(rnd() * 4)]!;
      const isSensor = rnd() < 0.1;
      const ox = rnd() * 2 - 1;
      const oy = rnd() * 2 - 1;
      let shape;
      if (kind === 0) shape = new Box(0.2 + rnd() * 2, 0.2 + rnd() * 2, Vec2(ox, oy), rnd() * 3);
      else if (kind === 1) shape = new Circle(Vec2(ox, oy), 0.2 + rnd() * 1.5);
      else if (kind === 2) shape = new Edge(Vec2(ox, oy), Vec2(ox + rnd() * 4 - 2, oy + rnd() * 4 - 2));
      else if (kind === 3) {
        const n = 3 + Math.floor(rnd() * 4);
        const r = 0.5 + rnd() * 1.5;
        shape = new Polygon(Array.from({ length: n }, (_, k) => Vec2(ox + r * Math.cos((k / n) * 2 * Math.PI), oy + r * Math.sin((k / n) * 2 * Math.PI))));
      } else {
        const n = 3 + Math.floor(rnd() * 4);
        const pts = Array.from({ length: n }, (_, k) => Vec2(ox + k * 0.8, oy + (rnd() * 2 - 1)));
        shape = new Chain(pts, kind === 5);
      }
      body.createFixture({ shape, filterCategoryBits: category, isSensor });
    }
  }
  return { world, bodies };
}

/** planck's own closest-hit ray cast with the sight filter applied in the callback: the reference. */
function referenceBlocked(
  world: World, x1: number, y1: number, x2: number, y2: number, ignoreA: Body | null, ignoreB: Body | null, maxFraction: number,
): { blocked: boolean; nearTie: boolean } {
  let best = Infinity;
  world.rayCast(Vec2(x1, y1), Vec2(x2, y2), (fixture: Fixture, _p, _n, fraction) => {
    const body = fixture.getBody();
    if (!blocksSight(fixture, OPAQUE) || body === ignoreA || body === ignoreB) return -1;
    if (fraction < best) best = fraction;
    return fraction;
  });
  return { blocked: best < maxFraction, nearTie: Math.abs(best - maxFraction) < 1e-9 };
}

describe("LineOfSight walks planck's tree and agrees with planck's own ray cast", () => {
  it("matches World.rayCast on random levels with boxes, polygons, circles, edges, chains, sensors and masks", () => {
    let compared = 0;
    let blockedCount = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e9 }), fc.array(fc.tuple(
      fc.double({ min: -25, max: 25, noNaN: true }), fc.double({ min: -25, max: 25, noNaN: true }),
      fc.double({ min: -25, max: 25, noNaN: true }), fc.double({ min: -25, max: 25, noNaN: true }),
      fc.double({ min: 0.3, max: 1, noNaN: true }), fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 39 }),
    ), { minLength: 50, maxLength: 50 }), (seed, segments) => {
      const { world, bodies } = randomLevel(seed);
      const los = new LineOfSight(world, OPAQUE);
      for (const [x1, y1, x2, y2, maxFraction, ia, ib] of segments) {
        const ignoreA = ia < 10 ? bodies[ia]! : null;
        const ignoreB = ib < 10 ? bodies[ib]! : null;
        const ref = referenceBlocked(world, x1, y1, x2, y2, ignoreA, ignoreB, maxFraction);
        if (ref.nearTie) continue;
        compared++;
        if (ref.blocked) blockedCount++;
        expect(los.blocked(x1, y1, x2, y2, ignoreA, ignoreB, maxFraction)).toBe(ref.blocked);
      }
    }), { numRuns: 60 });
    expect(compared).toBeGreaterThan(2500);
    // Past the moving-occluder limit rays walk planck's broadphase: same answers.
    const { world, bodies } = randomLevel(99, 100);
    const los = new LineOfSight(world, OPAQUE);
    expect(los.occluders.useWorldTree).toBe(true);
    for (let i = 0; i < 400; i++) {
      const x1 = Math.sin(i) * 25, y1 = Math.cos(i * 1.3) * 25, x2 = Math.sin(i * 2.1) * 25, y2 = Math.cos(i * 0.7) * 25;
      const ref = referenceBlocked(world, x1, y1, x2, y2, bodies[i % 40]!, null, 1);
      if (!ref.nearTie) expect(los.blocked(x1, y1, x2, y2, bodies[i % 40]!, null, 1)).toBe(ref.blocked);
    }
    // Both outcomes well represented, so agreement means something.
    expect(blockedCount / compared).toBeGreaterThan(0.2);
    expect(blockedCount / compared).toBeLessThan(0.9);
  });

  it("entryFraction is where planck says the segment first enters the body's non-sensor fixtures", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e9 }), fc.double({ min: -25, max: 25, noNaN: true }), fc.double({ min: -25, max: 25, noNaN: true }), fc.integer({ min: 0, max: 39 }), (seed, x1, y1, bi) => {
      const { world, bodies } = randomLevel(seed);
      const body = bodies[bi]!;
      const c = body.getWorldCenter();
      const los = new LineOfSight(world, OPAQUE);
      let best = 1;
      for (let f = body.getFixtureList(); f; f = f.getNext()) {
        if (f.isSensor()) continue;
        for (let child = 0; child < f.getShape().getChildCount(); child++) {
          const out = { fraction: 0, normal: Vec2(0, 0) };
          if (f.rayCast(out, { p1: Vec2(x1, y1), p2: Vec2(c.x, c.y), maxFraction: 1 }, child) && out.fraction < best) best = out.fraction;
        }
      }
      expect(los.entryFraction(x1, y1, c.x, c.y, body)).toBeCloseTo(best, 9);
    }), { numRuns: 300 });
  });

  it("sensors, transparent categories (glass) and the ignored bodies never block", () => {
    const world = emptyWorld();
    const make = (x: number, category: number, isSensor = false) => {
      const b = world.createBody({ position: Vec2(x, 0) });
      b.createFixture({ shape: new Box(0.2, 2), filterCategoryBits: category, isSensor });
      return b;
    };
    make(2, 0x0001, true);
    make(4, 0x0002);
    const own = make(6, 0x0001);
    const target = make(8, 0x0004);
    const los = new LineOfSight(world, OPAQUE);
    expect(los.blocked(0, 0, 10, 0, own, target, 1)).toBe(false);
    expect(los.blocked(0, 0, 10, 0, null, target, 1)).toBe(true);
    expect((los.lastBlocker as Fixture | null)?.getBody()).toBe(own);
    const stillBlocks = (f: Fixture) => los.canBlock(f, null, null) && los.crosses(f, 0, 0, 10, 0, 1);
    expect(stillBlocks(own.getFixtureList()!)).toBe(true);
    // A destroyed fixture must not answer for the cache any more.
    const fixture = own.getFixtureList()!;
    world.destroyBody(own);
    expect(stillBlocks(fixture)).toBe(false);
    expect(los.blocked(0, 0, 10, 0, null, null, 1)).toBe(true); // the target's box still blocks when not ignored
  });
});
