import type { Waypoint } from "../server/sim/navGrid.js";
import { DISTRACTION } from "../shared/gameRules.js";
import { BotPouch } from "./botPouch.js";

/** A distraction lands this far from the bot, meters (drawn between the two), well within the throw range. */
const DISTANCE_MIN = 4;
const DISTANCE_MAX = 9;
/** How far either side of straight behind the bot a distraction may land, radians (60 degrees). */
const SPREAD = Math.PI / 3;
/** Keeps the landing point this far inside the map's edges, meters (the room refuses a point off the map). */
const EDGE = 0.5;
/** Spots tried for one throw before the bot lets it be (all in walls, say). */
const ATTEMPTS = 4;

/**
 * One bot's distractions (a stone, a bottle): now and then (see `BotPouch`), it throws one behind it, away
 * from where it is heading, so that guards who hear the thud go and look off its way: 4-9 m off (the
 * room's throw range is 12 m), onto open floor of the nav grid and on the map.
 */
export class BotDistraction {
  private readonly pouch: BotPouch;

  /**
   * @param meanSeconds mean seconds between throws while the bot has distractions
   * @param pressedFactor how much likelier a throw is while a guard is alerted to the bot
   * @param bounds the map's size, meters
   * @param open whether a spot is open floor (the nav grid's), where a thud is worth a look
   * @param throwTo sends a `distract` message
   */
  constructor(
    private readonly random: () => number,
    meanSeconds: number,
    pressedFactor: number,
    tickSeconds: number,
    private readonly bounds: { width: number; height: number },
    private readonly open: (x: number, y: number) => boolean,
    private readonly throwTo: (x: number, y: number) => void,
  ) {
    this.pouch = new BotPouch(DISTRACTION.count, random, meanSeconds, pressedFactor, tickSeconds);
  }

  /** A new life: a full count again. */
  refill(): void {
    this.pouch.refill();
  }

  /**
   * One tick at (x, y) walking `ahead` (the rest of its path, maybe empty): maybe throws. `pressed` says
   * whether a guard is alerted to the bot, asked only when that decides; `roomCount` is the room's count
   * of its distractions when the bot can read it.
   */
  tick(x: number, y: number, ahead: readonly Waypoint[], pressed: () => boolean, roomCount?: number): void {
    if (!this.pouch.wants(pressed, roomCount)) return;
    const at = this.spot(x, y, ahead);
    if (at === undefined) return;
    this.pouch.spend();
    this.throwTo(at.x, at.y);
  }

  /** A spot behind the bot (any way when it stands), on open floor within the range; undefined if none was found. */
  private spot(x: number, y: number, ahead: readonly Waypoint[]): Waypoint | undefined {
    const next = ahead[0];
    const heading = next !== undefined && (next.x - x) ** 2 + (next.y - y) ** 2 > 1e-6 ? Math.atan2(next.y - y, next.x - x) : undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const angle = heading === undefined ? this.random() * 2 * Math.PI : heading + Math.PI + (2 * this.random() - 1) * SPREAD;
      const distance = DISTANCE_MIN + this.random() * (DISTANCE_MAX - DISTANCE_MIN);
      const tx = Math.min(this.bounds.width - EDGE, Math.max(EDGE, x + Math.cos(angle) * distance));
      const ty = Math.min(this.bounds.height - EDGE, Math.max(EDGE, y + Math.sin(angle) * distance));
      // Kept on the map, a spot is never farther than drawn; a bot off the map itself has no spot to throw to.
      if (Math.hypot(tx - x, ty - y) > DISTRACTION.throwRange) continue;
      if (this.open(tx, ty)) return { x: tx, y: ty };
    }
    return undefined;
  }
}
