/** What {@link ConvexWrap.around} returns when it cannot tell (an end is not outside the outline). */
export const NOT_OUTSIDE = -1;

/**
 * The shortest way between two points around one convex outline that stops the straight line between
 * them, worked out from the outline's tangents rather than searched: from each end, the corners it sees
 * are a run of the outline, and the way leaves (a) at one end of its run, follows the outline the side
 * away from (a), and goes to (b) from the first corner of (b)'s run it meets. Of the two sides, the
 * shorter. The same way a search over the corners finds (each leg of it is clear of the outline, and no
 * way round the outline is shorter), in a pass over the corners, where the search casts a ray per pair of
 * corners it weighs. A crate or a pillar between a noise and a listener is the common detour.
 * @internal
 */
export class ConvexWrap {
  /** The corners of the way found, in order from (a): indices into the outline. */
  way = new Int32Array(16);
  /** How many of {@link way} are the way's. */
  count = 0;
  /** Which edges each end sees (edge i runs from corner i to i + 1). */
  private seenA = new Uint8Array(16);
  private seenB = new Uint8Array(16);

  /**
   * Meters of the way from (ax, ay) to (bx, by) around the convex outline of `m` corners at
   * `xs[start + i]`, `ys[start + i]`, counter-clockwise, whose straight line the outline stops: Infinity
   * if both sides are longer than `bound`, {@link NOT_OUTSIDE} if either end is not strictly outside the
   * outline (on it, or inside: a body pressed into a wall), where tangents say nothing.
   */
  around(xs: Float64Array, ys: Float64Array, start: number, m: number, ax: number, ay: number, bx: number, by: number, bound: number): number {
    if (this.way.length < m) {
      this.way = new Int32Array(2 * m);
      this.seenA = new Uint8Array(2 * m);
      this.seenB = new Uint8Array(2 * m);
    }
    // Each end's run of corners: it sees edge i when strictly on its outer side, and on a convex outline
    // the edges seen form one run, from its first corner to its last (the corner past its last edge).
    seenEdges(xs, ys, start, m, ax, ay, this.seenA);
    seenEdges(xs, ys, start, m, bx, by, this.seenB);
    const fa = runEdge(this.seenA, m, 1);
    const la = runEdge(this.seenA, m, 0);
    const fb = runEdge(this.seenB, m, 1);
    const lb = runEdge(this.seenB, m, 0);
    if (fa < 0 || la < 0 || fb < 0 || lb < 0) return NOT_OUTSIDE;
    // Counter-clockwise from (a)'s last corner, or clockwise from its first, until a corner (b) sees.
    const ccw = sideLength(xs, ys, start, m, ax, ay, bx, by, la, 1, fb, lb, bound);
    const cw = sideLength(xs, ys, start, m, ax, ay, bx, by, fa, m - 1, fb, lb, Math.min(bound, ccw));
    if (ccw === Infinity && cw === Infinity) return Infinity;
    const clockwise = cw < ccw;
    const step = clockwise ? m - 1 : 1;
    let n = 0;
    for (let j = clockwise ? fa : la; ; j = (j + step) % m) {
      this.way[n++] = j;
      if (inRun(j, fb, lb, m)) break;
    }
    this.count = n;
    return clockwise ? cw : ccw;
  }
}

/** Meters of one side's way (corners from `from` by `step`, until one in (b)'s run), or Infinity past `bound`. */
function sideLength(
  xs: Float64Array, ys: Float64Array, start: number, m: number, ax: number, ay: number, bx: number, by: number,
  from: number, step: number, fb: number, lb: number, bound: number,
): number {
  let j = from;
  let length = Math.sqrt((xs[start + j]! - ax) ** 2 + (ys[start + j]! - ay) ** 2);
  for (let walked = 0; !inRun(j, fb, lb, m); walked++) {
    if (walked === m || length > bound) return Infinity;
    const next = (j + step) % m;
    length += Math.sqrt((xs[start + next]! - xs[start + j]!) ** 2 + (ys[start + next]! - ys[start + j]!) ** 2);
    j = next;
  }
  length += Math.sqrt((xs[start + j]! - bx) ** 2 + (ys[start + j]! - by) ** 2);
  return length > bound ? Infinity : length;
}

/** Whether corner `j` lies in the run from `first` to `last`, counter-clockwise (both ends included). */
function inRun(j: number, first: number, last: number, m: number): boolean {
  return (j - first + m) % m <= (last - first + m) % m;
}

/** Marks in `seen` each edge i (corner i to i + 1) the point is strictly on the outer side of. */
function seenEdges(xs: Float64Array, ys: Float64Array, start: number, m: number, px: number, py: number, seen: Uint8Array): void {
  for (let i = 0; i < m; i++) {
    const j = i + 1 === m ? 0 : i + 1;
    const x0 = xs[start + i]!;
    const y0 = ys[start + i]!;
    seen[i] = (xs[start + j]! - x0) * (py - y0) - (ys[start + j]! - y0) * (px - x0) < 0 ? 1 : 0;
  }
}

/**
 * The corner where the one run of seen edges starts (`here` 1: edge i seen, edge i - 1 not) or ends (`here`
 * 0: edge i - 1 seen, edge i not), or -1 if there is none or several.
 */
function runEdge(seen: Uint8Array, m: number, here: number): number {
  let found = -1;
  for (let i = 0; i < m; i++) {
    if (seen[i] !== here || seen[i === 0 ? m - 1 : i - 1] === here) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}
