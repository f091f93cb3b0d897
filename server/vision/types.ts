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

/** Options of a {@link VisionSystem}. Every field is optional; defaults are in `DEFAULT_VISION_OPTIONS`. */
export interface VisionOptions {
  /**
   * Collision category bits that block sight. A fixture whose `filterCategoryBits` do not intersect this
   * mask is transparent (glass). Default 0xFFFF (every category blocks).
   */
  opaqueMask?: number;
  /** Keep every sight ray cast by the last `tick()` in `VisionSystem.rayLog` (debug drawing). Default false. */
  recordRays?: boolean;
  /**
   * Scheduler budget: tree rays one `tick()` may cast. The evaluation in progress may finish past it.
   * `Infinity` evaluates every observer with pending work each tick. Default 256 (the reference room, 1024
   * guards x 64 players at 30 m, meets detection latency p99 <= 3 ticks with it; see docs/benchmarks.md).
   */
  raysPerTick?: number;
  /** Score gained per tick waited, in priority units: `priority x urgency + agingRate x ticksWaited`. Default 0.25. */
  agingRate?: number;
  /**
   * Optional wall-clock budget per `tick()`, microseconds: no new evaluation starts after it. Off (Infinity)
   * by default because it makes results depend on machine speed; with it the staleness bound assumes one
   * evaluation per tick.
   */
  timeBudgetUs?: number;
  /**
   * Hysteresis: a target already seen stays in range until it is this fraction beyond the range (and the
   * proximity radius). Default 0.1 (lost at 110%).
   */
  loseRangeMargin?: number;
  /** Hysteresis: a target already seen stays in the cone until this many radians beyond its edge. Default 5 degrees. */
  loseAngleMargin?: number;
  /** Test the fixture that last hid a pair before casting a tree ray. Default true. */
  blockerCache?: boolean;
}

/** What one `tick()` did. */
export interface VisionTickReport {
  /** The engine's tick counter after this tick (the first tick is 1). */
  tick: number;
  /** Tree rays cast this tick (what `raysPerTick` budgets). */
  rays: number;
  /** Observers whose results were recomputed this tick (with or without rays). */
  evaluated: number;
  /** Observers with a candidate in range whose inputs had not changed: their results stand, no work done. */
  skipped: number;
  /** Observers with pending work left for a later tick. */
  queue: number;
  /** (observer, candidate) pairs given the exact geometric test during evaluations this tick. */
  pairs: number;
  /**
   * Ticks since their results were last exact, over the observers left with pending work after this tick
   * (the backlog). All 0 when nothing is left pending. Never exceeds `VisionSystem.stalenessBound()`.
   */
  staleness: { p50: number; p99: number; max: number };
  /** Pairs found still hidden by the fixture that hid them last time, without a tree ray. */
  blockerCacheHits: number;
  /** Unseen pairs in view that had a cached blocker to try this tick (the cache's opportunity). */
  stillBlocked: number;
}
