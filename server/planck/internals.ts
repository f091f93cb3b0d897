import type { DynamicTree, Fixture, Shape, World } from "planck";
import { castCircle, castConvexPolygon, castEdge, MISS } from "../../shared/math/rayCast.js";

/**
 * Every read of planck's private (`m_*`) fields, and every guess at whether an object is planck's,
 * lives here and nowhere else.
 *
 * Why read them at all: sight rays walk planck's trees and test shapes millions of times a second, and
 * planck's public ray cast allocates vectors per fixture and reports hits through a callback (see
 * `LineOfSight`). The fields below are stable across planck 1.x so far; {@link checkPlanckInternals}
 * fails loudly at construction if an upgrade moved them, and `test/vision/raycast.crosscheck.test.ts`
 * compares every walk against planck's own `World.rayCast`.
 *
 * Only types are imported from planck: a game that never passes a planck object never loads it through
 * this module.
 * @internal
 */

/**
 * Whether a value quacks like a planck object (it has the method `probe`, e.g. `getBodyList` for a
 * World, `getFixtureList` for a Body), whether or not it is from the planck copy sightline imports. After
 * an `instanceof` test fails, it tells "another copy of planck" from "not planck at all".
 */
export function isPlanckLike(value: unknown, probe: string): boolean {
  return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[probe] === "function";
}

/** A node of planck's dynamic AABB tree (the broadphase's, or a `DynamicTree` of our own). */
export interface TreeNode<T> {
  aabb: { lowerBound: { x: number; y: number }; upperBound: { x: number; y: number } };
  child1: TreeNode<T> | null;
  child2: TreeNode<T> | null;
  userData: T;
}

/** What the broadphase keeps on its leaves. */
export interface FixtureProxy {
  fixture: Fixture;
  childIndex: number;
}

/** A shape's geometry in its body's frame, as planck stores it. */
export interface ShapeGeometry {
  /** "polygon", "circle", "edge" or "chain". */
  m_type: string;
  m_radius: number;
  /** Circle centre. */
  m_p: { x: number; y: number };
  /** Polygon and chain vertices (a polygon's are counter-clockwise with outward `m_normals`). */
  m_vertices: { x: number; y: number }[];
  m_normals: { x: number; y: number }[];
  m_count: number;
  /** Edge end points. */
  m_vertex1: { x: number; y: number };
  m_vertex2: { x: number; y: number };
}

/** The root of the world's broadphase tree: the tree planck itself keeps every fixture proxy in. */
export function broadphaseRoot(world: World): TreeNode<FixtureProxy> | null {
  return (world as unknown as { m_broadPhase: { m_tree: { m_root: TreeNode<FixtureProxy> | null } } }).m_broadPhase.m_tree.m_root;
}

/** The root of a `DynamicTree`, for an allocation-free walk with an inlined box test. */
export function treeRoot<T>(tree: DynamicTree<T>): TreeNode<T> | null {
  return (tree as unknown as { m_root: TreeNode<T> | null }).m_root;
}

/** Whether the fixture is in the world's broadphase: false once its body is deactivated or destroyed. */
export function inBroadphase(fixture: Fixture): boolean {
  return (fixture as unknown as { m_proxyCount: number }).m_proxyCount !== 0;
}

/** The shape's geometry fields. */
export function geometryOf(shape: Shape): ShapeGeometry {
  return shape as unknown as ShapeGeometry;
}

/** Distance from the body origin to the farthest vertex (or circle centre) of the fixture's shape, meters. */
export function boundingRadius(fixture: Fixture): number {
  const g = geometryOf(fixture.getShape());
  const points = g.m_type === "circle" ? [g.m_p] : g.m_type === "edge" ? [g.m_vertex1, g.m_vertex2] : g.m_vertices ?? [];
  let r = 0;
  for (const v of points) r = Math.max(r, Math.hypot(v.x, v.y));
  return r;
}

/**
 * Throws an Error naming the field when this planck does not keep what the module reads: a planck
 * upgrade that moved its internals fails here, at construction, rather than as a wrong answer later.
 */
export function checkPlanckInternals(world: World): void {
  const bp = (world as unknown as { m_broadPhase?: { m_tree?: object } }).m_broadPhase;
  if (typeof bp !== "object" || bp === null || typeof bp.m_tree !== "object" || bp.m_tree === null || !("m_root" in bp.m_tree)) {
    throw new Error("sightline: this planck World has no m_broadPhase.m_tree.m_root; sightline supports planck 1.5 (see docs/vision.md, How it stays fast)");
  }
  for (let b = world.getBodyList(); b !== null; b = b.getNext()) {
    const f = b.getFixtureList();
    if (f === null) continue;
    if (!("m_proxyCount" in f)) throw new Error("sightline: planck fixtures have no m_proxyCount; sightline supports planck 1.5");
    const g = geometryOf(f.getShape());
    if (typeof g.m_type !== "string" || typeof g.m_radius !== "number") {
      throw new Error("sightline: planck shapes have no m_type or m_radius; sightline supports planck 1.5");
    }
    return;
  }
}

/**
 * Box2D-exact cast of the segment (x1, y1) + t (dx, dy), t in [0, maxFraction], against one child of a
 * fixture, in world coordinates: the fraction where it first enters, or MISS. Same rules as
 * `shared/math/rayCast.ts` (a segment starting inside a polygon or circle does not hit it; edges and
 * chains are two-sided). Allocation-free for the four shape kinds planck has.
 */
export function castFixture(fixture: Fixture, childIndex: number, x1: number, y1: number, dx: number, dy: number, maxFraction: number): number {
  const shape = geometryOf(fixture.getShape());
  const xf = fixture.getBody().getTransform();
  const px = xf.p.x;
  const py = xf.p.y;
  const c = xf.q.c;
  const s = xf.q.s;
  switch (shape.m_type) {
    case "polygon": {
      // Into the shape's local frame, where planck keeps its vertices and normals.
      const ox = x1 - px;
      const oy = y1 - py;
      return castConvexPolygon(shape.m_vertices, shape.m_normals, shape.m_count, c * ox + s * oy, -s * ox + c * oy, c * dx + s * dy, -s * dx + c * dy, maxFraction);
    }
    case "circle": {
      const cx = px + c * shape.m_p.x - s * shape.m_p.y;
      const cy = py + s * shape.m_p.x + c * shape.m_p.y;
      return castCircle(cx, cy, shape.m_radius, x1, y1, dx, dy, maxFraction);
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
      return castEdge(ax, ay, bx, by, x1, y1, dx, dy, maxFraction);
    }
    default: {
      // A shape kind this module does not know: defer to planck (allocates, but stays correct).
      const output = { fraction: 0, normal: null as never };
      const input = { p1: { x: x1, y: y1 }, p2: { x: x1 + dx, y: y1 + dy }, maxFraction };
      return fixture.rayCast(output, input, childIndex) ? output.fraction : MISS;
    }
  }
}

/**
 * The fixture's shape as convex outlines in world meters: a polygon's vertices (its skin radius left out,
 * as planck's own ray cast leaves it out), a circle's centre with its radius, an edge's two ends, or each
 * segment of a chain. Null for a shape kind this module does not know.
 */
export function worldOutlines(fixture: Fixture): { outlines: { x: number; y: number }[][]; radius: number } | null {
  const g = geometryOf(fixture.getShape());
  const xf = fixture.getBody().getTransform();
  const toWorld = (v: { x: number; y: number }) => ({ x: xf.p.x + xf.q.c * v.x - xf.q.s * v.y, y: xf.p.y + xf.q.s * v.x + xf.q.c * v.y });
  switch (g.m_type) {
    case "polygon":
      return { outlines: [g.m_vertices.slice(0, g.m_count).map(toWorld)], radius: 0 };
    case "circle":
      return { outlines: [[toWorld(g.m_p)]], radius: g.m_radius };
    case "edge":
      return { outlines: [[toWorld(g.m_vertex1), toWorld(g.m_vertex2)]], radius: 0 };
    case "chain": {
      const outlines: { x: number; y: number }[][] = [];
      const children = fixture.getShape().getChildCount();
      for (let i = 0; i < children; i++) outlines.push([toWorld(g.m_vertices[i]!), toWorld(g.m_vertices[i + 1 < g.m_count ? i + 1 : 0]!)]);
      return { outlines, radius: 0 };
    }
    default:
      return null;
  }
}
