import type { Body } from "planck";

/**
 * What stopped a sight ray: a planck `Fixture` or an occluder piece. The engine only keeps it to try it
 * first next time (most hidden targets stay behind the same wall) and hands it back to the medium that
 * produced it.
 * @internal
 */
export type Blocker = object;

/** Receives the boxes (meters) where occluders appeared, vanished, moved or changed. @internal */
export type AreaListener = (minX: number, minY: number, maxX: number, maxY: number) => void;

/**
 * What the vision engine casts its rays through: a planck `World` (`LineOfSight`) or an `Occluders`
 * (`OccluderSight`). One contract, so the scheduler, the sight rule and the blocker cache do not know
 * which.
 * @internal
 */
export interface SightMedium {
  /** Whether observers and observables may name bodies (a planck world has them; occluders do not). */
  readonly hasBodies: boolean;
  /** Category bits that block sight (0xFFFF for occluders, which hold only what blocks). */
  readonly opaqueMask: number;
  /** Segments tested since construction (one per `blocked` call): the tree rays the budget counts. */
  readonly segments: number;
  /** What blocked the last `blocked` call that returned true. */
  readonly lastBlocker: Blocker | null;
  /** Brings the medium up to date with changes nobody announced; the engine calls it every tick. */
  refresh(): void;
  /** Stops listening to the world or the occluders. */
  dispose(): void;
  /** Where to report changed areas (one listener). */
  onAreaChanged(listener: AreaListener): void;
  /**
   * True when something that blocks sight crosses the segment from (x1, y1) toward (x2, y2) strictly
   * before `maxFraction` of its length. Fixtures of `ignoreA` and `ignoreB` never block.
   */
  blocked(x1: number, y1: number, x2: number, y2: number, ignoreA: Body | null, ignoreB: Body | null, maxFraction?: number): boolean;
  /** Whether `blocker` may block sight at all right now (still there, still opaque, not an ignored body's). */
  canBlock(blocker: Blocker, ignoreA: Body | null, ignoreB: Body | null): boolean;
  /** The geometric half: does the segment cross `blocker` before `maxFraction`? */
  crosses(blocker: Blocker, x1: number, y1: number, x2: number, y2: number, maxFraction?: number): boolean;
  /** Fraction of the segment at which it first enters a non-sensor fixture of `body`, or 1. */
  entryFraction(x1: number, y1: number, x2: number, y2: number, body: Body): number;
  /**
   * A moving body with an opaque fixture that contains the point, if any: an observable placed there
   * without passing that body would be hidden by it from everyone.
   */
  movingBodyAt(x: number, y: number): Body | null;
}
