import { DynamicTree } from "planck";
import { treeRoot, type TreeNode } from "../planck/internals.js";
import type { Observable } from "./observable.js";

type Node = TreeNode<Observable>;

/**
 * Spatial index of observables only, so candidate queries never walk the level's walls. Wraps planck's
 * `DynamicTree` (the broadphase structure Box2D keeps its fixtures in): leaves are fattened by 0.1 m
 * plus twice their last displacement, so small moves cost no re-insertion. Queries walk the tree
 * directly with an inlined box test and a reused stack: measured 0.54 us per 30 m query through
 * `DynamicTree.query` (pooled stack, a call per node) at 64 observables, which was a quarter of a full
 * vision pass at 1024 observers.
 * @internal
 */
export class ObservableIndex {
  private readonly tree = new DynamicTree<Observable>();
  // Reused for every insert, move and query: the hot path allocates nothing.
  private readonly box = { lowerBound: { x: 0, y: 0 }, upperBound: { x: 0, y: 0 } };
  private readonly displacement = { x: 0, y: 0 };
  private readonly stack: Node[] = [];

  insert(o: Observable): void {
    this.setBox(o.x - o.radius, o.y - o.radius, o.x + o.radius, o.y + o.radius);
    o.proxy = this.tree.createProxy(this.box, o);
  }

  /** Call after changing o.x, o.y or o.radius; `dx`, `dy` is the displacement since the last call. */
  move(o: Observable, dx: number, dy: number): void {
    this.setBox(o.x - o.radius, o.y - o.radius, o.x + o.radius, o.y + o.radius);
    this.displacement.x = dx;
    this.displacement.y = dy;
    this.tree.moveProxy(o.proxy, this.box, this.displacement);
  }

  remove(o: Observable): void {
    this.tree.destroyProxy(o.proxy);
    o.proxy = -1;
  }

  /** Calls `visit` for every observable whose (fattened) box overlaps the query box, meters. */
  query(minX: number, minY: number, maxX: number, maxY: number, visit: (o: Observable) => void): void {
    const root = treeRoot(this.tree);
    if (root === null) return;
    const stack = this.stack;
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const node = stack[--top]!;
      const lo = node.aabb.lowerBound;
      const hi = node.aabb.upperBound;
      if (lo.x > maxX || lo.y > maxY || hi.x < minX || hi.y < minY) continue;
      if (node.child1 === null) visit(node.userData);
      else {
        stack[top++] = node.child1;
        stack[top++] = node.child2!;
      }
    }
  }

  private setBox(minX: number, minY: number, maxX: number, maxY: number): void {
    this.box.lowerBound.x = minX;
    this.box.lowerBound.y = minY;
    this.box.upperBound.x = maxX;
    this.box.upperBound.y = maxY;
  }
}
