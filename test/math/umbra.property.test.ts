import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { occludes, occlusionClearance, occlusionMargin } from "../../shared/math/umbra.js";

/** A rounded convex occluder: hull of the vertices grown by `radius`. */
interface Occluder {
  xs: number[];
  ys: number[];
  radius: number;
}

const box = (cx: number, cy: number, hw: number, hh: number, angle: number): Occluder => {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [lx, ly] of [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]] as const) {
    xs.push(cx + lx * c - ly * s);
    ys.push(cy + lx * s + ly * c);
  }
  return { xs, ys, radius: 0 };
};

const margin = (o: Occluder, ax: number, ay: number, ra: number, bx: number, by: number, rb: number, witness?: { x: number; y: number }) =>
  occlusionMargin(o.xs, o.ys, 0, o.xs.length, o.radius, ax, ay, ra, bx, by, rb, witness);

/** Squared distance from p to segment [a, b]. */
function distSqPointSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len));
  const qx = ax + t * dx - px;
  const qy = ay + t * dy - py;
  return qx * qx + qy * qy;
}

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => (qx - px) * (ry - py) - (qy - py) * (rx - px);
  const d1 = o(cx, cy, dx, dy, ax, ay);
  const d2 = o(cx, cy, dx, dy, bx, by);
  const d3 = o(ax, ay, bx, by, cx, cy);
  const d4 = o(ax, ay, bx, by, dx, dy);
  if (d1 === 0 && d2 === 0) {
    // Collinear: they touch iff their extents overlap on both axes.
    return Math.max(ax, bx) >= Math.min(cx, dx) && Math.max(cx, dx) >= Math.min(ax, bx)
      && Math.max(ay, by) >= Math.min(cy, dy) && Math.max(cy, dy) >= Math.min(ay, by);
  }
  return d1 * d2 <= 0 && d3 * d4 <= 0;
}

/** Whether segment [p, q] touches the occluder (brute force, independent of the support-function argument). */
function segmentHits(o: Occluder, px: number, py: number, qx: number, qy: number): boolean {
  const n = o.xs.length;
  if (n === 1) return distSqPointSegment(o.xs[0]!, o.ys[0]!, px, py, qx, qy) <= o.radius * o.radius;
  if (n === 2) return segmentsCross(px, py, qx, qy, o.xs[0]!, o.ys[0]!, o.xs[1]!, o.ys[1]!);
  // Convex polygon: an endpoint inside, or the segment crosses an edge.
  const inside = (x: number, y: number) => {
    let sign = 0;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const c = (o.xs[j]! - o.xs[i]!) * (y - o.ys[i]!) - (o.ys[j]! - o.ys[i]!) * (x - o.xs[i]!);
      if (c !== 0) {
        if (sign === 0) sign = Math.sign(c);
        else if (Math.sign(c) !== sign) return false;
      }
    }
    return true;
  };
  if (inside(px, py) || inside(qx, qy)) return true;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    if (segmentsCross(px, py, qx, qy, o.xs[i]!, o.ys[i]!, o.xs[j]!, o.ys[j]!)) return true;
  }
  return false;
}

/** Coordinates on a 0.1 mm lattice: no subnormal noise for the brute-force orientation tests. */
const coord = (min: number, max: number) => fc.integer({ min: min * 1e4, max: max * 1e4 }).map((v) => v / 1e4);

const occluderArb: fc.Arbitrary<Occluder> = fc.oneof(
  fc.record({ cx: coord(-5, 5), cy: coord(-5, 5), hw: coord(0.05, 4), hh: coord(0.05, 4), a: fc.double({ min: 0, max: Math.PI, noNaN: true }) })
    .map(({ cx, cy, hw, hh, a }) => box(cx, cy, hw, hh, a)),
  fc.record({ x: coord(-5, 5), y: coord(-5, 5), r: coord(0.05, 3) })
    .map(({ x, y, r }) => ({ xs: [x], ys: [y], radius: r })),
  fc.tuple(...Array.from({ length: 4 }, () => coord(-5, 5)))
    .filter(([x1, y1, x2, y2]) => Math.hypot(x2 - x1, y2 - y1) > 0.01)
    .map(([x1, y1, x2, y2]) => ({ xs: [x1, x2], ys: [y1, y2], radius: 0 })),
  // A triangle, wound either way (not degenerate: the brute-force inside test needs an area).
  fc.tuple(...Array.from({ length: 6 }, () => coord(-5, 5)))
    .filter(([x1, y1, x2, y2, x3, y3]) => Math.abs((x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1)) > 0.01)
    .map(([x1, y1, x2, y2, x3, y3]) => ({ xs: [x1, x2, x3], ys: [y1, y2, y3], radius: 0 })),
);
const discArb = fc.record({
  x: coord(-15, 15),
  y: coord(-15, 15),
  r: coord(0, 3),
});

describe("occlusionMargin: one convex occluder hiding a disc from a disc", () => {
  it("a wall between two small discs hides; a pillar does not hide a disc wider than its shadow", () => {
    const wall = box(0, 0, 0.25, 3, 0);
    expect(margin(wall, -5, 0, 0.5, 5, 0, 0.5)).toBeLessThan(0);
    // Nor a target far enough past its end that a line from the eye's disc clears the corner.
    expect(margin(wall, -5, 0, 0.5, 5, 3.2, 0.5)).toBeLessThan(0);
    expect(margin(wall, -5, 0, 0.5, 5, 6, 0.5)).toBeGreaterThan(0);
    const pillar = box(0, 0, 0.3, 0.3, 0);
    expect(margin(pillar, -5, 0, 0.1, 5, 0, 0.1)).toBeLessThan(0);
    expect(margin(pillar, -5, 0, 0.1, 5, 0, 1.5)).toBeGreaterThan(0);
    // An eye that can step sideways past the pillar's edge sees around it.
    expect(margin(pillar, -2, 0, 1, 5, 0, 0.1)).toBeGreaterThan(0);
  });

  it("hidden means every segment between the discs crosses the occluder (sampled)", () => {
    fc.assert(fc.property(occluderArb, discArb, discArb, fc.integer({ min: 0, max: 1 << 30 }), (o, a, b, seed) => {
      const m = margin(o, a.x, a.y, a.r, b.x, b.y, b.r);
      if (m > -1e-9) return;
      let s = seed;
      const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      for (let i = 0; i < 200; i++) {
        // Boundary points half the time: the extreme segments are the ones that get past.
        const ta = rnd() * 2 * Math.PI;
        const tb = rnd() * 2 * Math.PI;
        const fa = i % 2 === 0 ? 1 : Math.sqrt(rnd());
        const fb = i % 2 === 0 ? 1 : Math.sqrt(rnd());
        const px = a.x + a.r * fa * Math.cos(ta);
        const py = a.y + a.r * fa * Math.sin(ta);
        const qx = b.x + b.r * fb * Math.cos(tb);
        const qy = b.y + b.r * fb * Math.sin(tb);
        expect(segmentHits(o, px, py, qx, qy)).toBe(true);
      }
    }), { numRuns: 3000 });
  });

  it("not hidden comes with a witness segment that really misses the occluder", () => {
    fc.assert(fc.property(occluderArb, discArb, discArb, (o, a, b) => {
      const w = { x: 0, y: 0 };
      const m = margin(o, a.x, a.y, a.r, b.x, b.y, b.r, w);
      if (m <= 1e-2) return; // within a centimetre of tangent, rounding in the brute-force check decides
      const px = a.x + a.r * w.x;
      const py = a.y + a.r * w.y;
      const qx = b.x + b.r * w.x;
      const qy = b.y + b.r * w.y;
      // Both ends lie beyond the occluder's supporting line in direction w: the segment cannot touch it.
      let hp = -Infinity;
      for (let i = 0; i < o.xs.length; i++) hp = Math.max(hp, o.xs[i]! * w.x + o.ys[i]! * w.y);
      hp += o.radius;
      expect(px * w.x + py * w.y).toBeGreaterThan(hp);
      expect(qx * w.x + qy * w.y).toBeGreaterThan(hp);
      expect(segmentHits(o, px, py, qx, qy)).toBe(false);
    }), { numRuns: 3000 });
  });

  it("agrees with dense direction sampling of the support-function criterion", () => {
    fc.assert(fc.property(occluderArb, discArb, discArb, (o, a, b) => {
      const m = margin(o, a.x, a.y, a.r, b.x, b.y, b.r);
      let sampled = -Infinity;
      for (let k = 0; k < 4096; k++) {
        const ux = Math.cos((k / 4096) * 2 * Math.PI);
        const uy = Math.sin((k / 4096) * 2 * Math.PI);
        let hp = -Infinity;
        for (let i = 0; i < o.xs.length; i++) hp = Math.max(hp, o.xs[i]! * ux + o.ys[i]! * uy);
        const g = Math.min(a.x * ux + a.y * uy + a.r, b.x * ux + b.y * uy + b.r) - hp - o.radius;
        sampled = Math.max(sampled, g);
      }
      // The exact maximum is never below a sampled value, and sampling gets within its angular step of it.
      expect(m).toBeGreaterThanOrEqual(sampled - 1e-9);
      expect(m - sampled).toBeLessThan(0.05);
    }), { numRuns: 1000 });
  });

  it("the fast verdict (early exit, outward normals only) always agrees with the margin, and its clearance never exceeds it", () => {
    fc.assert(fc.property(occluderArb, discArb, discArb, fc.boolean(), (o, a, b, flip) => {
      const xs = flip ? [...o.xs].reverse() : o.xs;
      const ys = flip ? [...o.ys].reverse() : o.ys;
      let area = 0;
      for (let i = 0; i < xs.length; i++) area += xs[i]! * ys[(i + 1) % xs.length]! - xs[(i + 1) % xs.length]! * ys[i]!;
      const winding = xs.length >= 3 ? Math.sign(area) : 0;
      const m = occlusionMargin(xs, ys, 0, xs.length, o.radius, a.x, a.y, a.r, b.x, b.y, b.r);
      expect(occludes(xs, ys, 0, xs.length, o.radius, winding, a.x, a.y, a.r, b.x, b.y, b.r, -1e-6)).toBe(m < -1e-6);
      // Its clearance is a lower bound on the margin (the room culling may spend), or -Infinity when hidden.
      const clearance = occlusionClearance(xs, ys, 0, xs.length, o.radius, winding, a.x, a.y, a.r, b.x, b.y, b.r, -1e-6);
      if (m < -1e-6) expect(clearance).toBe(-Infinity);
      else {
        expect(clearance).toBeGreaterThanOrEqual(-1e-6);
        expect(clearance).toBeLessThanOrEqual(m + 1e-12);
      }
      // Told the winding, the margin skips inward normals and finds the same maximum.
      expect(occlusionMargin(xs, ys, 0, xs.length, o.radius, a.x, a.y, a.r, b.x, b.y, b.r, undefined, winding)).toBeCloseTo(m, 9);
    }), { numRuns: 5000 });
  });
});
