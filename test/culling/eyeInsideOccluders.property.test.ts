import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Occluders } from "sightline/occluders";

// The culling's rule for an eye inside an occluder must agree with sight rays, which pass out of a polygon
// or circle they start in: `outside` is < 0 exactly where every ray from the point passes the piece, and
// it never overstates how far the piece is (the culling's travel allowances rest on that).
describe("an eye inside an occluder, as the culling sees it", () => {
  it("is inside exactly where sight rays from it pass out of the piece, and outside distances are never overstated", () => {
    const piece = fc.oneof(
      fc.record({ kind: fc.constant("box" as const), x: fc.double({ min: -5, max: 5, noNaN: true }), y: fc.double({ min: -5, max: 5, noNaN: true }), w: fc.double({ min: 0.2, max: 6, noNaN: true }), h: fc.double({ min: 0.2, max: 6, noNaN: true }) }),
      fc.record({ kind: fc.constant("circle" as const), x: fc.double({ min: -5, max: 5, noNaN: true }), y: fc.double({ min: -5, max: 5, noNaN: true }), r: fc.double({ min: 0.2, max: 4, noNaN: true }) }),
    );
    const point = fc.record({ x: fc.double({ min: -12, max: 12, noNaN: true }), y: fc.double({ min: -12, max: 12, noNaN: true }) });
    fc.assert(fc.property(piece, point, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (p, at, heading) => {
      const occluders = new Occluders();
      if (p.kind === "box") occluders.addRectangle(p.x, p.y, p.w, p.h);
      else occluders.addCircle(p.x, p.y, p.r);
      const packed = occluders.packed;
      const outside = packed.outside(0, at.x, at.y);
      const cx = p.kind === "box" ? p.x + p.w / 2 : p.x;
      const cy = p.kind === "box" ? p.y + p.h / 2 : p.y;
      // A long ray in any direction, and one through the piece's centre.
      const any = packed.cast(0, at.x, at.y, 40 * Math.cos(heading), 40 * Math.sin(heading), 1);
      const through = packed.cast(0, at.x, at.y, 3 * (cx - at.x), 3 * (cy - at.y), 1);
      // On the outline itself (within rounding) either may happen; the culling then counts it inside,
      // the side of sending.
      if (outside < -1e-9) {
        expect(any).toBe(-1);
        expect(through).toBe(-1);
      } else if (outside > 1e-9) {
        expect(through).not.toBe(-1);
      }
      // The true distance to the piece, against the bound.
      const distance = p.kind === "box"
        ? Math.hypot(Math.max(p.x - at.x, 0, at.x - p.x - p.w), Math.max(p.y - at.y, 0, at.y - p.y - p.h))
        : Math.max(0, Math.hypot(at.x - p.x, at.y - p.y) - p.r);
      expect(outside).toBeLessThanOrEqual(distance + 1e-9);
    }), { numRuns: 2000, seed: 19 });
  });
});
