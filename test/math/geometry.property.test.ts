import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  angularDistance, circleIntersectsDisc, circleIntersectsSector, Sector, silhouettePoints, wrapAngle,
} from "../../shared/math/index.js";

const TAU = 2 * Math.PI;

describe("angles", () => {
  it("wrapAngle lands in (-PI, PI] and keeps the direction", () => {
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (a) => {
      const w = wrapAngle(a);
      expect(w).toBeGreaterThan(-Math.PI - 1e-12);
      expect(w).toBeLessThanOrEqual(Math.PI);
      expect(Math.cos(w)).toBeCloseTo(Math.cos(a), 6);
      expect(Math.sin(w)).toBeCloseTo(Math.sin(a), 6);
    }), { numRuns: 2000 });
  });

  it("wrapAngle is the identity inside (-PI, PI]; angularDistance is symmetric, in [0, PI], 0 for a full turn", () => {
    expect(wrapAngle(Math.PI)).toBe(Math.PI);
    expect(wrapAngle(-Math.PI)).toBe(Math.PI);
    fc.assert(fc.property(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true, minExcluded: true }), fc.double({ min: -50, max: 50, noNaN: true }), fc.integer({ min: -5, max: 5 }), (a, b, k) => {
      expect(wrapAngle(a)).toBe(a);
      const d = angularDistance(a, b);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(Math.PI);
      expect(angularDistance(b, a)).toBeCloseTo(d, 9);
      expect(angularDistance(a, a + k * TAU)).toBeCloseTo(0, 9);
    }), { numRuns: 1000 });
  });
});

/** Dense sampling of a sector: apex, both straight edges, the arc and a polar grid inside. */
function sampledSectorHitsCircle(
  px: number, py: number, r: number, ox: number, oy: number, facing: number, fullAngle: number, range: number,
  radial: number, angular: number,
): boolean {
  const half = fullAngle >= TAU ? Math.PI : fullAngle / 2;
  const rSq = r * r;
  for (let i = 0; i <= radial; i++) {
    const rho = (range * i) / radial;
    for (let j = 0; j <= angular; j++) {
      const a = facing - half + (2 * half * j) / angular;
      const dx = ox + rho * Math.cos(a) - px;
      const dy = oy + rho * Math.sin(a) - py;
      if (dx * dx + dy * dy <= rSq) return true;
    }
  }
  return false;
}

describe("circle vs sector is exact (checked against dense sampling of the sector)", () => {
  const RADIAL = 120;
  const ANGULAR = 120;
  // A centre near the cone: anywhere, or deliberately close to an edge line or to the arc.
  const caseArb = fc.record({
    facing: fc.double({ min: -20, max: 20, noNaN: true }),
    fullAngle: fc.oneof(fc.double({ min: 0.01, max: 6.5, noNaN: true }), fc.constant(TAU), fc.constant(Math.PI)),
    range: fc.double({ min: 0.5, max: 20, noNaN: true }),
    r: fc.double({ min: 0.01, max: 5, noNaN: true }),
    where: fc.constantFrom("anywhere", "edge", "arc"),
    u: fc.double({ min: 0, max: 1, noNaN: true }),
    v: fc.double({ min: -1, max: 1, noNaN: true }),
  });

  it("sampled hit implies exact hit, and an exact hit of the shrunken circle implies a sampled hit", () => {
    fc.assert(fc.property(caseArb, (c) => {
      const half = c.fullAngle >= TAU ? Math.PI : c.fullAngle / 2;
      let px: number;
      let py: number;
      if (c.where === "edge") {
        const a = c.facing + (c.v > 0 ? half : -half);
        const along = c.u * (c.range + c.r);
        const off = c.v * 1.5 * c.r;
        px = along * Math.cos(a) - off * Math.sin(a);
        py = along * Math.sin(a) + off * Math.cos(a);
      } else if (c.where === "arc") {
        const a = c.facing + (c.u * 2 - 1) * (half + 0.3);
        const d = c.range + c.v * 1.5 * c.r;
        px = d * Math.cos(a);
        py = d * Math.sin(a);
      } else {
        const a = c.u * TAU;
        const d = Math.abs(c.v) * (c.range + 2 * c.r);
        px = d * Math.cos(a);
        py = d * Math.sin(a);
      }
      // Any sector point lies within this distance of a sample.
      const spacing = c.range / RADIAL + c.range * ((2 * half) / ANGULAR);
      const sampled = sampledSectorHitsCircle(px, py, c.r, 0, 0, c.facing, c.fullAngle, c.range, RADIAL, ANGULAR);
      const exact = circleIntersectsSector(px, py, c.r, 0, 0, c.facing, c.fullAngle, c.range);
      // A sample exactly on the circle (a centre at range + r along an edge: the circle touches the
      // corner) is inside or outside by the last bit of rounding, so the exact test gets that bit back.
      if (sampled) expect(exact || circleIntersectsSector(px, py, c.r * (1 + 1e-9), 0, 0, c.facing, c.fullAngle, c.range)).toBe(true);
      if (c.r - spacing > 0 && circleIntersectsSector(px, py, c.r - spacing, 0, 0, c.facing, c.fullAngle, c.range)) {
        expect(sampled).toBe(true);
      }
    }), { numRuns: 600 });
  });

  it("a reused Sector answers like a fresh one for every cone it is set to", () => {
    const reused = new Sector();
    fc.assert(fc.property(caseArb, fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }), (c, px, py) => {
      reused.set(1, -2, c.facing, c.fullAngle, c.range);
      const fresh = new Sector().set(1, -2, c.facing, c.fullAngle, c.range);
      expect(reused.intersectsCircle(px, py, c.r)).toBe(fresh.intersectsCircle(px, py, c.r));
      expect(reused.containsDirection(px, py)).toBe(fresh.containsDirection(px, py));
    }), { numRuns: 1000 });
  });

  it("scenarios: a body across the edge is in, a circle just beyond the arc is out, a turret is a disc, range Infinity", () => {
    const cone = new Sector().set(0, 0, 0, Math.PI / 3, 10); // 60 degrees, 10 m
    const off = (35 * Math.PI) / 180;
    expect(cone.intersectsCircle(8 * Math.cos(off), 8 * Math.sin(off), 0.8)).toBe(true); // centre outside, edge crossed
    expect(cone.intersectsCircle(10.31, 0, 0.3)).toBe(false); // 1 cm beyond the arc
    expect(cone.intersectsCircle(10.3, 0, 0.3)).toBe(true); // touching counts
    expect(cone.intersectsCircle(-0.3, 0, 0.5)).toBe(true); // behind the apex but over it
    expect(cone.intersectsCircle(-1, 0, 0.5)).toBe(false);
    const pointOnEdge = new Sector().set(0, 0, 0, Math.PI / 2, 10);
    expect(pointOnEdge.intersectsCircle(3, 3, 0)).toBe(true);
    expect(pointOnEdge.containsDirection(3, 3.001)).toBe(false);
    const turret = new Sector().set(0, 0, 1, 7, 5);
    expect(turret.isFull).toBe(true);
    expect(turret.intersectsCircle(-5.2, 0, 0.25)).toBe(true);
    expect(turret.intersectsCircle(-5.3, 0, 0.25)).toBe(false);
    const sniper = new Sector().set(0, 0, 0, 0.1, Infinity);
    expect(sniper.intersectsCircle(1e7, 1e4, 0)).toBe(true);
    expect(sniper.intersectsCircle(1e7, 1e7, 1)).toBe(false);
  });
});

describe("circle vs disc", () => {
  it("agrees with the distance between centres; an infinite disc always hits; touching counts", () => {
    fc.assert(fc.property(
      fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: 0, max: 10, noNaN: true }), fc.double({ min: 0, max: 30, noNaN: true }),
      (x, y, r, R) => {
        const d = Math.hypot(x, y);
        const exact = circleIntersectsDisc(x, y, r, 0, 0, R);
        if (d < r + R - 1e-9) expect(exact).toBe(true);
        if (d > r + R + 1e-9) expect(exact).toBe(false);
        expect(circleIntersectsDisc(x, y, r, 0, 0, Infinity)).toBe(true);
      }), { numRuns: 2000 });
    expect(circleIntersectsDisc(3, 0, 1, 0, 0, 2)).toBe(true);
  });
});

describe("silhouette points", () => {
  it("lie on the circle where the eye's tangents touch it, mirrored across the eye-centre line", () => {
    fc.assert(fc.property(
      fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }),
      fc.double({ min: 0.05, max: 3, noNaN: true }), fc.double({ min: 0, max: 6.28, noNaN: true }), fc.double({ min: 1.01, max: 30, noNaN: true }),
      (cx, cy, r, a, k) => {
        const ex = cx + k * r * Math.cos(a);
        const ey = cy + k * r * Math.sin(a);
        const out = { ax: 0, ay: 0, bx: 0, by: 0 };
        expect(silhouettePoints(ex, ey, cx, cy, r, 0, out)).toBe(true);
        for (const [tx, ty] of [[out.ax, out.ay], [out.bx, out.by]] as const) {
          expect(Math.hypot(tx - cx, ty - cy)).toBeCloseTo(r, 9);
          // Tangency: the radius is perpendicular to the line of sight.
          const dot = (tx - cx) * (tx - ex) + (ty - cy) * (ty - ey);
          expect(Math.abs(dot)).toBeLessThan(1e-9 * k * r * r + 1e-12);
        }
        // Brute force: no boundary point is seen at a wider angle from the axis than the tangent points.
        const axis = Math.atan2(cy - ey, cx - ex);
        const tangentSpread = angularDistance(Math.atan2(out.ay - ey, out.ax - ex), axis);
        let widest = 0;
        for (let i = 0; i < 720; i++) {
          const b = (i / 720) * 2 * Math.PI;
          widest = Math.max(widest, angularDistance(Math.atan2(cy + r * Math.sin(b) - ey, cx + r * Math.cos(b) - ex), axis));
        }
        expect(widest).toBeLessThanOrEqual(tangentSpread + 1e-9);
        expect(widest).toBeGreaterThan(tangentSpread - 0.01);
        // Mirror images across the eye-centre line: same distance from the eye, opposite sides.
        expect(Math.hypot(out.ax - ex, out.ay - ey)).toBeCloseTo(Math.hypot(out.bx - ex, out.by - ey), 9);
      }), { numRuns: 400 });
  });

  it("with an inset they move that fraction of the radius toward the centre; none exist from inside the circle", () => {
    const out = { ax: 0, ay: 0, bx: 0, by: 0 };
    const inset = { ax: 0, ay: 0, bx: 0, by: 0 };
    silhouettePoints(10, 0, 0, 0, 1, 0, out);
    silhouettePoints(10, 0, 0, 0, 1, 0.1, inset);
    expect(inset.ax).toBeCloseTo(out.ax * 0.9, 12);
    expect(inset.ay).toBeCloseTo(out.ay * 0.9, 12);
    const untouched = { ax: 7, ay: 7, bx: 7, by: 7 };
    expect(silhouettePoints(0.5, 0, 0, 0, 1, 0, untouched)).toBe(false);
    expect(silhouettePoints(1, 0, 0, 0, 1, 0, untouched)).toBe(false);
    expect(untouched).toEqual({ ax: 7, ay: 7, bx: 7, by: 7 });
  });
});
