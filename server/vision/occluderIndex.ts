import { AABB, DynamicTree, type Body, type Fixture, type World } from "planck";
import { blocksSight } from "../planck/fixtureOpacity.js";
import { boundingRadius, type FixtureProxy } from "../planck/internals.js";
import type { AreaListener } from "./sightMedium.js";

/** What the index remembers of a static body, to notice changes planck does not announce. */
interface StaticRecord {
  body: Body;
  /** Whether the body was active when last looked at (a deactivated wall stops blocking). */
  active: boolean;
  x: number;
  y: number;
  angle: number;
  /** Tree entries, with the filter they had when last looked at (planck does not announce filter changes). */
  proxies: { proxy: FixtureProxy; id: number; category: number; sensor: boolean }[];
}

/**
 * Past this many opaque fixtures on moving (non-static) bodies, a per-ray list costs more than walking
 * the world's own broadphase tree, and rays fall back to it.
 */
export const MOVING_OCCLUDER_LIMIT = 48;


/**
 * The level's occluders, split for fast sight rays.
 *
 * Why: planck keeps every fixture in one broadphase tree, where a crowd of moving characters (usually
 * transparent to sight) re-inserts every step and degrades it. Measured in the reference room (1000
 * walls, 1088 moving characters): 2.3 us per sight ray through the world's tree, 0.81 us through a tree
 * of the static fixtures alone, same answers.
 *
 * - Fixtures of static bodies live in a `DynamicTree` of our own, kept exact incrementally through
 *   planck's `add-fixture` / `remove-fixture` events (a bullet spawned every tick costs no rebuild).
 * - Opaque fixtures of non-static bodies (a pushed crate, a sliding door, characters when they block
 *   sight) are a short list refreshed by `refresh()`; past {@link MOVING_OCCLUDER_LIMIT} rays walk the
 *   world's broadphase instead (`useWorldTree`), which is always exact.
 * - `refresh()` (the engine calls it every tick) also catches what planck does not announce: a static
 *   body moved, re-typed or deactivated, a filter or sensor flag changed. It reports the areas where
 *   occluders changed, so the scheduler re-evaluates the observers looking there.
 * @internal
 */
export class OccluderIndex {
  readonly tree = new DynamicTree<FixtureProxy>();
  /** Opaque, active, non-sensor fixture children of non-static bodies, as of the last `refresh()`. */
  readonly moving: FixtureProxy[] = [];
  /** True when there are too many moving occluders for the list: rays walk the world's tree. */
  useWorldTree = false;

  private readonly world: World;
  private readonly opaqueMask: number;
  private readonly statics = new Map<Body, StaticRecord>();
  /** Which static body each tree-held fixture belongs to (a removed fixture has lost its body already). */
  private readonly staticOwner = new Map<Fixture, Body>();
  /** Fixtures of non-static bodies, with the pose they had at the last refresh (for change areas). */
  private readonly dynamics = new Map<Fixture, { fixture: Fixture; x: number; y: number; angle: number; opaque: boolean }>();
  private readonly box = new AABB();
  private readonly changed: StaticRecord[] = [];
  private listener: AreaListener | null = null;
  private readonly onAdd = (fixture: Fixture) => this.addFixture(fixture, true);
  private readonly onRemove = (fixture: Fixture) => this.removeFixture(fixture, true);

  constructor(world: World, opaqueMask: number) {
    this.world = world;
    this.opaqueMask = opaqueMask;
    for (let b = world.getBodyList(); b !== null; b = b.getNext()) {
      for (let f = b.getFixtureList(); f !== null; f = f.getNext()) this.addFixture(f, false);
    }
    world.on("add-fixture", this.onAdd);
    world.on("remove-fixture", this.onRemove);
    this.rebuildMovingList(false);
  }

  /** Receives the boxes (meters) where occluders appeared, vanished, moved or changed. */
  onAreaChanged(listener: AreaListener | null): void {
    this.listener = listener;
  }

  /** Stops listening to the world. */
  dispose(): void {
    this.world.off("add-fixture", this.onAdd);
    this.world.off("remove-fixture", this.onRemove);
  }

  /**
   * Catches the changes planck does not publish and rebuilds the moving-occluder list. O(bodies); cheap
   * next to a tick's rays (about 10 us per 1000 bodies).
   */
  refresh(): void {
    // Iterating values() (not entries) allocates no [key, value] pair per body.
    for (const rec of this.statics.values()) {
      const body = rec.body;
      if (body.isStatic() && body.isActive() === rec.active) {
        const p = body.getPosition();
        const angle = body.getAngle();
        if (p.x === rec.x && p.y === rec.y && angle === rec.angle) {
          // In place: a changed filter or sensor flag (a door turned to glass) changes sight there.
          for (const entry of rec.proxies) {
            const f = entry.proxy.fixture;
            const category = f.getFilterCategoryBits();
            const sensor = f.isSensor();
            if (category !== entry.category || sensor !== entry.sensor) {
              entry.category = category;
              entry.sensor = sensor;
              this.announce(this.tree.getFatAABB(entry.id));
            }
          }
          continue;
        }
      }
      this.changed.push(rec);
    }
    // Moved, re-typed, (de)activated: take their fixtures out and put them back where they now belong.
    // Done after the walk, so re-adding never feeds the iteration it came from.
    for (const rec of this.changed) {
      const fixtures = rec.proxies.map((e) => e.proxy.fixture).filter((f, i, all) => all.indexOf(f) === i);
      for (const f of fixtures) this.removeFixture(f, true);
      for (const f of fixtures) if (f.getBody() === rec.body) this.addFixture(f, true);
    }
    this.changed.length = 0;
    for (const rec of this.dynamics.values()) {
      const fixture = rec.fixture;
      const body = fixture.getBody();
      if (body !== null && body.isStatic()) {
        this.removeFixture(fixture, false);
        this.addFixture(fixture, true);
      }
    }
    this.rebuildMovingList(true);
  }

  private addFixture(fixture: Fixture, announce: boolean): void {
    const body = fixture.getBody();
    if (body === null) return;
    if (!body.isStatic()) {
      const p = body.getPosition();
      const opaque = this.isOpaque(fixture);
      this.dynamics.set(fixture, { fixture, x: p.x, y: p.y, angle: body.getAngle(), opaque });
      if (opaque && announce) {
        // Blocks from now on, not from the next refresh.
        for (let c = 0; c < fixture.getShape().getChildCount(); c++) this.moving.push({ fixture, childIndex: c });
        this.useWorldTree = this.moving.length > MOVING_OCCLUDER_LIMIT;
        const r = boundingRadius(fixture) + fixture.getShape().getRadius();
        this.announceBox(p.x - r, p.y - r, p.x + r, p.y + r);
      }
      return;
    }
    let rec = this.statics.get(body);
    if (rec === undefined) {
      const p = body.getPosition();
      rec = { body, active: body.isActive(), x: p.x, y: p.y, angle: body.getAngle(), proxies: [] };
      this.statics.set(body, rec);
    } else {
      const p = body.getPosition();
      rec.active = body.isActive();
      rec.x = p.x;
      rec.y = p.y;
      rec.angle = body.getAngle();
    }
    const shape = fixture.getShape();
    const xf = body.getTransform();
    for (let c = 0; c < shape.getChildCount(); c++) {
      shape.computeAABB(this.box, xf, c);
      const proxy = { fixture, childIndex: c };
      rec.proxies.push({ proxy, id: this.tree.createProxy(this.box, proxy), category: fixture.getFilterCategoryBits(), sensor: fixture.isSensor() });
      this.staticOwner.set(fixture, body);
      if (announce) this.announce(this.box);
    }
  }

  private removeFixture(fixture: Fixture, announce: boolean): void {
    if (this.dynamics.delete(fixture)) return;
    const body = this.staticOwner.get(fixture);
    if (body === undefined) return;
    this.staticOwner.delete(fixture);
    const rec = this.statics.get(body)!;
    let kept = 0;
    for (const entry of rec.proxies) {
      if (entry.proxy.fixture === fixture) {
        if (announce) this.announce(this.tree.getFatAABB(entry.id));
        this.tree.destroyProxy(entry.id);
      } else {
        rec.proxies[kept++] = entry;
      }
    }
    rec.proxies.length = kept;
    if (kept === 0) this.statics.delete(body);
  }

  private rebuildMovingList(announce: boolean): void {
    const moving = this.moving;
    let n = 0;
    for (const last of this.dynamics.values()) {
      const fixture = last.fixture;
      const opaque = this.isOpaque(fixture);
      // Transparent now and before (a crowd of characters, usually): its pose cannot matter to sight.
      if (!opaque && !last.opaque) continue;
      const body = fixture.getBody()!;
      const p = body.getPosition();
      const angle = body.getAngle();
      const moved = p.x !== last.x || p.y !== last.y || angle !== last.angle;
      if (announce && (moved || opaque !== last.opaque)) {
        // Where it was and where it is now: both may have changed what someone sees.
        const r = fixture.getShape().getRadius() + boundingRadius(fixture);
        this.announceBox(Math.min(last.x, p.x) - r, Math.min(last.y, p.y) - r, Math.max(last.x, p.x) + r, Math.max(last.y, p.y) + r);
      }
      last.x = p.x;
      last.y = p.y;
      last.angle = angle;
      last.opaque = opaque;
      if (!opaque || n > MOVING_OCCLUDER_LIMIT) continue; // past the limit rays walk the world's tree: no list
      const children = fixture.getShape().getChildCount();
      for (let c = 0; c < children; c++) {
        const entry = moving[n];
        if (entry === undefined) moving.push({ fixture, childIndex: c });
        else {
          entry.fixture = fixture;
          entry.childIndex = c;
        }
        n++;
      }
    }
    moving.length = Math.min(n, moving.length);
    this.useWorldTree = n > MOVING_OCCLUDER_LIMIT;
  }

  private isOpaque(fixture: Fixture): boolean {
    return blocksSight(fixture, this.opaqueMask) && fixture.getBody()!.isActive();
  }

  private announce(box: { lowerBound: { x: number; y: number }; upperBound: { x: number; y: number } }): void {
    this.announceBox(box.lowerBound.x, box.lowerBound.y, box.upperBound.x, box.upperBound.y);
  }

  private announceBox(minX: number, minY: number, maxX: number, maxY: number): void {
    this.listener?.(minX, minY, maxX, maxY);
  }
}
