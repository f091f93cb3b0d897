import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Occluders } from "sightline/occluders";
import { MISS } from "../../shared/math/rayCast.js";
import { seededRandom } from "../../shared/seededRandom.js";
import type { PackedOccluders } from "../../server/occluders/packedOccluders.js";

/**
 * A sight or sound ray walks the occluders' grid and tests only the pieces in the cells it passes, each
 * against its box first. That walk is a shortcut: it must find a piece whenever casting the ray at every
 * piece would. Rays that only graze (through a corner, along an edge, upright or level, from a corner
 * with a direction a rounding away from upright) are where a box test or a cell boundary decided by
 * different arithmetic from the cast could skip a piece the cast says it enters.
 */
describe("the occluders' ray walk", () => {
  it("finds a piece exactly when casting at every piece finds one, grazing rays included, and passes by the pieces it is told to", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
      const random = seededRandom(seed);
      const occluders = new Occluders({ cellSize: 1 + random() * 3 });
      const corners: { x: number; y: number }[] = [];
      for (let i = 0; i < 12; i++) {
        const x = random() * 30;
        const y = random() * 30;
        const kind = Math.floor(random() * 4);
        if (kind === 0) {
          const w = 0.2 + random() * 4;
          const h = 0.2 + random() * 4;
          occluders.addRectangle(x, y, w, h);
          corners.push({ x, y }, { x: x + w, y }, { x, y: y + h }, { x: x + w, y: y + h });
        } else if (kind === 1) {
          // A rotated box: corners off the grid's lines.
          const a = random() * Math.PI;
          const [c, s] = [Math.cos(a), Math.sin(a)];
          const points = [[0, 0], [3, 0], [3, 1], [0, 1]].map(([u, v]) => ({ x: x + c * u! - s * v!, y: y + s * u! + c * v! }));
          occluders.addPolygon(points);
          corners.push(...points);
        } else if (kind === 2) {
          const to = { x: x + random() * 6 - 3, y: y + random() * 6 - 3 };
          occluders.addSegment(x, y, to.x, to.y);
          corners.push({ x, y }, to);
        } else occluders.addCircle(x, y, 0.3 + random());
      }
      const packed = (occluders as unknown as { packed: PackedOccluders }).packed;
      // Pieces a caller has cleared the ray of already are passed by, and only those.
      const skip = Int32Array.from({ length: 3 }, () => Math.floor(random() * packed.size));
      const castAtEvery = (x: number, y: number, dx: number, dy: number, skipCount: number): boolean => {
        for (let k = 0; k < packed.size; k++) if (!skip.subarray(0, skipCount).includes(k) && packed.cast(k, x, y, dx, dy, 1) !== MISS) return true;
        return false;
      };
      const check = (x: number, y: number, dx: number, dy: number): void => {
        for (const skipCount of [0, skip.length]) {
          const found = skipCount === 0 ? packed.firstBlocker(x, y, dx, dy, 1, true) : packed.firstBlockerPassing(skip, skipCount, x, y, dx, dy);
          expect(found >= 0, `ray (${x}, ${y}) + t (${dx}, ${dy}), skipping ${skipCount}`).toBe(castAtEvery(x, y, dx, dy, skipCount));
          if (found >= 0) expect(packed.cast(found, x, y, dx, dy, 1)).not.toBe(MISS);
          if (found >= 0) expect(skip.subarray(0, skipCount).includes(found)).toBe(false);
        }
      };
      for (let i = 0; i < 60; i++) check(random() * 34 - 2, random() * 34 - 2, random() * 20 - 10, random() * 20 - 10);
      for (const p of corners) {
        for (let d = 0; d < 8; d++) {
          const a = (d * Math.PI) / 4;
          const length = 1 + random() * 6;
          // Through the corner, from the corner, and from the corner upright or level a rounding off.
          check(p.x - Math.cos(a) * length, p.y - Math.sin(a) * length, 2 * Math.cos(a) * length, 2 * Math.sin(a) * length);
          check(p.x, p.y, Math.cos(a) * length, Math.sin(a) * length);
        }
        check(p.x, p.y - 5, 0, 10);
        check(p.x - 5, p.y, 10, 0);
        for (const q of corners) if (q !== p) check(p.x, p.y, q.x - p.x, q.y - p.y);
      }
    }), { numRuns: 60 });
  });
});

describe("a ray that passes pieces by", () => {
  it("passes them by for that ray only, even when it ends before walking the grid", () => {
    const occluders = new Occluders();
    occluders.addRectangle(4, -1, 1, 2);
    const packed = (occluders as unknown as { packed: PackedOccluders }).packed;
    const wall = Int32Array.of(0);
    expect(packed.firstBlockerPassing(wall, 1, 0, 0, 10, 0)).toBe(-1);
    expect(packed.firstBlocker(0, 0, 10, 0, 1, true)).toBe(0);
    // Far outside the grid: the walk ends before it starts; the next ray still meets the wall.
    expect(packed.firstBlockerPassing(wall, 1, 500, 500, 1, 0)).toBe(-1);
    expect(packed.firstBlocker(0, 0, 10, 0, 1, true)).toBe(0);
  });
});
