import type { Body } from "planck";
import type { DetectionEvent, Noise, VisionTickReport } from "sightline";
import type { GuardBrain, GuardCommand } from "./guardBrain.js";
import type { CameraPlacement, GuardPlacement } from "./tiledMap.js";

/** A player character in the simulation. */
export interface SimPlayer {
  readonly id: string;
  readonly body: Body;
  team: string;
  /** The spawn it asked for at join (captures and escapes send it back there), else round-robin. */
  spawn: string | undefined;
  /** Radians. */
  facing: number;
  crouch: boolean;
  /** Velocity asked for, m/s (from the last applied input). */
  vx: number;
  vy: number;
  caught: number;
  escapes: number;
  /** Smoke grenades left (refilled at every respawn). */
  smokes: number;
  /** Distractions left (refilled at every respawn). */
  distractions: number;
  /** Meters moved since its last footstep. */
  stride: number;
}

/** A patrolling guard. Its id is `guard:<name>` (or `guard:<object id>` when unnamed). */
export interface SimGuard {
  readonly id: string;
  readonly placement: GuardPlacement;
  readonly body: Body;
  readonly brain: GuardBrain;
  readonly command: GuardCommand;
  /** Meters moved since its last footstep. */
  stride: number;
}

/** A sweeping camera. Its id is `camera:<name>` (or `camera:<object id>`). */
export interface SimCamera {
  readonly id: string;
  readonly placement: CameraPlacement;
  facing: number;
}

/** A round outcome: a player reached an exit, or an alerted guard caught them. Both respawn the player. */
export interface RoundEvent {
  type: "escaped" | "caught";
  playerId: string;
  /** The guard that caught them. */
  by?: string;
}

/** What one {@link StealthSimulation.step} did. */
export interface StepResult {
  tick: number;
  vision: VisionTickReport;
  /** Detection events of this step, in order, including a catcher's `cleared` (valid until the next step). */
  events: readonly DetectionEvent[];
  round: readonly RoundEvent[];
  /** Doors that opened or shut at the start of this step. */
  doorsToggled: number;
  /** Footsteps and thuds of this step (valid until the next step). */
  noises: readonly Noise[];
}
