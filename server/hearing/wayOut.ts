import type { PackedOccluders } from "../occluders/packedOccluders.js";

/**
 * Meters past a piece's outline an end inside it is set down: strictly outside, so that a ray from there
 * into the piece meets it (a ray from on or in an outline passes it by), and far above the rounding of
 * coordinates kilometres from the origin.
 */
export const OUT_CLEARANCE = 1e-6;

/**
 * Times an end is taken out of a piece when every way out of it lands in another (a thick wall of
 * overlapping pieces) before it counts as buried: no sound reaches it, none leaves it.
 */
const MAX_STEPS = 3;

/** Meters within which two ways out count as equally near (the rounding of a point's depth in a piece). */
const TIE = 1e-9;

/**
 * The rule for an end (a noise, a listener) inside a piece that stops sound, a body pressed into a wall or
 * a noise made in a pillar: sound does not cross the piece from it, it leaves through the nearest point of
 * the piece's outline, and the way is counted from the end. Rays from inside a piece pass that piece by,
 * so without this an end 1 cm inside a wall would hear straight through it.
 *
 * Concretely: of the points just outside each edge of each piece the end is in (its foot on the edge's
 * line, {@link OUT_CLEARANCE} out) or just outside a circle (straight out from its centre; from the very
 * centre, toward the other end), the nearest that lies inside no piece; ties (to a nanometre) go to the one
 * nearer the other end. When each lies in another piece, the nearest is taken and the rule applied again from there, up to
 * {@link MAX_STEPS} times. On a polygon the nearest such point is the nearest point of its outline. Both
 * `Hearing` and the audit's exact answer apply it, through this, to the same occluders, so they agree on
 * where a way from inside a piece starts. "Inside" is as rays see it: on or within a polygon's or a
 * circle's outline (a segment has no inside; smoke does not stop sound).
 * @internal
 */
export class WayOut {
  /** Where the way starts, after {@link from}: the end itself when it is inside no piece. */
  x = 0;
  y = 0;
  /** The pieces the point being taken out is inside. */
  private inside = new Int32Array(8);
  /** Candidate points out, and their distance from the point. */
  private cx = new Float64Array(32);
  private cy = new Float64Array(32);
  private cd = new Float64Array(32);
  /** Each candidate's distance to the other end: what breaks ties. */
  private ct = new Float64Array(32);
  private tried = new Uint8Array(32);

  /**
   * Meters from (px, py) to where its way out of the pieces of `packed` it is inside starts (0 when it is
   * inside none; Infinity when it is buried), leaving that point in {@link x}, {@link y}. (towardX,
   * towardY) is the other end of the way.
   */
  from(packed: PackedOccluders, px: number, py: number, towardX: number, towardY: number): number {
    let x = px;
    let y = py;
    let walked = 0;
    for (let steps = 0; ; steps++) {
      const n = this.collectInside(packed, x, y);
      if (n === 0) {
        this.x = x;
        this.y = y;
        return walked;
      }
      if (steps === MAX_STEPS) return Infinity;
      const m = this.candidates(packed, n, x, y, towardX, towardY);
      let nearest = -1;
      for (;;) {
        const i = this.nearestUntried(m);
        if (i < 0) break;
        if (nearest < 0) nearest = i;
        if (!this.insideAny(packed, this.cx[i]!, this.cy[i]!)) {
          this.x = this.cx[i]!;
          this.y = this.cy[i]!;
          return walked + this.cd[i]!;
        }
        this.tried[i] = 1;
      }
      // Every way out of these lands in another piece: out of the nearest, then out of what it lands in.
      walked += this.cd[nearest]!;
      x = this.cx[nearest]!;
      y = this.cy[nearest]!;
    }
  }

  /** The solid pieces the point is inside, into {@link inside}; returns how many. */
  private collectInside(packed: PackedOccluders, x: number, y: number): number {
    const g = gatherAt(packed, x, y);
    let n = 0;
    for (let i = 0; i < g; i++) {
      const k = packed.gathered[i]!;
      if (packed.pieceAt(k).fog || !(packed.outside(k, x, y) <= 0)) continue;
      if (n === this.inside.length) {
        const grown = new Int32Array(2 * n);
        grown.set(this.inside);
        this.inside = grown;
      }
      this.inside[n++] = k;
    }
    return n;
  }

  /** Whether the point is inside any solid piece. */
  private insideAny(packed: PackedOccluders, x: number, y: number): boolean {
    const g = gatherAt(packed, x, y);
    for (let i = 0; i < g; i++) {
      const k = packed.gathered[i]!;
      if (!packed.pieceAt(k).fog && packed.outside(k, x, y) <= 0) return true;
    }
    return false;
  }

  /** The points just outside each edge (or circle) of the `n` pieces the point is in; returns how many. */
  private candidates(packed: PackedOccluders, n: number, x: number, y: number, tx: number, ty: number): number {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const k = this.inside[i]!;
      const s = packed.vertexStart(k);
      const count = packed.vertexCount(k);
      this.room(m + count);
      if (count === 1) {
        const ox = packed.xs[s]!;
        const oy = packed.ys[s]!;
        // The radius as rays read it: the centre is that far inside.
        const r = -packed.outside(k, ox, oy);
        let ux = x - ox;
        let uy = y - oy;
        let len = Math.sqrt(ux * ux + uy * uy);
        // From the very centre every way out is as near: the one toward the other end.
        if (len === 0) {
          ux = tx - ox;
          uy = ty - oy;
          len = Math.sqrt(ux * ux + uy * uy);
          if (len === 0) {
            ux = 1;
            len = 1;
          }
        }
        m = this.add(m, ox + (ux / len) * (r + OUT_CLEARANCE), oy + (uy / len) * (r + OUT_CLEARANCE), x, y, tx, ty);
        continue;
      }
      // Each edge's outward unit normal, as rays read it: the foot on its line, moved out.
      const edges = packed.edges;
      for (let e = 4 * s; e < 4 * (s + count); e += 4) {
        const nx = edges[e + 2]!;
        const ny = edges[e + 3]!;
        const depth = -(nx * (x - edges[e]!) + ny * (y - edges[e + 1]!));
        m = this.add(m, x + nx * (depth + OUT_CLEARANCE), y + ny * (depth + OUT_CLEARANCE), x, y, tx, ty);
      }
    }
    return m;
  }

  private add(m: number, qx: number, qy: number, x: number, y: number, tx: number, ty: number): number {
    this.cx[m] = qx;
    this.cy[m] = qy;
    this.cd[m] = Math.sqrt((qx - x) ** 2 + (qy - y) ** 2);
    this.ct[m] = Math.sqrt((qx - tx) ** 2 + (qy - ty) ** 2);
    this.tried[m] = 0;
    return m + 1;
  }

  /**
   * The nearest candidate not yet tried, or -1. Of those as near to within {@link TIE} (an end midway
   * between two faces), the one nearer the other end: a body in the middle of a wall hears the side the
   * noise is on.
   */
  private nearestUntried(m: number): number {
    let least = Infinity;
    for (let i = 0; i < m; i++) if (this.tried[i] === 0 && this.cd[i]! < least) least = this.cd[i]!;
    let best = -1;
    for (let i = 0; i < m; i++) {
      if (this.tried[i] === 1 || this.cd[i]! > least + TIE) continue;
      if (best < 0 || this.ct[i]! < this.ct[best]!) best = i;
    }
    return best;
  }

  /** Makes room for `size` candidates (a piece of many corners, or several pieces overlapping). */
  private room(size: number): void {
    if (size <= this.cx.length) return;
    const cx = new Float64Array(2 * size);
    cx.set(this.cx);
    const cy = new Float64Array(2 * size);
    cy.set(this.cy);
    const cd = new Float64Array(2 * size);
    cd.set(this.cd);
    const ct = new Float64Array(2 * size);
    ct.set(this.ct);
    const tried = new Uint8Array(2 * size);
    tried.set(this.tried);
    this.cx = cx;
    this.cy = cy;
    this.cd = cd;
    this.ct = ct;
    this.tried = tried;
  }
}

/**
 * Gathers the pieces whose box holds the point: along a short diagonal through it, since a point on the
 * occluders' far edge (the top of the highest wall) is on no cell of their grid.
 */
function gatherAt(packed: PackedOccluders, x: number, y: number): number {
  const e = 1e-9 * (1 + Math.abs(x) + Math.abs(y));
  return packed.gatherAlong(x - e, y - e, x + e, y + e);
}
