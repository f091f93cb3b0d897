import { distanceToOutline } from "../shared/outlineDistance.js";
import { seededRandom } from "../shared/seededRandom.js";
import type { BotBehaviour, Intent } from "./botBehaviour.js";
import { BotDistraction } from "./botDistraction.js";
import { BotDoors, IN_DOORWAY, type DoorsInView } from "./botDoors.js";
import { BotSmoke } from "./botSmoke.js";
import type { MapDoor } from "./doorIndex.js";
import type { LevelPlay, LevelPlayTally, PlayRequest } from "./levelPlay.js";

interface Positioned {
  x: number;
  y: number;
}

/** What a decoding bot's state shows that its level play reads (refreshed by the bot every tick). */
export interface PlaySight {
  sessionId: string;
  /** Its own character: grenades and distractions left and each observer's awareness of it (owner-only fields). */
  me: { smokes?: number; distractions?: number; meters?: ReadonlyMap<string, { state: string }> } | undefined;
  doors: DoorsInView | undefined;
  players: ReadonlyMap<string, Positioned> | undefined;
  guards: ReadonlyMap<string, Positioned> | undefined;
}

/**
 * One bot's play with the level (`--level-play on`): its doors (`BotDoors`), grenades (`BotSmoke`) and,
 * in rooms with hearing, distractions (`BotDistraction`), fed with what it sees when it decodes, sending
 * through the bot and counting what it sends. Its habits are drawn from its own seeded stream, so the
 * bot's walking draws the same with level play on or off; its distractions from a stream of their own,
 * so its doors and grenades draw the same with hearing on or off.
 */
export class BotLevelPlay {
  private readonly doors: BotDoors;
  private readonly smoke: BotSmoke;
  /** Undefined in rooms without hearing. */
  private readonly distraction: BotDistraction | undefined;
  private sight: PlaySight | undefined;

  /**
   * @param random the bot's level-play stream
   * @param decodes whether the bot decodes its state (else it sees no door and no guard)
   * @param send sends a client message through the bot's room
   * @param open whether a spot is open floor (the nav grid's), where a distraction may land; any by default
   */
  constructor(
    play: LevelPlay,
    random: () => number,
    decodes: boolean,
    tickSeconds: number,
    bounds: { width: number; height: number },
    send: (type: PlayRequest, payload: object) => void,
    tally: LevelPlayTally,
    open: (x: number, y: number) => boolean = () => true,
  ) {
    this.doors = new BotDoors(play.doors, random() < play.shutShare, decodes, (door, open) => {
      send("door", { door: door.id, open });
      if (open) tally.doorOpens++;
      else tally.doorShuts++;
    }, (door) => this.seesSomeoneIn(door));
    const [least, most] = play.smokeEverySeconds;
    this.smoke = new BotSmoke(random, least + random() * (most - least), play.pressedFactor, tickSeconds, bounds, (x, y) => {
      send("smoke", { x, y });
      tally.smokes++;
    });
    // Drawn whether or not the rooms hear: turning hearing off leaves the other draws as they were.
    const distractRandom = seededRandom(Math.floor(random() * 2 ** 31));
    if (play.distractEverySeconds !== undefined) {
      const [soonest, latest] = play.distractEverySeconds;
      this.distraction = new BotDistraction(distractRandom, soonest + distractRandom() * (latest - soonest), play.pressedFactor, tickSeconds, bounds, open, (x, y) => {
        send("distract", { x, y });
        tally.distractions++;
      });
    }
  }

  /** Whether this bot shuts doors behind it. */
  get shutsDoors(): boolean {
    return this.doors.shutsBehind;
  }

  /**
   * This tick's intent at (x, y) once the level has had its say: `intent` as steered, or standing at a shut
   * door the bot asked to open; a grenade may be thrown ahead on the way, a distraction behind. `sight` is
   * undefined for a thin bot.
   */
  steer(intent: Intent, x: number, y: number, behaviour: BotBehaviour, sight: PlaySight | undefined, now: number): Intent {
    this.sight = sight;
    const waitAt = this.doors.tick(x, y, behaviour.ahead, sight?.doors, now);
    this.smoke.tick(x, y, behaviour.ahead, this.pressed, sight?.me?.smokes);
    this.distraction?.tick(x, y, behaviour.ahead, this.pressed, sight?.me?.distractions);
    return waitAt === undefined ? intent : behaviour.wait(Math.atan2(waitAt.y - y, waitAt.x - x));
  }

  /** Whether a thin bot's reckoned step from a to b walks into a door it believes shut. */
  blocks(ax: number, ay: number, bx: number, by: number): boolean {
    return this.doors.blocks(ax, ay, bx, by);
  }

  /** The room refused a request of this kind, with this message. */
  refused(kind: PlayRequest, message: string): void {
    if (kind === "door") this.doors.refused(message);
  }

  /** Back at a spawn: a new life, a full pouch, no doorway behind or ahead. */
  respawned(): void {
    this.doors.reset();
    this.smoke.refill();
    this.distraction?.refill();
  }

  /** Whether the bot sees another player or a guard in the doorway or about to step in (a thin bot sees no one). */
  private seesSomeoneIn(door: MapDoor): boolean {
    const sight = this.sight;
    if (sight === undefined) return false;
    // In the doorway or a step from it: everyone moves on between the patch and the room's step. Whoever the
    // bot cannot see (behind it, out of its view) it cannot spare, and the room refuses.
    const near = (p: Positioned) => distanceToOutline(door.outline, p.x, p.y) < IN_DOORWAY + 1;
    let seen = false;
    sight.players?.forEach((p, id) => {
      if (id !== sight.sessionId && near(p)) seen = true;
    });
    sight.guards?.forEach((g) => {
      if (near(g)) seen = true;
    });
    return seen;
  }

  /** Whether a guard or camera is alerted to the bot (its own meters), asked only when it decides a throw. */
  private readonly pressed = (): boolean => {
    let alerted = false;
    this.sight?.me?.meters?.forEach((m) => {
      if (m.state === "alerted") alerted = true;
    });
    return alerted;
  };
}
