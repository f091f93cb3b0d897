/**
 * Writing a schema instance's fields while its change recording is paused, at the cost of an array store.
 */
import { $values, type Schema } from "@colyseus/schema";
import { fail } from "../../shared/validation/rangeChecks.js";

/** A schema class, as `schema()` or a `Schema` subclass makes it. */
type SchemaClass = Function & { readonly prototype: Schema };

/**
 * The slot of `field` in the live values of `klass`'s instances (see {@link liveValues}), looked up once
 * per class and field, outside any hot path.
 * @throws RangeError naming `klass` when it is no class, or `field` when the class has no such schema
 *   field (its own or one it inherits from the schema it extends)
 */
export function fieldSlot(klass: SchemaClass, field: string): number {
  if (typeof klass !== "function") fail("fieldSlot klass", "must be a schema class (from schema() or a Schema subclass)", klass);
  const metadata = (klass as unknown as Record<symbol, Record<string, unknown> | undefined>)[Symbol.metadata];
  // An extended class's metadata inherits its parent's fields; no property of Object.prototype is a number.
  const slot = typeof field === "string" ? metadata?.[field] : undefined;
  if (typeof slot !== "number") fail("fieldSlot field", `is not a schema field of ${klass.name}`, field);
  return slot;
}

/**
 * The live values of a schema instance (Colyseus's `$values`), indexed by {@link fieldSlot}: what its
 * getters return and what a view that takes the instance encodes it from.
 *
 * A setter does three things: it compares, it records the change for the next patch, and it stores. While
 * the instance's recording is paused (`pauseTracking`, as `SightlineOptions.pauseUnheld` pauses every
 * entity no client's view holds), the record is skipped but the call, the type check and the walk to the
 * instance's change tree are not; a store here skips them too and leaves the instance exactly as the
 * setter would (for a value of the field's type, never `undefined` or `null`). An entity written every
 * tick but seen by no one then costs a store per field. While recording, use the setter: a store here
 * would not reach any client.
 *
 * ```ts
 * const X = fieldSlot(GuardState, "x");
 * if (guard.isTrackingPaused) liveValues(guard)[X] = body.x;
 * else guard.x = body.x;
 * ```
 */
export function liveValues(instance: Schema): unknown[] {
  const values = (instance as unknown as { [$values]?: unknown[] } | null | undefined)?.[$values];
  if (!Array.isArray(values)) fail("liveValues instance", "must be a schema instance", instance);
  return values;
}
