import type { Waypoint } from "../server/sim/navGrid.js";
import { SMOKE } from "../shared/gameRules.js";
import { BotPouch } from "./botPouch.js";

/** A grenade lands this far ahead along the bot's path, meters (drawn between the two). */
const AHEAD_MIN = 3;
const AHEAD_MAX = 6;
/** Keeps the landing point this far inside the map's edges, meters (the room refuses a point off the map). */
const EDGE = 0.5;

/**
 * One bot's smoke grenades: now and then (see `BotPouch`), it throws one a few meters ahead along its
 * path, where it is about to walk, within the throw range and on the map.
 */
export class BotSmoke {
  private readonly pouch: BotPouch;

  /**
   * @param meanSeconds mean seconds between throws while the bot has grenades
   * @param pressedFactor how much likelier a throw is while a guard is alerted to the bot
   * @param bounds the map's size, meters
   * @param throwTo sends a `smoke` message
   */
  constructor(
    private readonly random: () => number,
    meanSeconds: number,
    pressedFactor: number,
    tickSeconds: number,
    private readonly bounds: { width: number; height: number },
    private readonly throwTo: (x: number, y: number) => void,
  ) {
    this.pouch = new BotPouch(SMOKE.grenades, random, meanSeconds, pressedFactor, tickSeconds);
  }

  /** A new life: three grenades again. */
  refill(): void {
    this.pouch.refill();
  }

  /**
   * One tick at (x, y) walking `ahead` (the rest of its path): maybe throws. `pressed` says whether a guard
   * is alerted to the bot, asked only when that decides; `roomCount` is the room's count of its grenades
   * when the bot can read it.
   */
  tick(x: number, y: number, ahead: readonly Waypoint[], pressed: () => boolean, roomCount?: number): void {
    if (ahead.length === 0 || !this.pouch.wants(pressed, roomCount)) return;
    const at = pointAlong(x, y, ahead, AHEAD_MIN + this.random() * (AHEAD_MAX - AHEAD_MIN));
    if (at === undefined) return;
    const tx = Math.min(this.bounds.width - EDGE, Math.max(EDGE, at.x));
    const ty = Math.min(this.bounds.height - EDGE, Math.max(EDGE, at.y));
    if (Math.hypot(tx - x, ty - y) > SMOKE.throwRange) return;
    this.pouch.spend();
    this.throwTo(tx, ty);
  }
}

/**
 * The point `distance` meters along the path from (x, y) through `ahead`, or its end when shorter; undefined
 * when the path is too short to throw ahead on (the bot is about to arrive).
 */
function pointAlong(x: number, y: number, ahead: readonly Waypoint[], distance: number): Waypoint | undefined {
  let left = distance;
  let px = x;
  let py = y;
  for (const wp of ahead) {
    const len = Math.hypot(wp.x - px, wp.y - py);
    if (len >= left) return { x: px + ((wp.x - px) * left) / len, y: py + ((wp.y - py) * left) / len };
    left -= len;
    px = wp.x;
    py = wp.y;
  }
  return distance - left >= AHEAD_MIN ? { x: px, y: py } : undefined;
}
