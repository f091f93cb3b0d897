import type { TiledLevel } from "sightline/occluders";
import { ERROR_CODES } from "../shared/protocol.js";
import { DoorIndex } from "./doorIndex.js";

/**
 * How bots play the level's doors, smoke grenades and distractions in a run (`--level-play on`), shared by
 * every bot: the map's doors, and the odds each bot draws its own habits from (seeded, per bot).
 */
export interface LevelPlay {
  doors: DoorIndex;
  /** Share of bots that shut a door behind them once through it. */
  shutShare: number;
  /** Each bot's mean seconds between grenades (while it has any) is drawn from this range. */
  smokeEverySeconds: readonly [number, number];
  /**
   * Each bot's mean seconds between distractions (while it has any) is drawn from this range; undefined
   * when the rooms have no hearing (`--hearing off`), where the room would refuse every one.
   */
  distractEverySeconds: readonly [number, number] | undefined;
  /** How much likelier a throw (grenade or distraction) is while a guard is alerted to the bot (only decoding bots know). */
  pressedFactor: number;
}

/** What the bots of a run asked of the level, and what the room refused. */
export interface LevelPlayTally {
  doorOpens: number;
  doorShuts: number;
  smokes: number;
  /** Distractions thrown (`distract` messages sent). */
  distractions: number;
  /**
   * `door` and `smoke` requests the room answered with `message.refused`. The room sends at most one
   * refusal per code a second to a client, so this is a floor of what it refused.
   */
  refused: number;
  /** `distract` requests the room answered with `message.refused` (a floor alike). */
  distractionsRefused: number;
  /** The first few refusals, as the room worded them. */
  refusedExamples: string[];
}

/** How far ahead of itself a bot looks for doors, meters: past the reach, so it sees a door before it is at it. */
export const DOOR_LOOK_AHEAD = 2.5;

/**
 * The level play of a run on `level` (its public map), with the habits the docs describe. Without
 * `hearing` (rooms made with `hearing: false`), bots throw no distractions.
 */
export function levelPlayOn(level: Pick<TiledLevel, "doors" | "width" | "height">, hearing = true): LevelPlay {
  return {
    doors: new DoorIndex(level.doors, level.width, level.height, DOOR_LOOK_AHEAD),
    shutShare: 0.3,
    smokeEverySeconds: [20, 40],
    distractEverySeconds: hearing ? [15, 30] : undefined,
    pressedFactor: 4,
  };
}

export function newLevelPlayTally(): LevelPlayTally {
  return { doorOpens: 0, doorShuts: 0, smokes: 0, distractions: 0, refused: 0, distractionsRefused: 0, refusedExamples: [] };
}

/** What a bot may ask of the level, by the `message.refused` prefix the room words its refusals with. */
export type PlayRequest = "door" | "smoke" | "distract";

/**
 * Whether an `error` message is the room turning down a door, a grenade or a distraction: part of playing
 * (a door out of reach by the time the request lands, someone in the doorway, a bot's reckoning off by a
 * metre), counted as such rather than as a fault of the server.
 */
export function refusedPlay(e: { code?: unknown; message?: unknown } | undefined): PlayRequest | undefined {
  if (e?.code !== ERROR_CODES.messageRefused || typeof e.message !== "string") return undefined;
  if (e.message.startsWith("door: ")) return "door";
  if (e.message.startsWith("smoke: ")) return "smoke";
  if (e.message.startsWith("distract: ")) return "distract";
  return undefined;
}

/** Counts a refusal of a `kind` request, keeping the first few for the report. */
export function countRefusal(tally: LevelPlayTally, kind: PlayRequest, detail: string): void {
  if (kind === "distract") tally.distractionsRefused++;
  else tally.refused++;
  if (tally.refusedExamples.length < 10) tally.refusedExamples.push(detail);
}
