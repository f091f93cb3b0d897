import { object, positive, nonNegative, fraction, fail } from "../../shared/validation/rangeChecks.js";

/** How a smoke cloud grows, lasts and fades (see `Occluders.addSmoke`). */
export interface SmokeOptions {
  /** Radius once grown, meters. Required. */
  radius: number;
  /** Lifetime, seconds: the cloud is gone this long after it was added. Required. */
  seconds: number;
  /**
   * Seconds over which the radius grows linearly from 0 to `radius`. 0: full size at once.
   * @default 1 (but never more than `seconds`)
   */
  growSeconds?: number;
  /**
   * How many equal steps the radius grows in over `growSeconds`, each step reached at the start of its
   * share of the time (so a cloud is never smaller than a smoothly growing one). Every step is a change
   * that each reader of the occluders (vision, culling, tile field of view) follows; 0 grows it at every
   * {@link Occluders.advance}, a change per tick.
   * @default 4
   */
  growSteps?: number;
  /**
   * The last seconds of its life, over which its density falls linearly from 1 to 0.
   * @default 2 (but never more than `seconds`)
   */
  fadeSeconds?: number;
  /**
   * The density (0..1) below which it no longer blocks sight: it blocks from the moment it is added
   * until its fading density drops under this.
   * @default 0.5
   */
  opaqueDensity?: number;
}

/** Where a smoke cloud is in its life. All figures are for the time of the last `Occluders.advance`. */
export interface SmokeState {
  /** Its centre, meters. */
  x: number;
  y: number;
  /** Its radius now, meters. */
  radius: number;
  /** 1 while dense, falling to 0 as it fades. */
  density: number;
  /** Whether it blocks sight now. */
  blocking: boolean;
  /** Seconds since it was added, and its whole lifetime. */
  ageSeconds: number;
  seconds: number;
}

/** A smoke cloud's settings, checked, with its defaults. @internal */
export interface SmokeLife {
  readonly radius: number;
  readonly seconds: number;
  readonly growSeconds: number;
  readonly growSteps: number;
  readonly fadeSeconds: number;
  readonly opaqueDensity: number;
}

/** Checks `Occluders.addSmoke`'s options: a RangeError naming the field for a bad one. @internal */
export function smokeLife(options: SmokeOptions): SmokeLife {
  object("SmokeOptions", options, "{ radius, seconds, growSeconds?, growSteps?, fadeSeconds?, opaqueDensity? }");
  const radius = positive("SmokeOptions.radius", options.radius, "meters");
  if (!Number.isFinite(radius)) fail("SmokeOptions.radius", "must be finite meters", radius);
  const seconds = positive("SmokeOptions.seconds", options.seconds, "seconds");
  if (!Number.isFinite(seconds)) fail("SmokeOptions.seconds", "must be finite seconds (remove a lasting cloud yourself, or use addCircle)", seconds);
  const growSeconds = Math.min(seconds, nonNegative("SmokeOptions.growSeconds", options.growSeconds ?? 1, "seconds"));
  const growSteps = options.growSteps ?? 4;
  if (!Number.isInteger(growSteps) || growSteps < 0 || growSteps > 1000) fail("SmokeOptions.growSteps", "must be an integer from 0 to 1000", growSteps);
  const fadeSeconds = Math.min(seconds, nonNegative("SmokeOptions.fadeSeconds", options.fadeSeconds ?? 2, "seconds"));
  const opaqueDensity = fraction("SmokeOptions.opaqueDensity", options.opaqueDensity ?? 0.5, "(]");
  return { radius, seconds, growSeconds, growSteps, fadeSeconds, opaqueDensity };
}

/** The radius of a cloud `age` seconds old, meters. @internal */
export function smokeRadius(life: SmokeLife, age: number): number {
  if (life.growSeconds === 0 || age >= life.growSeconds) return life.radius;
  const grown = age / life.growSeconds;
  if (life.growSteps === 0) return life.radius * grown;
  // A hair under a step's mark stays in the step before: 0.25 s of 1 s in 4 steps is the first step.
  return (life.radius * Math.min(life.growSteps, Math.ceil(grown * life.growSteps - 1e-9))) / life.growSteps;
}

/** The density of a cloud `age` seconds old, in [0, 1]. @internal */
export function smokeDensity(life: SmokeLife, age: number): number {
  const left = life.seconds - age;
  if (left <= 0) return 0;
  return life.fadeSeconds === 0 || left >= life.fadeSeconds ? 1 : left / life.fadeSeconds;
}
