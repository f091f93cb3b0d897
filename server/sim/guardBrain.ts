import { wrapAngle, type ObserverState } from "sightline";
import { seededRandom } from "../../shared/seededRandom.js";
import type { NavGrid, Waypoint } from "./navGrid.js";
import type { PatrolRoute } from "./patrolRoute.js";

/** What a guard is doing, as clients see it. */
export type GuardActivity = "patrol" | "turn" | "investigate" | "pursue" | "search" | "return";

/** How guards move and look. Speeds in meters per second, angles in radians, times in seconds. */
export interface GuardRules {
  patrolSpeed: number;
  /** Walking to a suspicious spot, an alarm, or a search point. */
  investigateSpeed: number;
  /** Chasing a spotted target: a little faster than a walking player, so breaking line of sight is the way out. */
  pursueSpeed: number;
  /** Radians per second a guard turns its head and body. */
  turnRate: number;
  /** Pause at each end of an open patrol route. */
  endPause: number;
  /** Seconds spent looking around at an investigated spot or a search point. */
  lookAroundSeconds: number;
  /** Radians either side a guard sweeps its gaze while looking around. */
  lookAroundArc: number;
  /** Meters from the last known position within which a search picks its points. */
  searchRadius: number;
  /** Seconds between path recomputations while the goal moves (a pursuit). */
  repathSeconds: number;
  /** A waypoint counts as reached within this distance, meters. */
  arriveRadius: number;
}

export const DEFAULT_GUARD_RULES: Readonly<GuardRules> = Object.freeze({
  patrolSpeed: 1.3,
  investigateSpeed: 2,
  pursueSpeed: 3.2,
  turnRate: 4,
  endPause: 1.2,
  lookAroundSeconds: 2.5,
  lookAroundArc: 1.1,
  searchRadius: 4,
  repathSeconds: 0.5,
  arriveRadius: 0.25,
});

/** What the guard's awareness and eyes tell its brain this tick (positions in meters). */
export interface GuardSenses {
  /** The guard's awareness state (from the awareness model). */
  alert: ObserverState;
  /** Where the target its state is about is right now, when the guard sees it this tick. */
  focusSeen?: Waypoint | undefined;
  /** Where it last knew that target to be. */
  lastKnown?: Waypoint | undefined;
  /** While idle: where the target it is most aware of (level > 0) is, when seen this tick. */
  noticing?: Waypoint | undefined;
}

/** The brain's decision for the next step: velocity (m/s) and facing (radians). Written in place. */
export interface GuardCommand {
  vx: number;
  vy: number;
  facing: number;
}

/**
 * A guard's behaviour: patrol its route, turn toward what it notices, investigate where something
 * suspicious was, pursue what it spotted, search around the last known position, then walk back to its
 * route. Driven by the awareness model's state each tick; paths come from a {@link NavGrid} so a guard
 * walks round walls. Deterministic: search points come from a generator seeded per guard.
 */
export class GuardBrain {
  activity: GuardActivity = "patrol";
  /** Radians. */
  facing: number;

  private readonly rules: GuardRules;
  private readonly random: () => number;
  private readonly path: Waypoint[] = [];
  private pathGoalX = NaN;
  private pathGoalY = NaN;
  private sinceRepath = 0;
  private pause = 0;
  /** Looking around: seconds left, and the facing it sweeps about. */
  private looking = 0;
  private lookCentre = 0;
  private alarmAt: Waypoint | null = null;
  private searchOrigin: Waypoint | null = null;
  private searchGoal: Waypoint | null = null;
  private lastAlert: ObserverState = "idle";
  /**
   * For stuck detection: seconds since the last progress check, and the distance to the current waypoint
   * then. Each guard checks on a phase of its own (from its seed) that a re-plan does not reset: guards
   * that checked in the same tick would otherwise stay in step for good (a re-plan from a check restarts
   * every one of them together), and a crowd of a few hundred then re-plans its paths in one tick a
   * second, a step several times longer than the others.
   */
  private progressCheck: number;
  private progressDistance = Infinity;
  /**
   * Each patrol leg's path as planned when the guard last set out on it, by the waypoint it leads to: a
   * route's legs are the same every lap, and planning them again was most of what patrolling cost (an A*
   * across the map for each leg of each lap, for 64 guards a room).
   */
  private readonly legs = new Map<Waypoint, { fromX: number; fromY: number; path: Waypoint[] }>();

  constructor(
    readonly id: string,
    private readonly route: PatrolRoute,
    private readonly nav: NavGrid,
    facing: number,
    rules: Partial<GuardRules> = {},
    seed = 1,
  ) {
    this.facing = wrapAngle(facing);
    this.rules = { ...DEFAULT_GUARD_RULES, ...rules };
    this.random = seededRandom(seed);
    // The golden ratio's fractional part spreads consecutive seeds evenly over the second; the seed is
    // taken as an unsigned 32-bit integer, as seededRandom takes it, so any number gives a phase in [0, 1).
    this.progressCheck = ((seed >>> 0) * 0.6180339887498949) % 1;
  }

  /** Send the guard to look at (x, y), meters: a camera raised an alarm there. Ignored while pursuing. */
  alarm(x: number, y: number): void {
    if (this.activity === "pursue") return;
    this.alarmAt = { x, y };
    this.looking = 0;
    this.clearPath();
  }

  /**
   * Decides the next step from the guard's position (meters) and senses. `dt` in seconds. Writes the
   * velocity and facing into `out`; the guard's own `facing` and `activity` are updated too.
   */
  think(dt: number, x: number, y: number, senses: GuardSenses, out: GuardCommand): void {
    const r = this.rules;
    out.vx = 0;
    out.vy = 0;
    let look: Waypoint | undefined;
    const alert = senses.alert;
    if (alert !== "idle") this.alarmAt = null;
    if (alert !== "searching") {
      this.searchOrigin = null;
      this.searchGoal = null;
    }
    if (alert !== this.lastAlert) {
      this.looking = 0;
      this.pause = 0;
      this.clearPath();
    }
    this.lastAlert = alert;

    switch (alert) {
      case "alerted": {
        this.activity = "pursue";
        const goal = senses.focusSeen ?? senses.lastKnown;
        if (senses.focusSeen !== undefined) look = senses.focusSeen;
        if (goal !== undefined) this.moveTo(x, y, goal, r.pursueSpeed, dt, true, out);
        break;
      }
      case "suspicious": {
        if (senses.focusSeen !== undefined) {
          // Stop and stare: the meter fills faster near the centre of the cone.
          this.activity = "turn";
          look = senses.focusSeen;
        } else if (senses.lastKnown !== undefined) {
          this.activity = "investigate";
          this.goAndLook(x, y, senses.lastKnown, r.investigateSpeed, dt, out);
        }
        break;
      }
      case "searching": {
        this.activity = "search";
        if (this.searchOrigin === null) {
          const o = senses.lastKnown ?? { x, y };
          this.searchOrigin = { x: o.x, y: o.y };
          this.searchGoal = { x: o.x, y: o.y };
        }
        if (this.goAndLook(x, y, this.searchGoal!, r.investigateSpeed, dt, out)) this.searchGoal = this.pickSearchPoint(x, y);
        break;
      }
      case "idle": {
        if (this.alarmAt !== null) {
          this.activity = "investigate";
          if (this.goAndLook(x, y, this.alarmAt, r.investigateSpeed, dt, out)) {
            this.alarmAt = null;
            this.startReturn(x, y);
          }
        } else if (senses.noticing !== undefined) {
          this.activity = "turn";
          look = senses.noticing;
        } else {
          if (this.activity === "turn" || this.activity === "investigate" || this.activity === "pursue" || this.activity === "search") {
            this.startReturn(x, y);
          }
          this.walkRoute(x, y, dt, out);
        }
        break;
      }
    }

    // Facing: toward what it watches, else where it walks, else the look-around sweep.
    let desired = this.facing;
    if (look !== undefined) {
      const dx = look.x - x;
      const dy = look.y - y;
      if (dx * dx + dy * dy > 1e-6) desired = Math.atan2(dy, dx);
    } else if (out.vx * out.vx + out.vy * out.vy > 1e-6) {
      desired = Math.atan2(out.vy, out.vx);
    } else if (this.looking > 0) {
      const phase = 1 - this.looking / r.lookAroundSeconds;
      desired = this.lookCentre + r.lookAroundArc * Math.sin(phase * 2 * Math.PI);
    }
    this.facing = turnToward(this.facing, desired, r.turnRate * dt);
    out.facing = this.facing;
  }

  private walkRoute(x: number, y: number, dt: number, out: GuardCommand): void {
    const r = this.rules;
    if (this.pause > 0) {
      this.pause -= dt;
      return;
    }
    const target = this.route.current;
    if (target === undefined) {
      this.activity = "patrol";
      return;
    }
    const speed = this.activity === "return" ? r.investigateSpeed : r.patrolSpeed;
    // A leg set out on from the last waypoint, not a return from elsewhere, is the same every lap.
    if (this.moveTo(x, y, target, speed, dt, false, out, this.activity === "patrol")) {
      this.activity = "patrol";
      if (this.route.stationary) return;
      if (this.route.advance()) this.pause = r.endPause;
      this.clearPath();
    }
  }

  private startReturn(x: number, y: number): void {
    this.activity = "return";
    this.looking = 0;
    this.pause = 0;
    this.route.rejoinNearest(x, y);
    this.clearPath();
  }

  /** Walks to `goal`, then looks around for a while. True once the look-around is over. */
  private goAndLook(x: number, y: number, goal: Waypoint, speed: number, dt: number, out: GuardCommand): boolean {
    if (this.looking > 0) {
      this.looking -= dt;
      if (this.looking <= 0) {
        this.looking = 0;
        this.clearPath();
        return true;
      }
      return false;
    }
    if (this.moveTo(x, y, goal, speed, dt, false, out)) {
      this.looking = this.rules.lookAroundSeconds;
      this.lookCentre = this.facing;
    }
    return false;
  }

  /** A reachable spot near the search origin, or the origin itself after a few misses. */
  private pickSearchPoint(x: number, y: number): Waypoint {
    const o = this.searchOrigin!;
    for (let attempt = 0; attempt < 8; attempt++) {
      const a = this.random() * 2 * Math.PI;
      const d = this.rules.searchRadius * (0.3 + 0.7 * this.random());
      const p = { x: o.x + d * Math.cos(a), y: o.y + d * Math.sin(a) };
      if (this.nav.isFree(p.x, p.y) && this.nav.walkable(o.x, o.y, p.x, p.y) && (p.x - x) ** 2 + (p.y - y) ** 2 > 1) return p;
    }
    return { x: o.x, y: o.y };
  }

  /**
   * Steers toward `goal` along a grid path. Returns true on arrival (or when no path exists: there is
   * nowhere better to be). `moving` goals (a pursuit) are re-planned every `repathSeconds`, unless the
   * path's last turn still has the goal in a straight walk (see {@link follow}). `leg`: `goal` is a waypoint
   * of the route, the leg to it set out on from the waypoint before (see {@link legs}).
   */
  private moveTo(x: number, y: number, goal: Waypoint, speed: number, dt: number, moving: boolean, out: GuardCommand, leg = false): boolean {
    const r = this.rules;
    const goalMoved = (goal.x - this.pathGoalX) ** 2 + (goal.y - this.pathGoalY) ** 2 > 0.25;
    this.sinceRepath += dt;
    if (Number.isNaN(this.pathGoalX)) {
      if (!leg || !this.reuseLeg(x, y, goal)) this.plan(x, y, goal);
      if (leg) this.keepLeg(x, y, goal);
    } else if (goalMoved && (!moving || this.sinceRepath >= r.repathSeconds)) {
      if (!moving || !this.follow(x, y, goal)) this.plan(x, y, goal);
    }

    // Stuck (pushed into a corner, blocked by a player): re-plan if a second brought no progress.
    this.progressCheck += dt;
    while (this.path.length > 0) {
      const wp = this.path[0]!;
      const d = Math.hypot(wp.x - x, wp.y - y);
      if (d > r.arriveRadius) break;
      this.path.shift();
      this.progressDistance = Infinity;
    }
    if (this.path.length === 0) return true;
    const wp = this.path[0]!;
    const dx = wp.x - x;
    const dy = wp.y - y;
    const d = Math.hypot(dx, dy);
    if (this.progressCheck >= 1) {
      if (d > this.progressDistance - 0.1) this.plan(x, y, goal);
      this.progressDistance = d;
      this.progressCheck %= 1; // keeps the phase, however long the guard stood still
    }
    // Slow down onto the last waypoint instead of overshooting it.
    const last = this.path.length === 1;
    const v = last ? Math.min(speed, d / dt) : speed;
    out.vx = (dx / d) * v;
    out.vy = (dy / d) * v;
    return false;
  }

  private plan(x: number, y: number, goal: Waypoint): void {
    this.pathGoalX = goal.x;
    this.pathGoalY = goal.y;
    this.sinceRepath = 0;
    this.progressDistance = Infinity;
    if (this.nav.walkable(x, y, goal.x, goal.y)) {
      this.path.length = 0;
      this.path.push({ x: goal.x, y: goal.y });
    } else if (!this.nav.findPath(x, y, goal.x, goal.y, this.path)) {
      this.path.length = 0;
    }
  }

  /**
   * A moving goal moved: when the path's last turn (or the guard itself, on a straight path) has it in a
   * straight walk, the path's end moves with it and nothing is planned. A pursuer mostly chases round the
   * same corner, and planning afresh every half second was most of what a pursuit cost.
   */
  private follow(x: number, y: number, goal: Waypoint): boolean {
    const n = this.path.length;
    if (n === 0) return false;
    const fromX = n >= 2 ? this.path[n - 2]!.x : x;
    const fromY = n >= 2 ? this.path[n - 2]!.y : y;
    if (!this.nav.walkable(fromX, fromY, goal.x, goal.y)) return false;
    this.path[n - 1] = { x: goal.x, y: goal.y };
    this.pathGoalX = goal.x;
    this.pathGoalY = goal.y;
    this.sinceRepath = 0;
    return true;
  }

  /**
   * Sets out on the leg to `goal` along its path of an earlier lap, if that lap set out from within
   * {@link LEG_REUSE} meters of here and its first waypoint is in a straight walk from here.
   */
  private reuseLeg(x: number, y: number, goal: Waypoint): boolean {
    const leg = this.legs.get(goal);
    if (leg === undefined || (leg.fromX - x) ** 2 + (leg.fromY - y) ** 2 > LEG_REUSE * LEG_REUSE) return false;
    const first = leg.path[0];
    if (first === undefined || !this.nav.walkable(x, y, first.x, first.y)) return false;
    this.pathGoalX = goal.x;
    this.pathGoalY = goal.y;
    this.sinceRepath = 0;
    this.progressDistance = Infinity;
    this.path.length = 0;
    for (const wp of leg.path) this.path.push(wp);
    return true;
  }

  /** Remembers the path just set out on to `goal` from (x, y) (its waypoints are never written to). */
  private keepLeg(x: number, y: number, goal: Waypoint): void {
    const leg = this.legs.get(goal);
    if (leg === undefined) this.legs.set(goal, { fromX: x, fromY: y, path: [...this.path] });
    else if (leg.path.length !== this.path.length || leg.path.some((wp, i) => wp !== this.path[i])) {
      leg.fromX = x;
      leg.fromY = y;
      leg.path.length = 0;
      for (const wp of this.path) leg.path.push(wp);
    }
  }

  private clearPath(): void {
    this.path.length = 0;
    this.pathGoalX = NaN;
    this.pathGoalY = NaN;
  }
}

/** How near where a leg was last set out from a guard must be to walk that lap's path again, meters. */
const LEG_REUSE = 1;

/** `from` turned toward `to` by at most `maxStep` radians, the short way round. */
function turnToward(from: number, to: number, maxStep: number): number {
  const diff = wrapAngle(to - from);
  if (Math.abs(diff) <= maxStep) return wrapAngle(to);
  return wrapAngle(from + Math.sign(diff) * maxStep);
}
