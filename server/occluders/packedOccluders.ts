import { distanceSqToSegment, overlapOnAxis } from "../../shared/math/segment.js";
import { occlusionClearance, occlusionMargin } from "../../shared/math/umbra.js";
import { castCircle, castConvexPolygonAt, castEdge, castFog, MISS, outwardNormals, segmentTouchesBox, segmentTouchesBoxBy } from "../../shared/math/rayCast.js";
import type { OccluderPiece } from "./occluderPiece.js";

/** Grids with more cells than this get coarser cells instead (a few walls kilometres apart). */
const MAX_CELLS = 1 << 20;

/**
 * Meters every grid cell and piece box is widened by when a ray looks for what it may enter: far above
 * the rounding of the arithmetic that places a ray among them, far below anything a level is built of.
 * The outline test that follows is exact; this only keeps a rounding from skipping a piece.
 */
const SLACK = 1e-9;

/** Numbers in a piece's head, and where each sits in it (the box's min x, min y, max x, max y come first). */
const HEAD = 8;
const ACTIVE = 4;
const FOG = 5;
const START = 6;
const COUNT = 7;

/**
 * A snapshot of an {@link Occluders}' convex pieces in flat typed arrays, with a uniform grid over them:
 * what sight rays and the culling's disc-to-disc test read. Built when pieces are added (the `Occluders`
 * rebuilds it lazily, keeping every existing piece's index), never per tick. A door that opens or closes, a
 * smoke cloud that grows or thins and a piece removed for good change it in place: a piece that does not
 * block sight now is {@link isActive} false, and rays and gathers pass it by; a circle's radius is its
 * current one, its place in the grid sized for the largest it will have. Piece `k` is `pieceAt(k)`.
 * @internal
 */
export class PackedOccluders {
  /** Pieces held. */
  readonly size: number;
  private readonly pieces: readonly OccluderPiece[];
  /** Every piece's vertices, piece k's at `start .. start + count` (its head's {@link START}, {@link COUNT}). */
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  /**
   * Piece k's head: {@link HEAD} numbers at `HEAD * k`, its box (widened by a circle's largest radius),
   * whether it blocks sight now, whether it is fog, and where its vertices are. What a ray asks of a piece
   * it passes, side by side (64 bytes), where six arrays took six reads apart.
   */
  private readonly head: Float64Array;
  /**
   * A polygon's vertices, each with the outward unit normal of the edge it starts, as (x, y, nx, ny) at
   * `4 * (start + i)`: what a ray cast into it reads, together (0 for segments and circles).
   */
  readonly edges: Float64Array;
  private readonly radius: Float64Array;
  /** Sign of each outline's signed area: +1 for polygons (stored counter-clockwise), 0 for segments and circles. */
  private readonly winding: Int8Array;
  // Grid (CSR): cell c holds items[cellStart[c] .. cellStart[c + 1]).
  private readonly cellSize: number;
  private readonly originX: number;
  private readonly originY: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly cellStart: Int32Array;
  private readonly items: Int32Array;
  private readonly stamp: Int32Array;
  private stampNow = 0;
  /** What `gatherAlong` found, valid until its next call. */
  readonly gathered: Int32Array;
  private readonly range: [number, number, number, number] = [0, 0, 0, 0];

  constructor(pieces: readonly OccluderPiece[], cellSize: number) {
    const n = pieces.length;
    this.size = n;
    this.pieces = pieces;
    let vertices = 0;
    for (const p of pieces) vertices += p.xs.length;
    this.xs = new Float64Array(vertices);
    this.ys = new Float64Array(vertices);
    this.edges = new Float64Array(4 * vertices);
    this.head = new Float64Array(HEAD * n);
    this.radius = new Float64Array(n);
    this.winding = new Int8Array(n);
    this.stamp = new Int32Array(n);
    this.gathered = new Int32Array(n);
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    let v = 0;
    for (let k = 0; k < n; k++) {
      const p = pieces[k]!;
      p.index = k;
      const m = p.xs.length;
      const h = HEAD * k;
      this.head[h + START] = v;
      this.head[h + COUNT] = m;
      this.head[h + ACTIVE] = p.active ? 1 : 0;
      this.head[h + FOG] = p.fog ? 1 : 0;
      this.radius[k] = p.radius;
      this.winding[k] = m >= 3 ? 1 : 0;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      // A piece's outline never changes: its normals are made once, and every later snapshot (one per
      // piece added: each smoke grenade) copies them as they are.
      if (m >= 3 && p.normals === null) p.normals = outwardNormals(p.xs, p.ys);
      for (let i = 0; i < m; i++) {
        const x = p.xs[i]!;
        const y = p.ys[i]!;
        this.xs[v + i] = x;
        this.ys[v + i] = y;
        if (x < x0) x0 = x;
        if (y < y0) y0 = y;
        if (x > x1) x1 = x;
        if (y > y1) y1 = y;
      }
      if (m >= 3) {
        const normals = p.normals!;
        for (let i = 0, e = 4 * v; i < m; i++, e += 4) {
          this.edges[e] = p.xs[i]!;
          this.edges[e + 1] = p.ys[i]!;
          this.edges[e + 2] = normals[i]!;
          this.edges[e + 3] = normals[m + i]!;
        }
      }
      v += m;
      const r = p.maxRadius;
      this.head.set([x0 - r, y0 - r, x1 + r, y1 + r], h);
      [minX, minY, maxX, maxY] = [Math.min(minX, x0 - r), Math.min(minY, y0 - r), Math.max(maxX, x1 + r), Math.max(maxY, y1 + r)];
    }
    // No pieces: one empty cell at the origin (every query also returns early on `size === 0`).
    if (n === 0) minX = minY = maxX = maxY = 0;
    let cs = cellSize;
    while (Math.ceil((maxX - minX) / cs) * Math.ceil((maxY - minY) / cs) > MAX_CELLS) cs *= 2;
    this.cellSize = cs;
    this.originX = minX;
    this.originY = minY;
    this.columns = Math.max(1, Math.ceil((maxX - minX) / cs));
    this.rows = Math.max(1, Math.ceil((maxY - minY) / cs));
    const cells = this.columns * this.rows;
    const counts = new Int32Array(cells + 1);
    for (let k = 0; k < n; k++) this.eachCell(k, (c) => counts[c + 1]!++);
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.cellStart = counts.slice();
    const items = new Int32Array(counts[cells]!);
    const fill = counts.slice();
    for (let k = 0; k < n; k++) this.eachCell(k, (c) => { items[fill[c]!++] = k; });
    this.items = items;
  }

  /** The piece at index `k` of this snapshot. */
  pieceAt(k: number): OccluderPiece {
    return this.pieces[k]!;
  }

  /** Where piece `k`'s vertices start in {@link xs}, {@link ys} and {@link edges} (as vertex numbers). */
  vertexStart(k: number): number {
    return this.head[HEAD * k + START]!;
  }

  /** How many vertices piece `k` has: 1 for a circle, 2 for a segment, 3 or more for a polygon. */
  vertexCount(k: number): number {
    return this.head[HEAD * k + COUNT]!;
  }

  /** Whether piece `k` blocks sight now. */
  isActive(k: number): boolean {
    return this.head[HEAD * k + ACTIVE] === 1;
  }

  /** Follows piece `k` starting or stopping to block sight (its `Occluders` calls this). */
  setActive(k: number, on: boolean): void {
    this.head[HEAD * k + ACTIVE] = on ? 1 : 0;
  }

  /** Follows circle `k`'s radius, meters, at most the one its grid place was sized for. */
  setRadius(k: number, radius: number): void {
    this.radius[k] = radius;
  }

  /**
   * Collects into {@link gathered} (deduplicated) the active pieces whose bounding box the segment
   * (x1, y1)-(x2, y2) touches: the only ones that can hide anything across it. Returns how many.
   */
  gatherAlong(x1: number, y1: number, x2: number, y2: number): number {
    if (this.size === 0) return 0;
    const stamp = this.nextStamp();
    const [c0, r0, c1, r1] = this.cellRange(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
    const cs = this.cellSize;
    const dx = x2 - x1;
    const dy = y2 - y1;
    const out = this.gathered;
    let n = 0;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const bx = this.originX + c * cs;
        const by = this.originY + r * cs;
        if (!segmentTouchesBox(x1, y1, dx, dy, 1, bx, by, bx + cs, by + cs)) continue;
        const cell = r * this.columns + c;
        for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
          const k = this.items[i]!;
          if (this.stamp[k] === stamp) continue;
          this.stamp[k] = stamp;
          if (this.head[HEAD * k + ACTIVE] === 1 && this.touches(k, x1, y1, x2, y2)) out[n++] = k;
        }
      }
    }
    return n;
  }

  /**
   * The first active piece found that the segment (x1, y1) + t (dx, dy) enters at some t < maxFraction, or
   * -1: an any-hit sight ray. `solidOnly` passes smoke by (sound goes through it).
   *
   * The grid is walked column by column from the segment's start, and in each column only the rows the
   * segment spans there (widened by {@link SLACK}): a few cells for a ray that crosses many, and no test
   * per cell. Each piece is tested once: its box (with the ray's inverse direction, widened alike, so a
   * box is never missed by a rounding), then its outline. Which piece a blocked ray reports may be any of
   * those it enters.
   */
  firstBlocker(x1: number, y1: number, dx: number, dy: number, maxFraction: number, solidOnly = false): number {
    if (this.size === 0 || maxFraction <= 0) return -1;
    const x2 = x1 + dx * maxFraction;
    const y2 = y1 + dy * maxFraction;
    const cs = this.cellSize;
    const ox = this.originX;
    const oy = this.originY;
    const c0 = Math.max(0, Math.floor((Math.min(x1, x2) - SLACK - ox) / cs));
    const c1 = Math.min(this.columns - 1, Math.floor((Math.max(x1, x2) + SLACK - ox) / cs));
    const rMin = Math.max(0, Math.floor((Math.min(y1, y2) - SLACK - oy) / cs));
    const rMax = Math.min(this.rows - 1, Math.floor((Math.max(y1, y2) + SLACK - oy) / cs));
    if (c0 > c1 || rMin > rMax) return -1;
    const stamp = this.nextStamp();
    // Meters of y per meter of x along the segment; a column's rows are all the segment's rows where it
    // spans one column or is (about) upright.
    const slope = dy / dx;
    const byColumn = c0 !== c1 && Math.abs(slope) < Infinity;
    const invDx = 1 / dx;
    const invDy = 1 / dy;
    const forward = dx >= 0;
    for (let i = 0; i <= c1 - c0; i++) {
      const c = forward ? c0 + i : c1 - i;
      let rLo = rMin;
      let rHi = rMax;
      if (byColumn) {
        // The segment's y over this column's x span.
        const xa = Math.max(ox + c * cs, Math.min(x1, x2));
        const xb = Math.min(ox + (c + 1) * cs, Math.max(x1, x2));
        const ya = y1 + (xa - x1) * slope;
        const yb = y1 + (xb - x1) * slope;
        rLo = Math.max(rMin, Math.floor((Math.min(ya, yb) - SLACK - oy) / cs));
        rHi = Math.min(rMax, Math.floor((Math.max(ya, yb) + SLACK - oy) / cs));
      }
      for (let j = 0; j <= rHi - rLo; j++) {
        const cell = (dy >= 0 ? rLo + j : rHi - j) * this.columns + c;
        for (let it = this.cellStart[cell]!; it < this.cellStart[cell + 1]!; it++) {
          const k = this.items[it]!;
          if (this.stamp[k] === stamp || this.head[HEAD * k + ACTIVE] === 0) continue;
          this.stamp[k] = stamp;
          if (solidOnly && this.head[HEAD * k + FOG] === 1) continue;
          const h = HEAD * k;
          const head = this.head;
          if (!segmentTouchesBoxBy(x1, y1, dx, dy, invDx, invDy, maxFraction, head[h]! - SLACK, head[h + 1]! - SLACK, head[h + 2]! + SLACK, head[h + 3]! + SLACK)) continue;
          if (this.cast(k, x1, y1, dx, dy, maxFraction) !== MISS) return k;
        }
      }
    }
    return -1;
  }

  /**
   * The fraction at which the segment (x1, y1) + t (dx, dy) enters piece `k` strictly before
   * `maxFraction`, or {@link MISS}: Box2D's rules (see `shared/math/rayCast.ts`).
   */
  cast(k: number, x1: number, y1: number, dx: number, dy: number, maxFraction: number): number {
    const s = this.head[HEAD * k + START]!;
    const m = this.head[HEAD * k + COUNT]!;
    let t: number;
    if (m >= 3) t = castConvexPolygonAt(this.edges, s, m, x1, y1, dx, dy, maxFraction);
    else if (m === 2) t = castEdge(this.xs[s]!, this.ys[s]!, this.xs[s + 1]!, this.ys[s + 1]!, x1, y1, dx, dy, maxFraction);
    else if (this.head[HEAD * k + FOG] === 1) t = castFog(this.xs[s]!, this.ys[s]!, this.radius[k]!, x1, y1, dx, dy, maxFraction);
    else t = castCircle(this.xs[s]!, this.ys[s]!, this.radius[k]!, x1, y1, dx, dy, maxFraction);
    return t !== MISS && t < maxFraction ? t : MISS;
  }

  /** Whether the segment touches piece `k`'s bounding box. */
  touches(k: number, x1: number, y1: number, x2: number, y2: number): boolean {
    const b = HEAD * k;
    return segmentTouchesBox(x1, y1, x2 - x1, y2 - y1, 1, this.head[b]!, this.head[b + 1]!, this.head[b + 2]!, this.head[b + 3]!);
  }

  /**
   * Whether the segment touches piece `k` itself (not just its box). A piece that hides a whole disc from
   * a whole disc must cross the segment between their centres, so this cheap exact test rules out most
   * candidates before {@link margin}.
   */
  crosses(k: number, x1: number, y1: number, x2: number, y2: number): boolean {
    const start = this.head[HEAD * k + START]!;
    const n = this.head[HEAD * k + COUNT]!;
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
   * The fast path of {@link margin}: -Infinity when piece `k` hides all of disc B from the eye disc A,
   * otherwise a lower bound (>= `threshold`, meters) on its margin.
   */
  clearance(k: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number, threshold: number): number {
    const c = occlusionClearance(this.xs, this.ys, this.head[HEAD * k + START]!, this.head[HEAD * k + COUNT]!, this.radius[k]!, this.winding[k]!, ax, ay, ra, bx, by, rb, threshold);
    if (c >= threshold) return c;
    if (this.head[HEAD * k + FOG] === 1) return -Infinity;
    const inside = -this.outside(k, ax, ay);
    return inside >= threshold ? inside : -Infinity;
  }

  /**
   * Whether piece `k` hides disc B from the eye disc A (centre (ax, ay)): the {@link occlusionMargin} of the
   * two discs, <= 0 when every segment between them crosses the piece, except that an eye whose centre is
   * inside a solid piece sees out of it, as sight rays do (a door shut on a guard, a character put into a
   * wall): the margin is never below minus the piece's {@link outside} distance. Fog (a smoke cloud) has
   * no such exception: an eye inside it sees nothing out of it. Both terms are 1-Lipschitz
   * in the centres, so the result is too (the culling's travel allowances rest on that).
   */
  margin(k: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number): number {
    const m = occlusionMargin(this.xs, this.ys, this.head[HEAD * k + START]!, this.head[HEAD * k + COUNT]!, this.radius[k]!, ax, ay, ra, bx, by, rb, undefined, this.winding[k]!);
    // Fog hides from an eye inside it too: no way out of it for sight.
    if (this.head[HEAD * k + FOG] === 1) return m;
    const inside = -this.outside(k, ax, ay);
    return inside > m ? inside : m;
  }

  /**
   * How far (meters) the point is outside piece `k` as sight rays see it: <= 0 inside a polygon (its bare
   * outline, as {@link cast} tests it) or a circle, whose rays from inside it do not hit; Infinity for a
   * segment, which has no inside and blocks from both sides. Outside a polygon it is the largest distance
   * past any edge's line, a lower bound on the distance to it: 1-Lipschitz in the point, either way.
   */
  outside(k: number, x: number, y: number): number {
    const start = this.head[HEAD * k + START]!;
    const n = this.head[HEAD * k + COUNT]!;
    const xs = this.xs;
    const ys = this.ys;
    if (n === 1) return Math.sqrt((x - xs[start]!) ** 2 + (y - ys[start]!) ** 2) - this.radius[k]!;
    if (n === 2) return Infinity;
    // The unit outward normals the ray casts use.
    const edges = this.edges;
    let most = -Infinity;
    for (let e = 4 * start; e < 4 * (start + n); e += 4) {
      const d = edges[e + 2]! * (x - edges[e]!) + edges[e + 3]! * (y - edges[e + 1]!);
      if (d > most) most = d;
    }
    return most;
  }

  /**
   * {@link firstBlocker} of solid pieces, passing by the first `count` of `skip` (cleared already by the
   * caller): stamped with the walk's stamp ahead of it, they cost the walk nothing more.
   */
  firstBlockerPassing(skip: Int32Array, count: number, x1: number, y1: number, dx: number, dy: number): number {
    const next = this.stampNow === 0x7fffffff ? 1 : this.stampNow + 1;
    for (let i = 0; i < count; i++) this.stamp[skip[i]!] = next;
    const found = this.firstBlocker(x1, y1, dx, dy, 1, true);
    // A walk that returned before taking its stamp leaves none of them for the next one.
    if (this.stampNow !== next) for (let i = 0; i < count; i++) this.stamp[skip[i]!] = 0;
    return found;
  }

  private nextStamp(): number {
    if (this.stampNow === 0x7fffffff) {
      this.stamp.fill(0);
      this.stampNow = 0;
    }
    return ++this.stampNow;
  }

  private eachCell(k: number, visit: (c: number) => void): void {
    const h = HEAD * k;
    const [c0, r0, c1, r1] = this.cellRange(this.head[h]!, this.head[h + 1]!, this.head[h + 2]!, this.head[h + 3]!);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * this.columns + c);
  }

  /** Grid cells (clamped) covering a box: [c0, r0, c1, r1]; empty (c0 > c1) when outside the grid. */
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
