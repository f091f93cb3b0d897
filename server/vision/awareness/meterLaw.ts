/**
 * The meter law: how one (observer, target) meter fills while its target is seen (the fill rate, from
 * distance, range edge, periphery, proximity, visibility and the observer's state) or heard (a fill per
 * noise), and drains while it is neither (held for the grace period, then a linear decay). Apart from the model, which decides when a meter
 * is read and what crossing a threshold means, so the law can be read, tuned and priced on its own.
 */
import type { Heard, ObserverState, Sighting } from "./types.js";
import type { ResolvedOptions } from "./validation.js";

/** Timers add up dt each step; 60 x 0.05 s sums to 2.9999999999999996, which must count as 3 s. @internal */
export const TIME_EPS = 1e-9;

/** A stored meter: its level as of the model time it was last seen. @internal */
export interface MeterReading {
  /** Level at `seenAt`, in [0, 1]. */
  readonly level: number;
  /** Model time of the last sighting, seconds. */
  readonly seenAt: number;
}

/** Level of meter `m` at model time `t` (>= its `seenAt`). @internal */
export function levelAt(m: MeterReading, t: number, o: ResolvedOptions): number {
  const late = t - m.seenAt - o.graceSeconds;
  if (late <= TIME_EPS) return m.level;
  const v = m.level - o.decayRate * late;
  return v > 0 ? v : 0;
}

/** Model time at which meter `m` reaches 0 if unseen from now on. @internal */
export function zeroAt(m: MeterReading, o: ResolvedOptions): number {
  return m.seenAt + o.graceSeconds + m.level / o.decayRate;
}

/** The multipliers one sighting's fill rate was made of (see {@link fillPerSecond}). @internal */
export interface FillFactors {
  distance: number;
  rangeEdge: number;
  periphery: number;
  visibility: number;
  state: number;
}

/**
 * Fill per second for one sighting by an observer in `state` (the law in docs/vision.md), with options
 * already resolved and the sighting already checked: the step's hot path. With `factors`, each multiplier
 * is written there too (the same arithmetic, so an explanation multiplies back to this very rate).
 * @internal
 */
export function fillPerSecond(s: Sighting, state: ObserverState, o: ResolvedOptions, factors?: FillFactors): number {
  const d = Math.max(s.distance, o.minDistance);
  const law = Math.pow(o.referenceDistance / d, o.distanceExponent);
  let rate = o.fillRate * law;
  let edge = 1;
  if (Number.isFinite(s.range) && s.range > 0) {
    const u = Math.min(1, s.distance / s.range);
    edge = 1 - o.rangeEdgeSlowdown * u * u;
    rate *= edge;
  }
  let side = 1;
  if (s.proximity === true) side = o.proximityFactor;
  else if (s.halfFov > 0 && s.halfFov < Math.PI) {
    const a = Math.min(1, s.offAxis / s.halfFov);
    side = 1 - o.peripherySlowdown * a * a;
  }
  rate *= side;
  const seen = s.visibility ?? 1;
  rate *= seen;
  const stateFactor = stateFactorOf(state, o);
  if (factors !== undefined) {
    factors.distance = law;
    factors.rangeEdge = edge;
    factors.periphery = side;
    factors.visibility = seen;
    factors.state = stateFactor;
  }
  return rate * stateFactor;
}

/**
 * Fill from one noise heard by an observer in `state`: `hearingFill` x how loud it still was x its
 * salience x the state's factor (per noise, not per second). @internal
 */
export function fillPerNoise(h: Heard, state: ObserverState, o: ResolvedOptions): number {
  return o.hearingFill * h.level * (h.salience ?? 1) * stateFactorOf(state, o);
}

/** The fill multiplier of an observer's state (an alerted guard acquires faster, by sight and by ear). @internal */
export function stateFactorOf(state: ObserverState, o: ResolvedOptions): number {
  const f = o.stateFactor;
  return state === "idle" ? f.idle : state === "suspicious" ? f.suspicious : state === "alerted" ? f.alerted : f.searching;
}
