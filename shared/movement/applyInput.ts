import { wrapAngle } from "sightline";
import type { MoveIntent } from "../protocol.js";

/** Server-owned movement rules, shared with predicting clients so both integrate the same way. */
export interface MovementRules {
  /** Top speed walking, meters per second. */
  walkSpeed: number;
  /** Top speed crouching (sneaking), meters per second. */
  crouchSpeed: number;
}

export const DEFAULT_MOVEMENT_RULES: Readonly<MovementRules> = Object.freeze({ walkSpeed: 3, crouchSpeed: 1.4 });

/** What one input frame asks of a character: velocity (m/s), facing (radians) and stance. Written in place. */
export interface Motion {
  vx: number;
  vy: number;
  facing: number;
  crouch: boolean;
}

/**
 * Turns one input frame into the character's motion for the next step: the move is clamped to the unit
 * disc and scaled by the stance's speed, the facing wrapped into (-PI, PI]. The server applies it as the
 * body's velocity before `world.step`; a predicting client integrates the same motion. Returns false and
 * leaves `out` untouched when the frame holds a non-finite number: such a frame must be dropped, never
 * guessed at. Allocation-free.
 */
export function applyInput(input: MoveIntent, out: Motion, rules: MovementRules = DEFAULT_MOVEMENT_RULES): boolean {
  const mx = input.moveX;
  const my = input.moveY;
  if (!Number.isFinite(mx) || !Number.isFinite(my) || !Number.isFinite(input.facing)) return false;
  const len = Math.sqrt(mx * mx + my * my);
  const scale = (input.crouch ? rules.crouchSpeed : rules.walkSpeed) / (len > 1 ? len : 1);
  out.vx = mx * scale;
  out.vy = my * scale;
  out.facing = wrapAngle(input.facing);
  out.crouch = input.crouch === true;
  return true;
}
