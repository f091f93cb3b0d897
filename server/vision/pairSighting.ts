import type { Sighting } from "./awareness/types.js";
import type { Observable } from "./observable.js";
import type { Observer } from "./observer.js";

/**
 * The engine's {@link Sighting} of one (observer, target) pair. One object stands for the pair from the
 * evaluation that first sees the target until the one that loses it, so a consumer's `memo` stays with
 * its pair from tick to tick; `sightings()` refreshes the measured fields on every call. Lost pairs'
 * objects are kept for reuse (with `memo` back to null), so seeing someone new allocates nothing.
 */
export class PairSighting implements Sighting {
  observerId = "";
  targetId = "";
  distance = 0;
  offAxis = 0;
  halfFov = 0;
  range = 0;
  proximity = false;
  visibility = 1;
  /** The target's own `sightedAt`: every sighting of one target shares it (see `sightings()`). */
  position: { x: number; y: number } = NOWHERE;
  memo: unknown = null;
  /** The target seen; null while the object waits for reuse. Engine-internal. */
  target: Observable | null = null;
  /** The observer seeing it, and the pool that keeps this object (whose engine it belongs to). Engine-internal. */
  observer: Observer | null = null;
  pool: object | null = null;
  /**
   * `SeenOnScreen`'s last verdict on the pair and the observer's `freshAt` it was reached at (-1: none):
   * while the scheduler has not evaluated the observer again, its sighting is the last one it made, and so
   * is the check's. Engine-internal.
   */
  checkedAt = -1;
  checkedSeen = false;
  /**
   * The observer's next sighting, in the order it first saw them. A chain rather than an array: walking it
   * reaches each sighting without first loading an array object and its storage (two cache misses an
   * observer when `sightings()` runs right after a tick has evicted them).
   */
  next: PairSighting | null = null;
}

const NOWHERE: { x: number; y: number } = Object.freeze({ x: 0, y: 0 }) as { x: number; y: number };
