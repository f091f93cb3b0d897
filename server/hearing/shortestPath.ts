import { Occluders } from "../occluders/occluders.js";
import { emptyBounds, growBounds, type OccluderPiece } from "../occluders/occluderPiece.js";
import { fail, finite, inRange } from "../../shared/validation/rangeChecks.js";
import { blocksSound } from "./soundGrid.js";
import { searchCorners } from "./cornerSearch.js";
import { WayOut } from "./wayOut.js";

/** Sides of the polygon a circle is replaced by between the ends (inscribed, so the answer stays a lower bound). */
const CIRCLE_SIDES = 16;
/** A segment must run this far (meters) inside an obstacle to be stopped by it: grazing is free. */
const INSIDE = 1e-7;

interface Obstacle {
  xs: number[];
  ys: number[];
  /** A wall with no thickness (two vertices): stopped only by crossing it. */
  thin: boolean;
}

const WAY_OUT = new WayOut();

/**
 * The length of the shortest way from a to b (meters) around everything that stops sound, or Infinity
 * when it is longer than `bound` meters (Infinity for no cap): a visibility graph over the obstacles'
 * corners near the two points, searched with A*. Slow and exact in the direction that matters for an
 * audit: never longer than the way `Hearing` reports, as no real way around the pieces is shorter (circles
 * are replaced by inscribed polygons and grazing a corner is free), so a noise delivered beyond it was
 * certainly out of earshot. An end inside a piece leaves it by the rule `Hearing` follows (see `WayOut`:
 * through the nearest point of the real outline, a circle's too), the way counted from the end. Reads the
 * occluders as they are now.
 * @throws RangeError naming the field of occluders that are not an `Occluders`, a coordinate that is not
 * a finite number, or a `bound` that is not a number > 0
 * @internal
 */
export function shortestSoundPath(occluders: Occluders, ax: number, ay: number, bx: number, by: number, bound: number): number {
  if (!(occluders instanceof Occluders)) fail("shortestSoundPath occluders", "must be an Occluders (from sightline/occluders)", occluders);
  finite("shortestSoundPath ax", ax, "meters");
  finite("shortestSoundPath ay", ay, "meters");
  finite("shortestSoundPath bx", bx, "meters");
  finite("shortestSoundPath by", by, "meters");
  inRange("shortestSoundPath bound", bound, 0, Infinity, "meters", "(]");
  const straight = Math.hypot(bx - ax, by - ay);
  if (straight > bound) return Infinity;
  // One point (as `Hearing` squares it: closer than 1e-162 m), nothing between it and itself, wherever it is.
  if ((bx - ax) * (bx - ax) + (by - ay) * (by - ay) === 0) return 0;
  const packed = occluders.packed;
  const outOfA = WAY_OUT.from(packed, ax, ay, bx, by);
  if (outOfA > bound) return Infinity;
  const sx = WAY_OUT.x;
  const sy = WAY_OUT.y;
  const walked = outOfA + WAY_OUT.from(packed, bx, by, ax, ay);
  if (walked > bound) return Infinity;
  return walked + wayBetween(occluders, sx, sy, WAY_OUT.x, WAY_OUT.y, bound - walked);
}

/** {@link shortestSoundPath} between two ends outside every piece. */
function wayBetween(occluders: Occluders, ax: number, ay: number, bx: number, by: number, bound: number): number {
  const straight = Math.hypot(bx - ax, by - ay);
  if (straight > bound) return Infinity;
  // Every point of a way no longer than `bound` lies within `bound` of both ends.
  const minX = Math.max(ax, bx) - bound;
  const maxX = Math.min(ax, bx) + bound;
  const minY = Math.max(ay, by) - bound;
  const maxY = Math.min(ay, by) + bound;
  const obstacles: Obstacle[] = [];
  for (const piece of occluders.allPieces()) {
    if (blocksSound(piece) && pieceNear(piece, minX, minY, maxX, maxY)) obstacles.push(obstacleOf(piece));
  }
  if (obstacles.length === 0 || clear(obstacles, ax, ay, bx, by)) return straight;
  const xs = [ax, bx];
  const ys = [ay, by];
  for (const o of obstacles) {
    for (let i = 0; i < o.xs.length; i++) {
      const x = o.xs[i]!;
      const y = o.ys[i]!;
      if (Math.hypot(x - ax, y - ay) + Math.hypot(x - bx, y - by) <= bound) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  const n = xs.length;
  const h = Float64Array.from(xs, (x, i) => Math.hypot(x - bx, ys[i]! - by));
  return searchCorners(n, xs, ys, h, bound, (u, v) => clear(obstacles, xs[u]!, ys[u]!, xs[v]!, ys[v]!), new Float64Array(n), new Uint8Array(n), new Int32Array(n));
}

function obstacleOf(piece: OccluderPiece): Obstacle {
  if (piece.xs.length === 1) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < CIRCLE_SIDES; i++) {
      const a = (2 * Math.PI * i) / CIRCLE_SIDES;
      xs.push(piece.xs[0]! + piece.radius * Math.cos(a));
      ys.push(piece.ys[0]! + piece.radius * Math.sin(a));
    }
    return { xs, ys, thin: false };
  }
  return { xs: [...piece.xs], ys: [...piece.ys], thin: piece.xs.length === 2 };
}

/** Whether a piece's bounding box (a circle's included) meets the box: the only pieces worth turning into obstacles. */
function pieceNear(piece: OccluderPiece, minX: number, minY: number, maxX: number, maxY: number): boolean {
  const box = emptyBounds(NEAR);
  growBounds(box, piece, piece.xs.length === 1 ? piece.radius : 0);
  return box.maxX >= minX && box.minX <= maxX && box.maxY >= minY && box.minY <= maxY;
}

const NEAR = emptyBounds();

function clear(obstacles: readonly Obstacle[], x1: number, y1: number, x2: number, y2: number): boolean {
  for (const o of obstacles) {
    if (o.thin ? crossesThin(o, x1, y1, x2, y2) : runsThrough(obstacles, o, x1, y1, x2, y2)) return false;
  }
  return true;
}

/**
 * Whether the segment runs through the inside of the obstacles at `o`: more than a graze of `o`'s
 * interior, or along `o`'s edge where another obstacle lies on the other side (the seam between two
 * rectangles of one thick wall is not a way through it).
 */
function runsThrough(obstacles: readonly Obstacle[], o: Obstacle, x1: number, y1: number, x2: number, y2: number): boolean {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy);
  if (len === 0) return false;
  // Cyrus-Beck against the closed polygon.
  let t0 = 0;
  let t1 = 1;
  const n = o.xs.length;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const nx = o.ys[j]! - o.ys[i]!;
    const ny = o.xs[i]! - o.xs[j]!;
    const num = nx * (x1 - o.xs[i]!) + ny * (y1 - o.ys[i]!);
    const den = nx * dx + ny * dy;
    if (Math.abs(den) < 1e-15) {
      if (num > 1e-12 * Math.hypot(nx, ny)) return false;
      continue;
    }
    const t = -num / den;
    if (den < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if ((t1 - t0) * len <= INSIDE) return false;
  }
  if ((t1 - t0) * len <= INSIDE) return false;
  const t = (t0 + t1) / 2;
  const mx = x1 + t * dx;
  const my = y1 + t * dy;
  if (inside(o, mx, my, -1e-9)) return true;
  // Along an edge: stopped only if both sides of it are obstacle.
  const side = 1e-6 / len;
  return insideAny(obstacles, mx - dy * side, my + dx * side) && insideAny(obstacles, mx + dy * side, my - dx * side);
}

function insideAny(obstacles: readonly Obstacle[], x: number, y: number): boolean {
  for (const o of obstacles) if (!o.thin && inside(o, x, y, 1e-12)) return true;
  return false;
}

/** Whether a point is inside a convex, counter-clockwise polygon, by a margin (negative: strictly by that much). */
function inside(o: Obstacle, x: number, y: number, slack: number): boolean {
  const n = o.xs.length;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ex = o.xs[j]! - o.xs[i]!;
    const ey = o.ys[j]! - o.ys[i]!;
    const cross = (ex * (y - o.ys[i]!) - ey * (x - o.xs[i]!)) / Math.hypot(ex, ey);
    if (cross < -slack) return false;
  }
  return true;
}

/** Whether the segment properly crosses a wall with no thickness (touching an end is passing by). */
function crossesThin(o: Obstacle, x1: number, y1: number, x2: number, y2: number): boolean {
  const ax = o.xs[0]!;
  const ay = o.ys[0]!;
  const bx = o.xs[1]!;
  const by = o.ys[1]!;
  const d1 = orient(ax, ay, bx, by, x1, y1);
  const d2 = orient(ax, ay, bx, by, x2, y2);
  const d3 = orient(x1, y1, x2, y2, ax, ay);
  const d4 = orient(x1, y1, x2, y2, bx, by);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return Math.abs(v) < 1e-12 ? 0 : v;
}
