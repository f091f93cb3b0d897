import type { Body, Fixture, World } from "planck";
import { OccluderIndex } from "./occluderIndex.js";

/** The parts of planck's broadphase tree node this module reads (planck 1.5, pinned exactly). */
interface TreeNode {
  aabb: { lowerBound: { x: number; y: number }; upperBound: { x: number; y: number } };
  child1: TreeNode | null;
  child2: TreeNode | null;
  userData: { fixture: Fixture; childIndex: number } | null;
}

interface ShapeInternals {
  m_type: string;
  m_radius: number;
  m_p: { x: number; y: number };
  m_vertices: { x: number; y: number }[];
  m_normals: { x: number; y: number }[];
  m_count: number;
  m_vertex1: { x: number; y: number };
  m_vertex2: { x: number; y: number };
}

/** Returns the root of the world's broadphase tree: the tree planck itself keeps every fixture in. */
function broadphaseRoot(world: World): TreeNode | null {
  // `m_broadPhase` is not in planck's typings; `test/vision/raycast.crosscheck.test.ts` cross-checks this
  // traversal against `World.rayCast` so an upgrade that moves it fails loudly.
  return (world as unknown as { m_broadPhase: { m_tree: { m_root: TreeNode | null } } }).m_broadPhase.m_tree.m_root;
}

const MISS = -1;

/**
 * Line-of-sight queries over a planck `World`: "does any blocking fixture lie on this segment?".
 *
 * Why not `World.rayCast`: it reports hits closest-first through a callback, allocates several vectors
 * per fixture it touches, and runs the exact shape test before user filtering. Sight only needs to know
 * whether ANY blocker lies between eye and target, so this walks an {@link OccluderIndex} (static
 * fixtures in a tree of their own, moving opaque ones in a short list, or planck's own broadphase tree
 * when there are many of those), rejects sensors, excluded bodies and non-opaque categories before the
 * exact shape test, and stops at the first blocker. Shape tests follow Box2D's ray-cast rules exactly
 * (a segment that starts inside a polygon or circle does not hit it; edges and chains are two-sided).
 *
 * Allocation-free after construction.
 */
export class LineOfSight {
  /** Category bits that block sight; fixtures whose category does not intersect it are transparent. */
  readonly opaqueMask: number;
  /** Where the occluders are kept; `refresh()` it once per tick. */
  readonly occluders: OccluderIndex;
  /** Segments tested since construction (one per `blocked` call): the tree rays. */
  segments = 0;
  /** Single-fixture tests since construction (one per `fixtureBlocks` call): the cheap cached checks. */
  fixtureTests = 0;
  /** The fixture that blocked the last `blocked` call that returned true. */
  lastBlocker: Fixture | null = null;

  private readonly world: World;
  private stack: TreeNode[] = [];

  // The current segment, kept in fields so the shape tests take no arguments to allocate.
  private x1 = 0;
  private y1 = 0;
  private dx = 0;
  private dy = 0;
  private invDx = 0;
  private invDy = 0;

  constructor(world: World, opaqueMask: number) {
    this.world = world;
    this.opaqueMask = opaqueMask;
    this.occluders = new OccluderIndex(world, opaqueMask);
  }

  /**
   * Brings the occluder index up to date with changes planck does not announce (a static body moved,
   * re-typed or deactivated; a filter or sensor flag changed; moving occluders moved). The engine calls
   * it at the start of every tick; call it yourself before `blocked` if you change those between ticks.
   */
  refresh(): void {
    this.occluders.refresh();
  }

  /** Stops listening to the world's fixture events. */
  dispose(): void {
    this.occluders.dispose();
  }

  /**
   * True when a blocking fixture crosses the segment from (x1, y1) toward (x2, y2) strictly before
   * `maxFraction` of its length (1 = the whole segment). Fixtures of `ignoreA` and `ignoreB` (the
   * observer's and the target's bodies), sensors, and fixtures outside `opaqueMask` never block.
   */
  blocked(
    x1: number, y1: number, x2: number, y2: number,
    ignoreA: Body | null, ignoreB: Body | null, maxFraction = 1,
  ): boolean {
    this.segments++;
    if (maxFraction <= 0) return false;
    this.x1 = x1;
    this.y1 = y1;
    const dx = (this.dx = x2 - x1);
    const dy = (this.dy = y2 - y1);
    this.invDx = dx === 0 ? 0 : 1 / dx;
    this.invDy = dy === 0 ? 0 : 1 / dy;
    const occluders = this.occluders;
    if (occluders.useWorldTree) return this.walk(broadphaseRoot(this.world), ignoreA, ignoreB, maxFraction);
    if (this.walk((occluders.tree as unknown as { m_root: TreeNode | null }).m_root, ignoreA, ignoreB, maxFraction)) return true;
    const moving = occluders.moving;
    for (let i = 0; i < moving.length; i++) {
      const entry = moving[i]!;
      const fixture = entry.fixture;
      if ((fixture as unknown as { m_proxyCount: number }).m_proxyCount === 0) continue;
      if (!this.segmentTouchesBox(fixture.getAABB(entry.childIndex), dx, dy, maxFraction)) continue;
      if (!this.blocks(fixture, entry.childIndex, ignoreA, ignoreB, maxFraction)) continue;
      this.lastBlocker = fixture;
      return true;
    }
    return false;
  }

  /** Any-hit walk of one tree (ours or the world's broadphase: their nodes have the same shape). */
  private walk(root: TreeNode | null, ignoreA: Body | null, ignoreB: Body | null, maxFraction: number): boolean {
    if (root === null) return false;
    const dx = this.dx;
    const dy = this.dy;
    const stack = this.stack;
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const node = stack[--top]!;
      if (!this.segmentTouchesBox(node.aabb, dx, dy, maxFraction)) continue;
      if (node.child1 === null) {
        const proxy = node.userData!;
        if (this.blocks(proxy.fixture, proxy.childIndex, ignoreA, ignoreB, maxFraction)) {
          this.lastBlocker = proxy.fixture;
          return true;
        }
      } else {
        stack[top++] = node.child1;
        stack[top++] = node.child2!;
      }
    }
    return false;
  }

  /** The sight filter, then the exact shape test, for one fixture child and the current segment. */
  private blocks(fixture: Fixture, childIndex: number, ignoreA: Body | null, ignoreB: Body | null, maxFraction: number): boolean {
    if (fixture.isSensor()) return false;
    if ((fixture.getFilterCategoryBits() & this.opaqueMask) === 0) return false;
    // A fixture of a deactivated or destroyed body has no broadphase proxy: it is not in the world.
    if ((fixture as unknown as { m_proxyCount: number }).m_proxyCount === 0) return false;
    const body = fixture.getBody();
    if (body === ignoreA || body === ignoreB) return false;
    const t = this.castFixture(fixture, childIndex, maxFraction);
    return t !== MISS && t < maxFraction;
  }

  /**
   * Same question as `blocked`, asked of one fixture only: the temporal-coherence shortcut (the wall
   * that hid a target last time most likely still does). Exact: a fixture that has left the world
   * (destroyed, or its body deactivated), turned sensor, left the opaque categories or belongs to an
   * ignored body answers false, and the caller falls back to `blocked`.
   */
  fixtureBlocks(
    fixture: Fixture, x1: number, y1: number, x2: number, y2: number,
    ignoreA: Body | null, ignoreB: Body | null, maxFraction = 1,
  ): boolean {
    return this.canBlock(fixture, ignoreA, ignoreB) && this.fixtureCrosses(fixture, x1, y1, x2, y2, maxFraction);
  }

  /**
   * Whether `fixture` may block sight at all right now: still in the world, not a sensor, in an opaque
   * category, and not one of the ignored bodies. The filter half of `fixtureBlocks`.
   */
  canBlock(fixture: Fixture, ignoreA: Body | null, ignoreB: Body | null): boolean {
    if ((fixture as unknown as { m_proxyCount: number }).m_proxyCount === 0) return false;
    const body = fixture.getBody();
    if (body === null || body === ignoreA || body === ignoreB) return false;
    return !fixture.isSensor() && (fixture.getFilterCategoryBits() & this.opaqueMask) !== 0;
  }

  /** The geometric half of `fixtureBlocks`: does the segment cross the fixture before `maxFraction`? */
  fixtureCrosses(fixture: Fixture, x1: number, y1: number, x2: number, y2: number, maxFraction = 1): boolean {
    this.fixtureTests++;
    this.x1 = x1;
    this.y1 = y1;
    this.dx = x2 - x1;
    this.dy = y2 - y1;
    const children = fixture.getShape().getChildCount();
    for (let c = 0; c < children; c++) {
      const t = this.castFixture(fixture, c, maxFraction);
      if (t !== MISS && t < maxFraction) return true;
    }
    return false;
  }

  /**
   * Fraction of the segment (x1, y1) -> (x2, y2) at which it first enters a non-sensor fixture of
   * `body`, or 1 when it does not. Used to end a sight ray on the target's own body.
   */
  entryFraction(x1: number, y1: number, x2: number, y2: number, body: Body): number {
    this.x1 = x1;
    this.y1 = y1;
    this.dx = x2 - x1;
    this.dy = y2 - y1;
    const only = body.getFixtureList();
    if (only !== null && only.getNext() === null && !only.isSensor() && only.getType() !== "chain") {
      // The common case, a character that is one circle or one box: no loop over fixtures or children.
      const t = this.castFixture(only, 0, 1);
      return t === MISS ? 1 : t;
    }
    let best = 1;
    for (let f = body.getFixtureList(); f !== null; f = f.getNext()) {
      if (f.isSensor()) continue;
      const children = f.getShape().getChildCount();
      for (let c = 0; c < children; c++) {
        const t = this.castFixture(f, c, best);
        if (t !== MISS && t < best) best = t;
      }
    }
    return best;
  }

  /** Exact slab test of the current segment, clipped to [0, maxFraction], against a box. */
  private segmentTouchesBox(
    box: TreeNode["aabb"], dx: number, dy: number, maxFraction: number,
  ): boolean {
    let tMin = 0;
    let tMax = maxFraction;
    const lo = box.lowerBound;
    const hi = box.upperBound;
    if (dx === 0) {
      if (this.x1 < lo.x || this.x1 > hi.x) return false;
    } else {
      const inv = this.invDx;
      let a = (lo.x - this.x1) * inv;
      let b = (hi.x - this.x1) * inv;
      if (a > b) { const s = a; a = b; b = s; }
      if (a > tMin) tMin = a;
      if (b < tMax) tMax = b;
      if (tMin > tMax) return false;
    }
    if (dy === 0) {
      if (this.y1 < lo.y || this.y1 > hi.y) return false;
    } else {
      const inv = this.invDy;
      let a = (lo.y - this.y1) * inv;
      let b = (hi.y - this.y1) * inv;
      if (a > b) { const s = a; a = b; b = s; }
      if (a > tMin) tMin = a;
      if (b < tMax) tMax = b;
      if (tMin > tMax) return false;
    }
    return true;
  }

  /** Box2D-exact ray cast of the current segment against one fixture child; fraction or MISS. */
  private castFixture(fixture: Fixture, childIndex: number, maxFraction: number): number {
    const shape = fixture.getShape() as unknown as ShapeInternals;
    const xf = fixture.getBody().getTransform();
    const px = xf.p.x;
    const py = xf.p.y;
    const c = xf.q.c;
    const s = xf.q.s;
    switch (shape.m_type) {
      case "polygon": {
        // Into the shape's local frame.
        const ox = this.x1 - px;
        const oy = this.y1 - py;
        const lx = c * ox + s * oy;
        const ly = -s * ox + c * oy;
        const ldx = c * this.dx + s * this.dy;
        const ldy = -s * this.dx + c * this.dy;
        return castPolygon(shape, lx, ly, ldx, ldy, maxFraction);
      }
      case "circle": {
        const cx = px + c * shape.m_p.x - s * shape.m_p.y;
        const cy = py + s * shape.m_p.x + c * shape.m_p.y;
        return castCircle(cx, cy, shape.m_radius, this.x1, this.y1, this.dx, this.dy, maxFraction);
      }
      case "edge":
      case "chain": {
        let v1 = shape.m_vertex1;
        let v2 = shape.m_vertex2;
        if (shape.m_type === "chain") {
          v1 = shape.m_vertices[childIndex]!;
          v2 = shape.m_vertices[childIndex + 1 < shape.m_count ? childIndex + 1 : 0]!;
        }
        const ax = px + c * v1.x - s * v1.y;
        const ay = py + s * v1.x + c * v1.y;
        const bx = px + c * v2.x - s * v2.y;
        const by = py + s * v2.x + c * v2.y;
        return castEdge(ax, ay, bx, by, this.x1, this.y1, this.dx, this.dy, maxFraction);
      }
      default: {
        // A shape type this module does not know: defer to planck (allocates, but stays correct).
        const output = { fraction: 0, normal: null as never };
        const input = { p1: { x: this.x1, y: this.y1 }, p2: { x: this.x1 + this.dx, y: this.y1 + this.dy }, maxFraction };
        return fixture.rayCast(output, input, childIndex) ? output.fraction : MISS;
      }
    }
  }
}

/** Box2D's polygon ray cast in the polygon's frame: entering hits only. */
function castPolygon(
  shape: ShapeInternals, x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  let lower = 0;
  let upper = maxFraction;
  let hit = false;
  const vertices = shape.m_vertices;
  const normals = shape.m_normals;
  for (let i = 0; i < shape.m_count; i++) {
    const n = normals[i]!;
    const v = vertices[i]!;
    const numerator = n.x * (v.x - x1) + n.y * (v.y - y1);
    const denominator = n.x * dx + n.y * dy;
    if (denominator === 0) {
      if (numerator < 0) return MISS;
    } else if (denominator < 0 && numerator < lower * denominator) {
      lower = numerator / denominator;
      hit = true;
    } else if (denominator > 0 && numerator < upper * denominator) {
      upper = numerator / denominator;
    }
    if (upper < lower) return MISS;
  }
  return hit ? lower : MISS;
}

/** Box2D's circle ray cast: entering hits only (a segment starting inside does not hit). */
function castCircle(
  cx: number, cy: number, radius: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  const sx = x1 - cx;
  const sy = y1 - cy;
  const b = sx * sx + sy * sy - radius * radius;
  const cc = sx * dx + sy * dy;
  const rr = dx * dx + dy * dy;
  const sigma = cc * cc - rr * b;
  if (sigma < 0 || rr < Number.EPSILON) return MISS;
  const a = -(cc + Math.sqrt(sigma));
  if (a >= 0 && a <= maxFraction * rr) return a / rr;
  return MISS;
}

/** Box2D's two-sided edge ray cast. */
function castEdge(
  ax: number, ay: number, bx: number, by: number,
  x1: number, y1: number, dx: number, dy: number, maxFraction: number,
): number {
  const ex = bx - ax;
  const ey = by - ay;
  const len = Math.sqrt(ex * ex + ey * ey);
  if (len === 0) return MISS;
  const nx = ey / len;
  const ny = -ex / len;
  const numerator = nx * (ax - x1) + ny * (ay - y1);
  const denominator = nx * dx + ny * dy;
  if (denominator === 0) return MISS;
  const t = numerator / denominator;
  if (t < 0 || maxFraction < t) return MISS;
  const qx = x1 + t * dx - ax;
  const qy = y1 + t * dy - ay;
  const s = (qx * ex + qy * ey) / (len * len);
  if (s < 0 || s > 1) return MISS;
  return t;
}
