import type { Fixture, World } from "planck";
import { distanceSqToSegment } from "../../shared/math/segment.js";
import { occlusionClearance, occlusionMargin } from "../../shared/math/umbra.js";

interface ShapeInternals {
  m_type: string;
  m_radius: number;
  m_p: { x: number; y: number };
  m_vertices: { x: number; y: number }[];
  m_count: number;
  m_vertex1: { x: number; y: number };
  m_vertex2: { x: number; y: number };
}

/**
 * The level's static opaque fixtures as world-space convex shapes (polygon, segment or circle), in a
 * uniform grid, for the culling test "does one occluder hide this whole disc from that whole disc".
 *
 * Only static bodies count: a door or crate that moves can open a sight line inside the latency window,
 * so culling treats moving bodies as transparent (it may send a little more, never too little). Sensors
 * and fixtures whose category is outside `opaqueMask` (glass) never hide. The set is a snapshot: call
 * {@link rebuild} after changing static geometry.
 */
export class StaticOccluders {
  /** Occluders held. */
  size = 0;
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private start = new Int32Array(0);
  private count = new Int32Array(0);
  private radius = new Float64Array(0);
  /** Sign of each outline's signed area (0 for segments and circles). */
  private winding = new Int8Array(0);
  private box = new Float64Array(0);
  // Grid (CSR): cell c holds items[cellStart[c] .. cellStart[c + 1]).
  private originX = 0;
  private originY = 0;
  private columns = 0;
  private rows = 0;
  private cellStart = new Int32Array(1);
  private items = new Int32Array(0);
  private stamp = new Int32Array(0);
  private stampNow = 0;

  /**
   * @param opaqueMask category bits that block sight
   * @param cellSize grid cell side, meters (default 4)
   */
  constructor(private readonly world: World, private readonly opaqueMask: number, private readonly cellSize = 4) {
    if (!(cellSize > 0 && Number.isFinite(cellSize))) throw new RangeError(`cellSize must be a positive finite number of meters (got ${cellSize})`);
    this.rebuild();
  }

  /** Re-reads every static opaque fixture of the world. */
  rebuild(): void {
    const xs: number[] = [];
    const ys: number[] = [];
    const start: number[] = [];
    const count: number[] = [];
    const radius: number[] = [];
    const add = (points: { x: number; y: number }[], r: number): void => {
      start.push(xs.length);
      count.push(points.length);
      radius.push(r);
      for (const p of points) {
        xs.push(p.x);
        ys.push(p.y);
      }
    };
    for (let b = this.world.getBodyList(); b !== null; b = b.getNext()) {
      if (!b.isStatic() || !b.isActive()) continue;
      const xf = b.getTransform();
      const toWorld = (v: { x: number; y: number }) => ({ x: xf.p.x + xf.q.c * v.x - xf.q.s * v.y, y: xf.p.y + xf.q.s * v.x + xf.q.c * v.y });
      for (let f: Fixture | null = b.getFixtureList(); f !== null; f = f.getNext()) {
        if (f.isSensor() || (f.getFilterCategoryBits() & this.opaqueMask) === 0) continue;
        const shape = f.getShape() as unknown as ShapeInternals;
        switch (shape.m_type) {
          case "polygon":
            // The polygon's skin radius only makes it bigger: leaving it out can only send more.
            add(shape.m_vertices.slice(0, shape.m_count).map(toWorld), 0);
            break;
          case "circle":
            add([toWorld(shape.m_p)], shape.m_radius);
            break;
          case "edge":
            add([toWorld(shape.m_vertex1), toWorld(shape.m_vertex2)], 0);
            break;
          case "chain":
            for (let i = 0; i < f.getShape().getChildCount(); i++) {
              add([toWorld(shape.m_vertices[i]!), toWorld(shape.m_vertices[i + 1 < shape.m_count ? i + 1 : 0]!)], 0);
            }
            break;
          default:
            // An unknown shape never hides anything: culling stays conservative.
            break;
        }
      }
    }
    const n = start.length;
    this.size = n;
    this.xs = Float64Array.from(xs);
    this.ys = Float64Array.from(ys);
    this.start = Int32Array.from(start);
    this.count = Int32Array.from(count);
    this.radius = Float64Array.from(radius);
    this.winding = new Int8Array(n);
    for (let k = 0; k < n; k++) {
      if (count[k]! < 3) continue;
      let area = 0;
      for (let i = 0; i < count[k]!; i++) {
        const a = start[k]! + i;
        const b = start[k]! + ((i + 1) % count[k]!);
        area += xs[a]! * ys[b]! - xs[b]! * ys[a]!;
      }
      this.winding[k] = Math.sign(area);
    }
    this.box = new Float64Array(4 * n);
    this.stamp = new Int32Array(n);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let k = 0; k < n; k++) {
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let i = start[k]!; i < start[k]! + count[k]!; i++) {
        x0 = Math.min(x0, xs[i]!);
        y0 = Math.min(y0, ys[i]!);
        x1 = Math.max(x1, xs[i]!);
        y1 = Math.max(y1, ys[i]!);
      }
      const r = radius[k]!;
      this.box.set([x0 - r, y0 - r, x1 + r, y1 + r], 4 * k);
      minX = Math.min(minX, x0 - r);
      minY = Math.min(minY, y0 - r);
      maxX = Math.max(maxX, x1 + r);
      maxY = Math.max(maxY, y1 + r);
    }
    if (n === 0) {
      this.columns = 0;
      this.rows = 0;
      this.cellStart = new Int32Array(1);
      this.items = new Int32Array(0);
      return;
    }
    const cs = this.cellSize;
    this.originX = minX;
    this.originY = minY;
    this.columns = Math.max(1, Math.ceil((maxX - minX) / cs));
    this.rows = Math.max(1, Math.ceil((maxY - minY) / cs));
    const cells = this.columns * this.rows;
    const counts = new Int32Array(cells + 1);
    const eachCell = (k: number, visit: (c: number) => void) => {
      const [c0, r0, c1, r1] = this.cellRange(this.box[4 * k]!, this.box[4 * k + 1]!, this.box[4 * k + 2]!, this.box[4 * k + 3]!);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * this.columns + c);
    };
    for (let k = 0; k < n; k++) eachCell(k, (c) => counts[c + 1]!++);
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.cellStart = counts.slice();
    const items = new Int32Array(counts[cells]!);
    const fill = counts.slice();
    for (let k = 0; k < n; k++) eachCell(k, (c) => { items[fill[c]!++] = k; });
    this.items = items;
  }

  /**
   * Writes into `out` (deduplicated) the occluders whose bounding box the segment (x1, y1)-(x2, y2)
   * touches: the only ones that can hide anything across it. Returns how many. `out` must hold `size`.
   */
  gatherAlong(x1: number, y1: number, x2: number, y2: number, out: Int32Array): number {
    if (this.size === 0) return 0;
    const stamp = ++this.stampNow;
    const [c0, r0, c1, r1] = this.cellRange(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
    const cs = this.cellSize;
    let n = 0;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const bx = this.originX + c * cs;
        const by = this.originY + r * cs;
        if (!segmentTouchesBox(x1, y1, x2, y2, bx, by, bx + cs, by + cs)) continue;
        const cell = r * this.columns + c;
        for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
          const k = this.items[i]!;
          if (this.stamp[k] === stamp) continue;
          this.stamp[k] = stamp;
          const b = 4 * k;
          if (segmentTouchesBox(x1, y1, x2, y2, this.box[b]!, this.box[b + 1]!, this.box[b + 2]!, this.box[b + 3]!)) out[n++] = k;
        }
      }
    }
    return n;
  }

  /** Whether the segment touches occluder `k`'s bounding box (the brute-force path of audits). */
  touches(k: number, x1: number, y1: number, x2: number, y2: number): boolean {
    const b = 4 * k;
    return segmentTouchesBox(x1, y1, x2, y2, this.box[b]!, this.box[b + 1]!, this.box[b + 2]!, this.box[b + 3]!);
  }

  /**
   * Whether the segment touches occluder `k` itself (not just its box). An occluder that hides a whole
   * disc from a whole disc must cross the segment between their centres, so this cheap exact test rules
   * out most candidates before {@link margin}.
   */
  crosses(k: number, x1: number, y1: number, x2: number, y2: number): boolean {
    const start = this.start[k]!;
    const n = this.count[k]!;
    const xs = this.xs;
    const ys = this.ys;
    if (n === 1) {
      const r = this.radius[k]!;
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len === 0) return (xs[start]! - x1) ** 2 + (ys[start]! - y1) ** 2 <= r * r;
      return distanceSqToSegment(xs[start]!, ys[start]!, x1, y1, (x2 - x1) / len, (y2 - y1) / len, len) <= r * r;
    }
    // Separating axes: the segment's normal, then every edge normal of the (convex) outline.
    const dx = x2 - x1;
    const dy = y2 - y1;
    if (!overlapOnAxis(xs, ys, start, n, -dy, dx, x1, y1, x2, y2)) return false;
    for (let i = 0; i < n; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      const ex = xs[start + j]! - xs[start + i]!;
      const ey = ys[start + j]! - ys[start + i]!;
      if (!overlapOnAxis(xs, ys, start, n, -ey, ex, x1, y1, x2, y2)) return false;
    }
    return true;
  }

  /**
   * The fast path's {@link occlusionClearance} of occluder `k`: -Infinity when it hides all of disc B from
   * all of disc A, otherwise a lower bound (>= `threshold`, meters) on its {@link margin}.
   */
  clearance(k: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number, threshold: number): number {
    return occlusionClearance(this.xs, this.ys, this.start[k]!, this.count[k]!, this.radius[k]!, this.winding[k]!, ax, ay, ra, bx, by, rb, threshold);
  }

  /** {@link occlusionMargin} of occluder `k` between disc A and disc B: <= 0 means it hides all of B from all of A. */
  margin(k: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number): number {
    return occlusionMargin(this.xs, this.ys, this.start[k]!, this.count[k]!, this.radius[k]!, ax, ay, ra, bx, by, rb, undefined, this.winding[k]!);
  }

  /** Grid cells (clamped) covering a box: [c0, r0, c1, r1]; empty (c0 > c1) when outside the grid. */
  private readonly range: [number, number, number, number] = [0, 0, 0, 0];
  private cellRange(minX: number, minY: number, maxX: number, maxY: number): [number, number, number, number] {
    const cs = this.cellSize;
    const r = this.range;
    r[0] = Math.max(0, Math.floor((minX - this.originX) / cs));
    r[1] = Math.max(0, Math.floor((minY - this.originY) / cs));
    r[2] = Math.min(this.columns - 1, Math.floor((maxX - this.originX) / cs));
    r[3] = Math.min(this.rows - 1, Math.floor((maxY - this.originY) / cs));
    return r;
  }
}

/** Whether the outline's and the segment's projections on the axis (ax, ay) overlap (closed intervals). */
function overlapOnAxis(
  xs: Float64Array, ys: Float64Array, start: number, n: number, ax: number, ay: number,
  x1: number, y1: number, x2: number, y2: number,
): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = start; i < start + n; i++) {
    const p = xs[i]! * ax + ys[i]! * ay;
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  const p1 = x1 * ax + y1 * ay;
  const p2 = x2 * ax + y2 * ay;
  const eps = 1e-9 * (Math.abs(lo) + Math.abs(hi) + 1);
  return Math.max(p1, p2) >= lo - eps && Math.min(p1, p2) <= hi + eps;
}

/** Slab test: does the segment touch the closed box? */
function segmentTouchesBox(x1: number, y1: number, x2: number, y2: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (dx === 0) {
    if (x1 < minX || x1 > maxX) return false;
  } else {
    let a = (minX - x1) / dx;
    let b = (maxX - x1) / dx;
    if (a > b) { const t = a; a = b; b = t; }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  if (dy === 0) {
    if (y1 < minY || y1 > maxY) return false;
  } else {
    let a = (minY - y1) / dy;
    let b = (maxY - y1) / dy;
    if (a > b) { const t = a; a = b; b = t; }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  return true;
}
