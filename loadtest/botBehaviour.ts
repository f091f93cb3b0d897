import { wrapAngle } from "sightline";
import type { NavGrid, Waypoint } from "../server/sim/navGrid.js";
import type { StealthMap } from "../server/sim/tiledMap.js";

/**
 * How a bot plays. Sneakers crouch-walk toward the exit and stop often to look around; blunderers walk
 * upright to random spots, or straight at a guard they can see, and rarely stop; wanderers walk, stop,
 * turn and crouch now and then. Together they make guards notice, chase, lose and catch players.
 */
export type BotKind = "sneaker" | "blunderer" | "wanderer";
export const BOT_KINDS: readonly BotKind[] = ["sneaker", "blunderer", "wanderer"];

/** One input frame's worth of intent (the fields of the room's `MoveInput`). Reused: copy to keep. */
export interface Intent {
  moveX: number;
  moveY: number;
  /** Radians. */
  facing: number;
  crouch: boolean;
}

interface Temperament {
  /** Chance per tick of stopping mid-walk. */
  stopChance: number;
  /** Seconds a stop lasts, min and max. */
  stopSeconds: [number, number];
  /** Chance per tick of switching stance while walking, and the stance it prefers. */
  crouchToggleChance: number;
  prefersCrouch: boolean;
  /** Chance a new goal is the exit rather than a random spot. */
  exitChance: number;
}

const TEMPERAMENTS: Record<BotKind, Temperament> = {
  sneaker: { stopChance: 0.02, stopSeconds: [0.5, 2.5], crouchToggleChance: 0.01, prefersCrouch: true, exitChance: 0.5 },
  blunderer: { stopChance: 0.002, stopSeconds: [0.2, 0.8], crouchToggleChance: 0, prefersCrouch: false, exitChance: 0.2 },
  wanderer: { stopChance: 0.008, stopSeconds: [0.5, 3], crouchToggleChance: 0.01, prefersCrouch: false, exitChance: 0.25 },
};

/** Radians per second a stopped bot turns its head while looking around. */
const LOOK_TURN_RATE = 2;
/** Ticks without progress before a bot gives up on its path and plans again. */
const STUCK_TICKS = 20;

/**
 * A bot's steering, one call per tick: paths on the server's nav grid (baked from the public map), stops,
 * turns and stance. Cheap by design: a path is planned only when a goal is reached or the bot is stuck,
 * and a tick otherwise costs a few arithmetic operations, so one generator can drive thousands of bots.
 */
export class BotBehaviour {
  private readonly intent: Intent = { moveX: 0, moveY: 0, facing: 0, crouch: false };
  private readonly path: Waypoint[] = [];
  private readonly temperament: Temperament;
  private stopTicks = 0;
  private lookDirection = 1;
  private stuckTicks = 0;
  /** Following a path (so an empty path means it arrived). */
  private walking = false;
  private lastX = NaN;
  private lastY = NaN;
  /** The bot stood still last tick on purpose (at a door): not being stuck. */
  private waited = false;

  constructor(
    readonly kind: BotKind,
    private readonly nav: NavGrid,
    private readonly map: StealthMap,
    private readonly random: () => number,
    private readonly tickSeconds: number,
  ) {
    this.temperament = TEMPERAMENTS[kind];
    this.intent.crouch = this.temperament.prefersCrouch;
    this.intent.facing = random() * 2 * Math.PI - Math.PI;
  }

  /**
   * The intent for this tick from the bot's position (meters). `guard` is a guard the bot can see, if any
   * (only decoding bots know): blunderers walk at it.
   */
  steer(x: number, y: number, guard?: Waypoint): Intent {
    const t = this.temperament;
    const out = this.intent;
    const moved = (x - this.lastX) ** 2 + (y - this.lastY) ** 2 > 1e-4;
    this.lastX = x;
    this.lastY = y;

    if (this.stopTicks > 0) {
      this.stopTicks--;
      out.moveX = 0;
      out.moveY = 0;
      if (this.random() < 0.02) this.lookDirection = -this.lookDirection;
      out.facing = wrapAngle(out.facing + this.lookDirection * LOOK_TURN_RATE * this.tickSeconds);
      return out;
    }

    this.stuckTicks = moved || this.waited ? 0 : this.stuckTicks + 1;
    this.waited = false;
    while (this.path.length > 0 && (this.path[0]!.x - x) ** 2 + (this.path[0]!.y - y) ** 2 < 0.09) this.path.shift();
    if (this.kind === "blunderer" && guard !== undefined && this.random() < 0.05) this.plan(x, y, guard);
    if (this.path.length === 0 || this.stuckTicks > STUCK_TICKS) {
      // Arrived: look around for a moment before the next goal.
      if (this.path.length === 0 && this.walking) this.stop();
      this.stuckTicks = 0;
      this.plan(x, y, this.pickGoal());
      if (this.stopTicks > 0) return this.steer(x, y, guard);
    }
    if (this.random() < t.stopChance) {
      this.stop();
      return this.steer(x, y, guard);
    }
    if (this.random() < t.crouchToggleChance) out.crouch = !out.crouch;
    else if (this.random() < 0.02) out.crouch = t.prefersCrouch;

    const wp = this.path[0];
    if (wp === undefined) {
      out.moveX = 0;
      out.moveY = 0;
      return out;
    }
    const dx = wp.x - x;
    const dy = wp.y - y;
    const d = Math.sqrt(dx * dx + dy * dy) || 1;
    out.moveX = dx / d;
    out.moveY = dy / d;
    out.facing = Math.atan2(dy, dx);
    return out;
  }

  /** The rest of the path being walked (the next waypoint first); empty when standing. Not to be modified. */
  get ahead(): readonly Waypoint[] {
    return this.path;
  }

  /**
   * Overrides this tick's intent (from `steer`): stand still facing `facing`, e.g. at a door the bot asked to
   * open. Standing so does not count toward giving up on the path.
   */
  wait(facing: number): Intent {
    this.waited = true;
    this.intent.moveX = 0;
    this.intent.moveY = 0;
    this.intent.facing = facing;
    return this.intent;
  }

  /** Walks to `goal` from (x, y) now, as if it were the goal the bot picked (a scenario's way to set its course). */
  headFor(x: number, y: number, goal: Waypoint): void {
    this.stopTicks = 0;
    this.stuckTicks = 0;
    this.plan(x, y, goal);
  }

  /** The bot was sent back to a spawn (caught or escaped): whatever it was doing is moot. */
  reset(): void {
    this.path.length = 0;
    this.stopTicks = 0;
    this.stuckTicks = 0;
    this.walking = false;
    this.waited = false;
    this.lastX = NaN;
  }

  private stop(): void {
    const [min, max] = this.temperament.stopSeconds;
    this.stopTicks = Math.round((min + this.random() * (max - min)) / this.tickSeconds);
  }

  private pickGoal(): Waypoint {
    const exit = this.map.exits[Math.floor(this.random() * this.map.exits.length)];
    if (exit !== undefined && this.random() < this.temperament.exitChance) {
      let cx = 0;
      let cy = 0;
      for (const p of exit) {
        cx += p.x / exit.length;
        cy += p.y / exit.length;
      }
      return { x: cx, y: cy };
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const goal = { x: this.random() * this.map.width, y: this.random() * this.map.height };
      if (this.nav.isFree(goal.x, goal.y)) return goal;
    }
    return { x: this.map.width / 2, y: this.map.height / 2 };
  }

  private plan(x: number, y: number, goal: Waypoint): void {
    if (!this.nav.findPath(x, y, goal.x, goal.y, this.path)) this.path.length = 0;
    this.walking = this.path.length > 0;
  }
}
