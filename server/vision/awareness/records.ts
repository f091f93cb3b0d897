/**
 * The model's records: one per observer (its state machine's fields and its pairs) and one per
 * (observer, target) pair (its meter and where the target was last seen), laid out for the step's reads,
 * with the two lookups over them. Apart from the model so its class holds the behaviour, not the storage.
 */
import type { AwarenessModel } from "./awarenessModel.js";
import type { ObserverState, Sense } from "./types.js";
import { levelAt, TIME_EPS, zeroAt } from "./meterLaw.js";
import type { FillLog, FillLogs } from "./fillLog.js";
import type { ResolvedOptions } from "./validation.js";

/**
 * One (observer, target) meter, stored lazily: its level as of `seenAt` (model seconds), from which the
 * level at any later time follows (hold for the grace period, then decay linearly). Unseen pairs are
 * therefore never touched step by step; a busy room pays for its sightings, not for its memory.
 *
 * Fields are declared in the order a step reads them (the engine lays them out in that order): a pair is
 * usually cold in memory when its sighting comes, and every extra cache line it spans costs a miss.
 * @internal
 */
export class Pair {
  readonly rec: ObserverRecord;
  readonly targetId: string;
  /** Set once the pair is dropped, so a sighting's memo cannot revive it. */
  dropped = false;
  /** Step stamps: last sighting (duplicates within a step count once), and the step the meter filled. */
  seenStep = -1;
  /** Level at `seenAt`. */
  level = 0;
  /** Model time of the last sighting, seconds. */
  seenAt = 0;
  /** Whether the next fill from zero may announce `noticed`. */
  armed = true;
  reachedStep = -1;
  /** First-appearance rank within its observer: ties go to the lowest. */
  readonly order: number;
  /** Where the target was last seen or heard, meters, and by which sense. */
  x = 0;
  y = 0;
  sense: Sense = "sight";
  /** The steps that raised this meter since it last stood at 0, when the model explains (made on the first). */
  log: FillLog | null = null;

  constructor(rec: ObserverRecord, targetId: string, order: number) {
    this.rec = rec;
    this.targetId = targetId;
    this.order = order;
  }
}

/** One observer's state machine and meters. Fields in the order a step reads them (see `Pair`). @internal */
export class ObserverRecord {
  readonly owner: AwarenessModel;
  readonly id: string;
  /** Index in the model's dense record list (and its deadline / touched arrays); -1 once dropped. */
  slot = -1;
  /** Step stamp of the last step with a sighting, and what those sightings found (see `step`). */
  touchedStep = -1;
  /** The first pair (in first-appearance order) seen this step at full awareness that may be spotted. */
  spot: Pair | null = null;
  /** The pair seen this step with the highest level (the earliest on ties). */
  seenTop: Pair | null = null;
  state: ObserverState = "idle";
  /** The focus target's pair while it exists (cleared by `remove`). */
  focusPair: Pair | null = null;
  /** Model time by which every meter is back at 0 if nothing is seen again (suspicious calms down). */
  calmAt = 0;
  /**
   * At least the level of every pair it holds, as of the end of the last step that touched it (meters
   * only fall while unseen, so it stays a bound): when the pair seen this step is above it, that pair is
   * the most aware one and the other pairs need not be visited. Exact again after each full scan.
   */
  levelCap = 0;
  /**
   * The leader of the last full scan, while it lasts, and a bound on every other pair's level from then
   * on (the scan's runner-up, raised by every fill of another pair since): while the leader's own level
   * now is above the bound, it is still the only most aware pair, however the cold pairs have decayed.
   */
  leader: Pair | null = null;
  runnerUp = 0;
  /** Model time the focus was last seen (alerted), or the search began (searching). */
  since = 0;
  /** Last known position of the focus, meters; meaningful once `hasKnown`. */
  knownX = 0;
  knownY = 0;
  hasKnown = false;
  /** Target the state is about (the one spotted, or the most suspicious). */
  focus: string | null = null;
  /** The pair its last heard noise fed (a lookup saved when the same emitter is heard again). */
  heardPair: Pair | null = null;
  readonly pairs = new Map<string, Pair>();
  /** The same pairs, densely, in the order they first appeared. */
  readonly pairList: Pair[] = [];
  nextOrder = 0;

  constructor(owner: AwarenessModel, id: string) {
    this.owner = owner;
    this.id = id;
  }
}

/** Scanning one or two pairs beats hashing the id; beyond that each compared id is a cache miss. @internal */
export function findPair(rec: ObserverRecord, targetId: string): Pair | undefined {
  const pairs = rec.pairList;
  if (pairs.length > 2) return rec.pairs.get(targetId);
  for (let i = 0; i < pairs.length; i++) if (pairs[i]!.targetId === targetId) return pairs[i];
  return undefined;
}

/** The observer's pair for `targetId`, created on its first sighting or noise. @internal */
export function pairOf(rec: ObserverRecord, targetId: string): Pair {
  let pair = findPair(rec, targetId);
  if (pair === undefined) {
    pair = new Pair(rec, targetId, rec.nextOrder++);
    rec.pairs.set(targetId, pair);
    rec.pairList.push(pair);
  }
  return pair;
}

/** Whether a memo found on sighting `s` is `owner`'s live pair for that sighting's observer and target. @internal */
export function ownsPair(owner: AwarenessModel, pair: Pair, s: { observerId: string; targetId: string }): boolean {
  const rec = pair.rec;
  return !pair.dropped && rec.owner === owner && rec.slot >= 0 && pair.targetId === s.targetId && rec.id === s.observerId;
}

/**
 * The pair with the highest level now (the earliest on ties) of an observer that saw something this step.
 * The pairs not seen this step are cold in memory; they are visited only when `levelCap` cannot rule them
 * out, and the cap is exact again afterwards.
 * @internal
 */
export function mostAware(rec: ObserverRecord, now: number, o: ResolvedOptions): Pair {
  const seen = rec.seenTop!;
  if (rec.levelCap < seen.level) return seen;
  const leader = rec.leader;
  // A suspicious observer hearing a second target every few steps would otherwise scan every step.
  if (leader !== null && !leader.dropped && levelAt(leader, now, o) > rec.runnerUp) return leader;
  let best = seen;
  let bestLevel = -1;
  let second = 0;
  const pairs = rec.pairList;
  for (let i = 0; i < pairs.length; i++) {
    const level = levelAt(pairs[i]!, now, o);
    if (level > bestLevel) {
      if (bestLevel > second) second = bestLevel;
      best = pairs[i]!;
      bestLevel = level;
    } else if (level > second) second = level;
  }
  rec.levelCap = bestLevel;
  rec.leader = best;
  rec.runnerUp = second;
  return best;
}

/**
 * Forgets the pairs of an idle observer that no longer matter (calm and re-armed), keeping the others in
 * order; returns how many are left. @internal
 */
export function dropCalmPairs(rec: ObserverRecord, now: number, o: ResolvedOptions, logs: FillLogs): number {
  const pairs = rec.pairList;
  let kept = 0;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!;
    if (levelAt(pair, now, o) === 0 && (pair.armed || now - zeroAt(pair, o) >= o.noticeRearmSeconds - TIME_EPS)) {
      rec.pairs.delete(pair.targetId);
      pair.dropped = true;
      logs.giveBack(pair);
    } else pairs[kept++] = pair;
  }
  pairs.length = kept;
  return kept;
}

/**
 * Model time from which an observer that sees nothing may change state: `advance` is a no-op for an
 * untouched record before it (idle never changes unseen; the others wait on one timer each). A little
 * early on purpose: `advance` re-checks the exact condition. @internal
 */
export function dueTime(rec: ObserverRecord, o: ResolvedOptions): number {
  switch (rec.state) {
    case "idle": return Infinity;
    case "suspicious": return rec.calmAt - 2 * TIME_EPS;
    case "alerted": return rec.since + o.lostAfterSeconds - 2 * TIME_EPS;
    case "searching": return rec.since + o.searchSeconds - 2 * TIME_EPS;
  }
}
