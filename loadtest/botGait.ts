import { FOOTSTEPS } from "../shared/gameRules.js";
import { DEFAULT_MOVEMENT_RULES } from "../shared/movement/applyInput.js";
import type { Intent } from "./botBehaviour.js";

/**
 * How a bot's character moves in one input frame, as the room's ears tell gaits apart (by speed, see
 * `FOOTSTEPS`): `run` from 2.4 m/s upright (full stick, 3 m/s), `walk` slower upright (half stick, 1.5
 * m/s), `crouch` crouching (1.4 m/s), `still` standing (or too slow to make a step).
 */
export type Gait = "run" | "walk" | "crouch" | "still";
export const GAITS: readonly Gait[] = ["run", "walk", "crouch", "still"];

/** Input frames of each gait, summed over a run's bots. */
export type GaitTally = Record<Gait, number>;

export function newGaitTally(): GaitTally {
  return { run: 0, walk: 0, crouch: 0, still: 0 };
}

/** The stick of a walk: half, 1.5 m/s upright, below the run's 2.4 m/s. */
export const WALK_STICK = 0.5;
/** Each bot's share of its time in walking spells is drawn from this range (seeded, per bot). */
export const WALK_SHARE: readonly [number, number] = [0.1, 0.3];
/** Mean seconds of one walking spell. */
const WALK_SPELL_SECONDS = 3;

/**
 * A bot's pace: it eases off to half stick (a walk) in spells of about 3 s, for a seeded share of its time
 * (10-30%, per bot), and pushes the full stick (a run, or a crouch when it crouches) otherwise. Its
 * behaviour steers as ever (the same paths, stops and stance); only the stick's length changes, so a walk
 * covers half the ground in the same time. Its own random stream: a run's walks are the same for a seed.
 */
export class BotGait {
  /** The share of its time this bot spends in walking spells. */
  readonly walkShare: number;
  private walking: boolean;
  private readonly startChance: number;
  private readonly stopChance: number;

  constructor(private readonly random: () => number, tickSeconds: number, share: readonly [number, number] = WALK_SHARE) {
    this.walkShare = share[0] + random() * (share[1] - share[0]);
    // A spell ends with this chance per tick and starts with the other, so that spells fill the share.
    this.stopChance = Math.min(1, tickSeconds / WALK_SPELL_SECONDS);
    this.startChance = this.walkShare >= 1 ? 1 : Math.min(1, (this.stopChance * this.walkShare) / (1 - this.walkShare));
    this.walking = random() < this.walkShare;
  }

  /**
   * Paces this tick's intent (in place: the stick halved in a walking spell, unless crouching) and says its
   * gait, as the room would hear it with nothing in the way.
   */
  pace(intent: Intent): Gait {
    this.walking = this.walking ? this.random() >= this.stopChance : this.random() < this.startChance;
    const stick = Math.min(1, Math.hypot(intent.moveX, intent.moveY));
    if (stick === 0) return "still";
    if (intent.crouch) return stick * DEFAULT_MOVEMENT_RULES.crouchSpeed < FOOTSTEPS.stillBelow ? "still" : "crouch";
    let speed = stick * DEFAULT_MOVEMENT_RULES.walkSpeed;
    if (this.walking) {
      intent.moveX *= WALK_STICK;
      intent.moveY *= WALK_STICK;
      speed *= WALK_STICK;
    }
    return speed < FOOTSTEPS.stillBelow ? "still" : speed >= FOOTSTEPS.runFrom ? "run" : "walk";
  }
}
