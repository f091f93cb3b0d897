import type { TiledLevel } from "sightline/occluders";
import { ERROR_CODES } from "../shared/protocol.js";
import { DoorIndex } from "./doorIndex.js";

/**
 * How bots play the level's doors and smoke grenades in a run (`--level-play on`), shared by every bot:
 * the map's doors, and the odds each bot draws its own habits from (seeded, per bot).
 */
export interface LevelPlay {
  doors: DoorIndex;
  /** Share of bots that shut a door behind them once through it. */
  shutShare: number;
  /** Each bot's mean seconds between grenades (while it has any) is drawn from this range. */
  smokeEverySeconds: readonly [number, number];
  /** How much likelier a throw is while a guard is alerted to the bot (only decoding bots know). */
  pressedFactor: number;
}

/** What the bots of a run asked of the level, and what the room refused. */
export interface LevelPlayTally {
  doorOpens: number;
  doorShuts: number;
  smokes: number;
  /**
   * `door` and `smoke` requests the room answered with `message.refused`. The room sends at most one
   * refusal per code a second to a client, so this is a floor of what it refused.
   */
  refused: number;
  /** The first few refusals, as the room worded them. */
  refusedExamples: string[];
}

/** How far ahead of itself a bot looks for doors, meters: past the reach, so it sees a door before it is at it. */
export const DOOR_LOOK_AHEAD = 2.5;

/** The level play of a run on `level` (its public map), with the habits the docs describe. */
export function levelPlayOn(level: Pick<TiledLevel, "doors" | "width" | "height">): LevelPlay {
  return {
    doors: new DoorIndex(level.doors, level.width, level.height, DOOR_LOOK_AHEAD),
    shutShare: 0.3,
    smokeEverySeconds: [20, 40],
    pressedFactor: 4,
  };
}

export function newLevelPlayTally(): LevelPlayTally {
  return { doorOpens: 0, doorShuts: 0, smokes: 0, refused: 0, refusedExamples: [] };
}

/**
 * Whether an `error` message is the room turning down a door or a grenade: part of playing (a door out of
 * reach by the time the request lands, someone in the doorway, a bot's reckoning off by a metre), counted
 * as such rather than as a fault of the server.
 */
export function refusedPlay(e: { code?: unknown; message?: unknown } | undefined): "door" | "smoke" | undefined {
  if (e?.code !== ERROR_CODES.messageRefused || typeof e.message !== "string") return undefined;
  if (e.message.startsWith("door: ")) return "door";
  if (e.message.startsWith("smoke: ")) return "smoke";
  return undefined;
}

/** Counts a refusal, keeping the first few for the report. */
export function countRefusal(tally: LevelPlayTally, detail: string): void {
  tally.refused++;
  if (tally.refusedExamples.length < 10) tally.refusedExamples.push(detail);
}
