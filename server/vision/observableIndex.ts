import { DynamicTree } from "planck";
import type { Observable } from "./observable.js";

/**
 * Spatial index of observables only, so candidate queries never walk the level's walls. Wraps planck's
 * `DynamicTree` (the broadphase structure Box2D keeps its fixtures in): leaves are fattened by 0.1 m
 * plus twice their last displacement, so small moves cost no re-insertion.
 */
export class ObservableIndex {
  private readonly tree = new DynamicTree<Observable>();
  // Reused for every insert, move and query: the hot path allocates nothing.
  private readonly box = { lowerBound: { x: 0, y: 0 }, upperBound: { x: 0, y: 0 } };
  private readonly displacement = { x: 0, y: 0 };
  private visit: (o: Observable) => void = () => {};
  private readonly onProxy = (proxyId: number): boolean => {
    this.visit(this.tree.getUserData(proxyId));
    return true;
  };

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
    this.setBox(minX, minY, maxX, maxY);
    this.visit = visit;
    this.tree.query(this.box, this.onProxy);
  }

  private setBox(minX: number, minY: number, maxX: number, maxY: number): void {
    this.box.lowerBound.x = minX;
    this.box.lowerBound.y = minY;
    this.box.upperBound.x = maxX;
    this.box.upperBound.y = maxY;
  }
}
