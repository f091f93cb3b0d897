import { Vec2, type Body, type World } from "planck";
import { DEFAULT_GUARD_RULES } from "../../server/sim/guardBrain.js";
import { createCharacterBody } from "../../server/sim/characterBody.js";
import type { NavGrid, Waypoint } from "../../server/sim/navGrid.js";
import { wanderingGuardPlacements } from "../../server/sim/wanderingGuards.js";

/** One NPC: a planck body walking a nav-grid path to a random spot, then to the next. */
export interface Wanderer {
  readonly id: string;
  readonly body: Body;
  facing: number;
  readonly path: Waypoint[];
  /** Index in `path` of the waypoint it walks to. */
  next: number;
  /** Where it was at its last progress check, and the ticks until the next one. */
  checkX: number;
  checkY: number;
  checkIn: number;
}

/** Random spots tried before an NPC stands still for this tick and tries again on the next. */
const GOAL_ATTEMPTS = 20;
/** Ticks between progress checks; an NPC that moved less than {@link STUCK_METERS} since plans anew. */
const CHECK_TICKS = 40;
const STUCK_METERS = 0.2;
/**
 * Path searches one tick may run; an NPC past the budget waits a tick. A new room's NPCs all need a path
 * at once, and 64 searches across a large map in one tick stalled every room of the process.
 */
const PLANS_PER_TICK = 4;

/**
 * The plain peer's NPCs: bodies like the stealth room's guards (same radius, density and collision
 * categories), walking at a guard's patrol speed between random reachable spots, with none of a guard's
 * eyes, awareness or behaviour. They start where the stealth room places its generated guards (the same
 * placement code, with the same random numbers), so both rooms start their crowds in the same spots.
 */
export class Wanderers {
  readonly list: Wanderer[] = [];
  private readonly speed = DEFAULT_GUARD_RULES.patrolSpeed;
  private readonly arrive = DEFAULT_GUARD_RULES.arriveRadius;
  private readonly velocity = Vec2(0, 0);

  constructor(world: World, private readonly nav: NavGrid, count: number, radius: number, private readonly random: () => number) {
    for (const p of wanderingGuardPlacements(nav, count, 7919, 1)) {
      const body = createCharacterBody(world, "guard", p.x, p.y, radius);
      this.list.push({ id: `guard:${p.name}`, body, facing: p.facing, path: [], next: 0, checkX: p.x, checkY: p.y, checkIn: CHECK_TICKS });
    }
  }

  /** Sets every NPC's velocity for the next world step. */
  steer(): void {
    let plans = PLANS_PER_TICK;
    for (const w of this.list) {
      const at = w.body.getPosition();
      if (--w.checkIn <= 0) {
        // Pushed into a corner by a crowd, or a path through a gap its body does not fit: plan anew.
        if ((at.x - w.checkX) ** 2 + (at.y - w.checkY) ** 2 < STUCK_METERS ** 2) w.next = w.path.length;
        w.checkX = at.x;
        w.checkY = at.y;
        w.checkIn = CHECK_TICKS;
      }
      while (w.next < w.path.length && (w.path[w.next]!.x - at.x) ** 2 + (w.path[w.next]!.y - at.y) ** 2 < this.arrive ** 2) w.next++;
      if (w.next >= w.path.length) {
        if (plans > 0) {
          plans--;
          this.plan(w, at.x, at.y);
        } else {
          w.path.length = 0;
        }
      }
      const v = this.velocity;
      const wp = w.path[w.next];
      if (wp === undefined) {
        v.x = 0;
        v.y = 0;
      } else {
        const dx = wp.x - at.x;
        const dy = wp.y - at.y;
        const d = Math.sqrt(dx * dx + dy * dy) || 1;
        v.x = (dx / d) * this.speed;
        v.y = (dy / d) * this.speed;
        w.facing = Math.atan2(dy, dx);
      }
      w.body.setLinearVelocity(v);
      w.body.setAwake(true);
    }
  }

  /** A path to a random free spot reachable from (x, y); an empty path when none was found this time. */
  private plan(w: Wanderer, x: number, y: number): void {
    w.next = 0;
    w.path.length = 0;
    const nav = this.nav;
    for (let attempt = 0; attempt < GOAL_ATTEMPTS; attempt++) {
      const gx = nav.originX + this.random() * nav.cols * nav.cellSize;
      const gy = nav.originY + this.random() * nav.rows * nav.cellSize;
      if (nav.isFree(gx, gy) && nav.reachable(x, y, gx, gy) && nav.findPath(x, y, gx, gy, w.path)) return;
    }
  }
}
