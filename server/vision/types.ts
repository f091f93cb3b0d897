import type { Body } from "planck";

/** A point in world meters. */
export interface Point {
  x: number;
  y: number;
}

/** Something that looks: a guard, a camera, a turret, a player character. */
export interface ObserverSpec {
  /** Eye position, meters. The caller copies it from the body each tick. */
  position: Point;
  /** Direction of the cone's axis, radians (0 = +x, counter-clockwise positive). */
  facing: number;
  /** How far it sees, meters, >= 0; may be Infinity. */
  range: number;
  /** The FULL cone angle, radians, > 0; `>= 2*PI` means all around (a turret). */
  fov: number;
  /**
   * "Sixth sense": an all-around radius in meters within which the observer sees regardless of facing.
   * Counts the target's body circle like `range` does, and still needs line of sight. Default 0.
   */
  proximityRadius?: number;
  /** The observer's own body: its fixtures never block its sight. */
  body?: Body;
  /** Base scheduling priority, finite and >= 0. Default 1. */
  priority?: number;
}

/** Something that can be seen: a player, an item, another guard. */
export interface ObservableSpec {
  /** Centre, meters. The caller copies it from the body each tick. */
  position: Point;
  /** Radius of the body circle, meters, >= 0. Default 0 (a point). */
  radius?: number;
  /** Its own body: its fixtures are the target, not blockers; a ray reaching them is clear. */
  body?: Body;
  /**
   * Rays per check, a positive odd integer: 1 = the centre; 3 = the centre and the two silhouette points;
   * larger n adds points evenly along the silhouette chord. Default 3 when radius > 0, else 1.
   */
  samples?: number;
  /** How many of those rays must be clear for the target to count as seen (k of n). Default 1. */
  required?: number;
}

/** Options of a {@link VisionSystem}. */
export interface VisionOptions {
  /**
   * Collision category bits that block sight. A fixture whose `filterCategoryBits` do not intersect this
   * mask is transparent (glass). Default 0xFFFF (every category blocks).
   */
  opaqueMask?: number;
  /** Keep every sight ray cast by the last `tick()` in `VisionSystem.rayLog` (debug drawing). Default false. */
  recordRays?: boolean;
}

/** What one `tick()` did. */
export interface VisionTickReport {
  /** The engine's tick counter after this tick (the first tick is 1). */
  tick: number;
  /** Sight rays cast this tick. */
  rays: number;
  /** Observers evaluated this tick. */
  evaluated: number;
  /** Observers left for a later tick. */
  skipped: number;
  /** (observer, candidate) pairs given the exact geometric test this tick. */
  pairs: number;
  /**
   * Ticks since the last evaluation, over observers with pending work (a candidate in range and
   * something changed since their last evaluation). All 0 when nothing is pending.
   */
  staleness: { p50: number; p99: number; max: number };
}
