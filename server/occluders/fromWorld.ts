import type { Fixture, World } from "planck";
import { blocksSight, checkOpaqueMask } from "../planck/fixtureOpacity.js";
import { isPlanckLike, worldOutlines } from "../planck/internals.js";
import { fail } from "../../shared/validation/rangeChecks.js";
import type { Point } from "./point.js";

/** What {@link addWorldOccluders} needs of an `Occluders`. @internal */
export interface ConvexSink {
  addConvex(outlines: readonly (readonly Point[])[], radius: number): number;
}

/**
 * Adds every fixture of the world's static, active bodies that blocks sight (see `blocksSight`) to
 * `sink`, in world coordinates: polygons as they are (planck keeps them convex), circles, edges, and
 * each segment of a chain. Moving bodies are left out. Reads the world through planck's own methods and
 * shape fields, so a world from any planck copy works. A snapshot: later changes to the world are not
 * followed.
 * @internal
 */
export function addWorldOccluders(sink: ConvexSink, world: World, opaqueMask: number): void {
  if (!isPlanckLike(world, "getBodyList")) {
    fail("Occluders.fromWorld world", "must be a planck World", world);
  }
  checkOpaqueMask("Occluders.fromWorld opaqueMask", opaqueMask);
  for (let b = world.getBodyList(); b !== null; b = b.getNext()) {
    if (!b.isStatic() || !b.isActive()) continue;
    for (let f: Fixture | null = b.getFixtureList(); f !== null; f = f.getNext()) {
      if (!blocksSight(f, opaqueMask)) continue;
      // A shape kind sightline does not know hides nothing: culling errs towards sending.
      const shape = worldOutlines(f);
      if (shape !== null) sink.addConvex(shape.outlines, shape.radius);
    }
  }
}
