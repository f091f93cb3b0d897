import { MISS } from "../../shared/math/rayCast.js";
import type { PackedOccluders } from "../occluders/packedOccluders.js";
import { searchCorners } from "./cornerSearch.js";
import { ConvexWrap, NOT_OUTSIDE } from "./convexWrap.js";

/**
 * How far outside a corner the way around a piece passes, meters: enough for a ray along it to miss the
 * piece by the cast's own rules, and little enough that the way stays exact for a sound's purposes.
 */
const CLEARANCE = 1e-3;

/** Pieces a way is worked out around before the grid search is left to it (a maze needs the grid). */
const MAX_PIECES = 4;

/** What {@link PieceDetour.around} returns when it cannot tell: the caller searches the grid. */
export const UNDECIDED = -1;

/**
 * The shortest way between two points around the few pieces in the way, found without the grid: a
 * visibility graph over the corners of only the pieces that stop it, grown as they are met. It starts
 * with the piece that stopped the straight line; the shortest way around the pieces so far is then
 * checked leg by leg against every piece, and a piece that stops a leg joins them. A way all of whose legs
 * are clear is the shortest there is (no way can be shorter than the shortest around some of the pieces
 * it must pass, and this one is real), to within a millimetre a corner; and when even the way around the
 * pieces so far is longer than the bound, so is every way (to the same millimetre a corner). So a crate,
 * a pillar, a lone wall or a few walls between a noise and an ear cost a handful of casts, and the answer
 * is exact.
 *
 * Undecided (the caller searches the grid) past {@link MAX_PIECES} pieces, or when a circle is in the
 * way (its way round is an arc, not legs a ray can check).
 * @internal
 */
export class PieceDetour {
  /** Direction of the way's first leg from (a), a unit vector, after a decided {@link around} that found one. */
  dirX = 1;
  dirY = 0;
  /** The pieces so far. */
  private readonly pieces = new Int32Array(MAX_PIECES);
  private count = 0;
  /** Nodes: 0 is (a), 1 is (b), then each piece's corners moved {@link CLEARANCE} outward. */
  private x = new Float64Array(2 + 8 * MAX_PIECES);
  private y = new Float64Array(2 + 8 * MAX_PIECES);
  private g = new Float64Array(2 + 8 * MAX_PIECES);
  /** Each node's straight line to (b): what A* is guided by. */
  private h = new Float64Array(2 + 8 * MAX_PIECES);
  private from = new Int32Array(2 + 8 * MAX_PIECES);
  private done = new Uint8Array(2 + 8 * MAX_PIECES);
  private nodes = 0;
  /** The occluders of the search under way (read by {@link clearSoFar}). */
  private packedNow: PackedOccluders | null = null;
  private readonly wrap = new ConvexWrap();
  /** The way found, from (b) back to (a), as node indices. */
  private way = new Int32Array(2 + 8 * MAX_PIECES);

  /**
   * Meters of the shortest way from (ax, ay) to (bx, by) around what stops sound, given that piece `k`
   * of `packed` stops the straight line: Infinity if it is longer than `bound`, {@link UNDECIDED} if this
   * cannot tell. Both ends must be outside every piece (an end inside one is first taken out of it, see
   * `WayOut`): a ray from inside a piece passes that piece by. The leg from (a) is cast from (a), the leg
   * into (b) from (b); a leg between two corners is cast from both ends.
   */
  around(packed: PackedOccluders, k: number, ax: number, ay: number, bx: number, by: number, bound: number): number {
    this.count = 0;
    this.nodes = 2;
    this.x[0] = ax;
    this.y[0] = ay;
    this.x[1] = bx;
    this.y[1] = by;
    let blocker = k;
    for (;;) {
      if (this.count === MAX_PIECES || !this.addPiece(packed, blocker)) return UNDECIDED;
      // Round one polygon, its tangents give the way in a pass; more pieces, or an end within a millimetre
      // of one (inside its corners' outline), are searched.
      const one = this.count === 1 ? this.wrapFirst(packed, bound) : NOT_OUTSIDE;
      const length = one !== NOT_OUTSIDE ? one : this.search(packed, bound);
      if (length === Infinity) return Infinity;
      blocker = this.firstStoppedLeg(packed);
      if (blocker < 0) return length;
    }
  }

  /** Adds piece `k`'s corners as nodes; false for a circle. */
  private addPiece(packed: PackedOccluders, k: number): boolean {
    const m = nodesOf(packed.vertexCount(k));
    if (m === 0) return false;
    this.pieces[this.count++] = k;
    if (this.nodes + m > this.x.length) this.grow(this.nodes + m);
    cornersInto(packed, k, m, this.x, this.y, this.nodes);
    this.nodes += m;
    return true;
  }

  /**
   * The way round the first piece alone when it is a polygon and both ends are outside its corners
   * (see `ConvexWrap`), left in {@link from} as a search would leave it; {@link NOT_OUTSIDE} otherwise.
   */
  private wrapFirst(packed: PackedOccluders, bound: number): number {
    const m = packed.vertexCount(this.pieces[0]!);
    if (m < 3) return NOT_OUTSIDE;
    const wrap = this.wrap;
    const length = wrap.around(this.x, this.y, 2, m, this.x[0]!, this.y[0]!, this.x[1]!, this.y[1]!, bound);
    if (length === NOT_OUTSIDE || length === Infinity) return length;
    let previous = 0;
    for (let i = 0; i < wrap.count; i++) {
      const node = 2 + wrap.way[i]!;
      this.from[node] = previous;
      previous = node;
    }
    this.from[1] = previous;
    return length;
  }

  /**
   * The shortest way from (a) to (b) over the nodes, an edge taken where no piece so far stops it, cut
   * off at `bound`; returns the length and leaves the way in {@link from}, or Infinity.
   */
  private search(packed: PackedOccluders, bound: number): number {
    const n = this.nodes;
    const x = this.x;
    const y = this.y;
    for (let i = 0; i < n; i++) this.h[i] = Math.sqrt((x[i]! - x[1]!) ** 2 + (y[i]! - y[1]!) ** 2);
    this.packedNow = packed;
    return searchCorners(n, x, y, this.h, bound, this.clearSoFar, this.g, this.done, this.from);
  }

  /** Whether no piece so far stops the edge from node u to node v (the leg into (b) cast from (b)). */
  private readonly clearSoFar = (u: number, v: number): boolean => {
    const x = this.x;
    const y = this.y;
    const packed = this.packedNow!;
    // The straight line is what `k` stops, as cast from (a) (a ray grazing a seam may read otherwise from (b)).
    if (u === 0 && v === 1) return false;
    return v === 1 ? !this.stopsSoFar(packed, x[1]!, y[1]!, x[u]!, y[u]!) : !this.stopsSoFar(packed, x[u]!, y[u]!, x[v]!, y[v]!);
  };

  /** Whether a piece so far stops the segment cast from (x1, y1) to (x2, y2). */
  private stopsSoFar(packed: PackedOccluders, x1: number, y1: number, x2: number, y2: number): boolean {
    for (let i = 0; i < this.count; i++) if (packed.cast(this.pieces[i]!, x1, y1, x2 - x1, y2 - y1, 1) !== MISS) return true;
    return false;
  }

  /**
   * Checks the way just found against every piece that stops sound: the first piece that stops a leg
   * (which is not one so far), or -1 when every leg is clear; then sets the first leg's direction.
   */
  private firstStoppedLeg(packed: PackedOccluders): number {
    const x = this.x;
    const y = this.y;
    let n = 0;
    for (let v = 1; v !== 0; v = this.from[v]!) this.way[n++] = v;
    this.way[n++] = 0;
    // The way runs from (a) at way[n - 1] to (b) at way[0].
    for (let i = n - 1; i > 0; i--) {
      const u = this.way[i]!;
      const v = this.way[i - 1]!;
      // Cast the way it was found, a leg is clear of the pieces so far (the search cast it so against them;
      // the way round one polygon passes outside its corners): that cast passes them by. Between two
      // corners it is cast back too, at every piece: a ray that only starts or ends on a piece's outline,
      // or starts inside one (pieces overlap), does not count as crossing it, so a corner on or in another
      // piece is caught from the far end. The legs from (a) and into (b) are cast from those ends, which
      // lie outside every piece.
      let hit = v === 1
        ? packed.firstBlockerPassing(this.pieces, this.count, x[1]!, y[1]!, x[u]! - x[1]!, y[u]! - y[1]!)
        : packed.firstBlockerPassing(this.pieces, this.count, x[u]!, y[u]!, x[v]! - x[u]!, y[v]! - y[u]!);
      if (hit < 0 && v !== 1 && u !== 0) hit = packed.firstBlocker(x[v]!, y[v]!, x[u]! - x[v]!, y[u]! - y[v]!, 1, true);
      if (hit >= 0) return hit;
    }
    const v = this.way[n - 2]!;
    const len = Math.sqrt((x[v]! - x[0]!) ** 2 + (y[v]! - y[0]!) ** 2);
    this.dirX = len > 0 ? (x[v]! - x[0]!) / len : 1;
    this.dirY = len > 0 ? (y[v]! - y[0]!) / len : 0;
    return -1;
  }

  private grow(n: number): void {
    const size = Math.max(n, 2 * this.x.length);
    const x = new Float64Array(size);
    x.set(this.x);
    const y = new Float64Array(size);
    y.set(this.y);
    this.x = x;
    this.y = y;
    this.g = new Float64Array(size);
    this.h = new Float64Array(size);
    this.from = new Int32Array(size);
    this.done = new Uint8Array(size);
    this.way = new Int32Array(size);
  }
}

/**
 * Writes piece `k`'s `m` nodes (see {@link nodesOf}) into `x`, `y` from `at`, from the packed outline: made
 * afresh at each detour from the vertices and edge normals a ray cast reads anyway, where a copy kept per
 * piece was one more scattered object to fetch.
 */
function cornersInto(packed: PackedOccluders, k: number, m: number, x: Float64Array, y: Float64Array, at: number): void {
  const s = packed.vertexStart(k);
  const xs = packed.xs;
  const ys = packed.ys;
  if (m >= 3) {
    // Each corner out along the bisector of its two edges' outward normals (counter-clockwise outline).
    const edges = packed.edges;
    for (let i = 0; i < m; i++) {
      const before = 4 * (s + (i === 0 ? m - 1 : i - 1));
      const after = 4 * (s + i);
      const ox = edges[before + 2]! + edges[after + 2]!;
      const oy = edges[before + 3]! + edges[after + 3]!;
      const len = Math.sqrt(ox * ox + oy * oy);
      x[at + i] = xs[s + i]! + (CLEARANCE * ox) / len;
      y[at + i] = ys[s + i]! + (CLEARANCE * oy) / len;
    }
    return;
  }
  // A segment: two nodes past each end, one each side of its line. Not on the line itself: a wall drawn as
  // segments end to end (a planck chain, a Tiled polyline) would have the node on the next segment, where
  // a ray ending or starting there does not count as crossing it.
  const x0 = xs[s]!;
  const y0 = ys[s]!;
  const x1 = xs[s + 1]!;
  const y1 = ys[s + 1]!;
  const ex = x1 - x0;
  const ey = y1 - y0;
  const len = Math.sqrt(ex * ex + ey * ey);
  const ux = (CLEARANCE * ex) / len;
  const uy = (CLEARANCE * ey) / len;
  x[at] = x0 - ux - uy;
  y[at] = y0 - uy + ux;
  x[at + 1] = x0 - ux + uy;
  y[at + 1] = y0 - uy - ux;
  x[at + 2] = x1 + ux + uy;
  y[at + 2] = y1 + uy - ux;
  x[at + 3] = x1 + ux - uy;
  y[at + 3] = y1 + uy + ux;
}

/** Nodes a piece of `vertices` vertices brings: its corners (a polygon), four (a segment), none (a circle). */
function nodesOf(vertices: number): number {
  return vertices >= 3 ? vertices : vertices === 2 ? 4 : 0;
}
