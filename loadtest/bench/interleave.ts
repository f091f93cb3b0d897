/**
 * Peers timed side by side. On this kind of shared VM the same code runs 30% faster or slower from one
 * minute to the next; a ratio taken between medians measured minutes apart carries that drift (two
 * back-to-back runs of one bench once gave the naive pass 19.4 and 26.7 ms). Stepped in one loop, taking
 * turns every few ticks in a seeded random order drawn afresh every turn, every side meets the same drift,
 * GC and outside load, and a ratio compares ticks that ran within a fraction of a second of each other.
 */
import { seededRandom } from "../../shared/seededRandom.js";
import { percentile } from "./percentile.js";

/** One side of an interleaved loop. */
export interface InterleavedSide {
  /** Untimed, before this tick's timed step (moving the side's own copy of the level, say). */
  prepare?(tick: number): void;
  /** The work being measured. */
  step(tick: number): void;
  /** Untimed, after the timed step (checking answers, counting). */
  after?(tick: number): void;
}

export interface InterleaveOptions {
  /** Measured ticks, after the warm-up. */
  ticks: number;
  /** Ticks run first, in the same order, and left out (JIT, first searches). @default 0 */
  warmup?: number;
  /**
   * Ticks a side runs before the next side takes its turn. 1 interleaves tick by tick, but then each side
   * starts every tick with caches the others filled: a side whose working set fits in cache (the scheduled
   * engine's 2 ms tick) runs about twice as slow as alone, and the ratio measures cache misses. A turn of
   * a few ticks leaves only its first tick cold, and the medians untouched. @default 1
   */
  turn?: number;
  /** Seed of the order. @default 1 */
  seed?: number;
}

/**
 * Runs warm-up + measured ticks, in turns of `turn` ticks: each turn, the sides in a fresh random order
 * (not a rotation: a rotation aliases with anything periodic in a side and would hand the same neighbour
 * to the same side every time), each running the turn's ticks one after another: `prepare`, the timed
 * `step`, `after`. Every side runs every tick, in tick order. Returns the ms of each measured step, per
 * side, in tick order.
 */
export function interleave(sides: readonly InterleavedSide[], options: InterleaveOptions): number[][] {
  const warmup = options.warmup ?? 0;
  const turn = options.turn ?? 1;
  if (!Number.isInteger(turn) || turn < 1) throw new RangeError(`interleave: turn must be a positive integer, got ${turn}`);
  const random = seededRandom(options.seed ?? 1);
  const order = sides.map((_, i) => i);
  const ms = sides.map(() => [] as number[]);
  const total = warmup + options.ticks;
  for (let from = 0; from < total; from += turn) {
    const to = Math.min(total, from + turn);
    shuffle(order, random);
    for (const k of order) {
      const side = sides[k]!;
      for (let tick = from; tick < to; tick++) {
        side.prepare?.(tick);
        const t0 = performance.now();
        side.step(tick);
        const t = performance.now() - t0;
        if (tick >= warmup) ms[k]!.push(t);
        side.after?.(tick);
      }
    }
  }
  return ms;
}

/** Fisher-Yates, in place, by `random` (uniform on [0, 1)). */
export function shuffle(order: number[], random: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
}

/** Median over median of two sides' per-tick ms from one {@link interleave} (the same ticks, moments apart). */
export function ratioOfMedians(numerator: readonly number[], denominator: readonly number[]): number {
  if (numerator.length !== denominator.length) throw new RangeError(`ratioOfMedians: ${numerator.length} ticks against ${denominator.length}`);
  return round(percentile([...numerator], 0.5) / percentile([...denominator], 0.5));
}

/** One figure measured in several rounds: the rounds' median, each round's, and their spread. */
export interface AcrossRounds {
  median: number;
  byRound: number[];
  /** Largest over smallest, minus 1: 0.1 when the rounds lie within 10% of each other. */
  spread: number;
}

export function acrossRounds(values: readonly number[]): AcrossRounds {
  if (values.length === 0) throw new RangeError("acrossRounds: no rounds");
  return {
    median: round(percentile([...values], 0.5)),
    byRound: values.map(round),
    spread: round(Math.max(...values) / Math.min(...values) - 1),
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
