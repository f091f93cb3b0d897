import type { Body } from "planck";

/** The engine's record of one observable. */
export class Observable {
  readonly id: string;
  x = 0;
  y = 0;
  radius = 0;
  body: Body | null = null;
  /** Explicit `samples`, or 0 to follow the default (3 with a radius, 1 for a point). */
  samplesSpec = 0;
  required = 1;

  /**
   * Where `sightings()` reports it, meters: one object shared by all its sightings of a call (copied from
   * x, y there), so reporting many observers' sightings of it writes one hot object.
   */
  readonly sightedAt = { x: 0, y: 0 };
  /** Observers that saw it at their last evaluation. */
  readonly seenBy = new Set<string>();
  /** Proxy id in the candidate index. */
  proxy = -1;
  /** Evaluation stamp of the last time it was seen; lets an observer sweep its stale sightings. */
  seenStamp = 0;
  /** Tick stamp of its last change (moved, resized, added); observers compare it with their `freshAt`. */
  changedAt = 0;

  constructor(id: string) {
    this.id = id;
  }

  get samples(): number {
    return this.samplesSpec !== 0 ? this.samplesSpec : this.radius > 0 ? 3 : 1;
  }
}
