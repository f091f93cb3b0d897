import type { Body, Fixture, World } from "planck";
import { MISS } from "../../shared/math/rayCast.js";
import { blocksSight } from "../planck/fixtureOpacity.js";
import { broadphaseRoot, castFixture, checkPlanckInternals, inBroadphase, treeRoot, type FixtureProxy, type TreeNode } from "../planck/internals.js";
import { OccluderIndex } from "./occluderIndex.js";
import type { AreaListener, Blocker, SightMedium } from "./sightMedium.js";

type Node = TreeNode<FixtureProxy>;


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
 * @internal
 */
export class LineOfSight implements SightMedium {
  readonly hasBodies = true;
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
  private stack: Node[] = [];

  // The current segment, kept in fields so the shape tests take no arguments to allocate.
  private x1 = 0;
  private y1 = 0;
  private dx = 0;
  private dy = 0;
  private invDx = 0;
  private invDy = 0;

  constructor(world: World, opaqueMask: number) {
    checkPlanckInternals(world);
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

  onAreaChanged(listener: AreaListener): void {
    this.occluders.onAreaChanged(listener);
  }

  movingBodyAt(x: number, y: number): Body | null {
    let found: Body | null = null;
    const p = { x, y };
    this.world.queryAABB({ lowerBound: p, upperBound: p } as never, (fixture: Fixture) => {
      const body = fixture.getBody();
      if (body.isStatic() || !blocksSight(fixture, this.opaqueMask) || !fixture.testPoint(p as never)) return true;
      found = body;
      return false;
    });
    return found;
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
    if (this.walk(treeRoot(occluders.tree), ignoreA, ignoreB, maxFraction)) return true;
    const moving = occluders.moving;
    for (let i = 0; i < moving.length; i++) {
      const entry = moving[i]!;
      const fixture = entry.fixture;
      if (!inBroadphase(fixture)) continue;
      if (!this.segmentTouchesBox(fixture.getAABB(entry.childIndex), dx, dy, maxFraction)) continue;
      if (!this.blocks(fixture, entry.childIndex, ignoreA, ignoreB, maxFraction)) continue;
      this.lastBlocker = fixture;
      return true;
    }
    return false;
  }

  /** Any-hit walk of one tree (ours or the world's broadphase: their nodes have the same shape). */
  private walk(root: Node | null, ignoreA: Body | null, ignoreB: Body | null, maxFraction: number): boolean {
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
    if (!blocksSight(fixture, this.opaqueMask)) return false;
    // A fixture of a deactivated or destroyed body has no broadphase proxy: it is not in the world.
    if (!inBroadphase(fixture)) return false;
    const body = fixture.getBody();
    if (body === ignoreA || body === ignoreB) return false;
    const t = castFixture(fixture, childIndex, this.x1, this.y1, this.dx, this.dy, maxFraction);
    return t !== MISS && t < maxFraction;
  }

  /**
   * Whether `fixture` may block sight at all right now: still in the world, not a sensor, in an opaque
   * category, and not one of the ignored bodies. The filter half of `fixtureBlocks`.
   */
  canBlock(blocker: Blocker, ignoreA: Body | null, ignoreB: Body | null): boolean {
    const fixture = blocker as Fixture;
    if (!inBroadphase(fixture)) return false;
    const body = fixture.getBody();
    if (body === null || body === ignoreA || body === ignoreB) return false;
    return blocksSight(fixture, this.opaqueMask);
  }

  /**
   * Does the segment cross the fixture before `maxFraction`? The temporal-coherence shortcut (the wall
   * that hid a target last time most likely still does), after `canBlock`.
   */
  crosses(blocker: Blocker, x1: number, y1: number, x2: number, y2: number, maxFraction = 1): boolean {
    const fixture = blocker as Fixture;
    this.fixtureTests++;
    this.x1 = x1;
    this.y1 = y1;
    this.dx = x2 - x1;
    this.dy = y2 - y1;
    const children = fixture.getShape().getChildCount();
    for (let c = 0; c < children; c++) {
      const t = castFixture(fixture, c, this.x1, this.y1, this.dx, this.dy, maxFraction);
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
      const t = castFixture(only, 0, this.x1, this.y1, this.dx, this.dy, 1);
      return t === MISS ? 1 : t;
    }
    let best = 1;
    for (let f = body.getFixtureList(); f !== null; f = f.getNext()) {
      if (f.isSensor()) continue;
      const children = f.getShape().getChildCount();
      for (let c = 0; c < children; c++) {
        const t = castFixture(f, c, this.x1, this.y1, this.dx, this.dy, best);
        if (t !== MISS && t < best) best = t;
      }
    }
    return best;
  }

  /** Exact slab test of the current segment, clipped to [0, maxFraction], against a box (inlined for the tree walk). */
  private segmentTouchesBox(
    box: Node["aabb"], dx: number, dy: number, maxFraction: number,
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
}
