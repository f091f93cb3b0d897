import type { Waypoint } from "../server/sim/navGrid.js";
import { distanceToOutline } from "../shared/outlineDistance.js";
import { CHARACTER_RADIUS, DOOR_REACH } from "../shared/gameRules.js";
import { segmentMeetsDoor, type DoorIndex, type MapDoor } from "./doorIndex.js";

/** The doors a decoding bot holds in its state (`state.doors`, keyed by object id): the ones it can see. */
export interface DoorsInView {
  get(key: string): { open: boolean } | undefined;
}

/**
 * A bot asks for a door this close to its outline, meters: inside the room's reach with a margin for the
 * walking done before the request lands (and for a thin bot's reckoning, which drifts).
 */
const ASK_FROM = DOOR_REACH - 0.3;
/** The same door is asked for again after this long, ms: a lost or refused request is retried, not spammed. */
const ASK_AGAIN_MS = 1000;
/** A thin bot never sees the door: it trusts its request after this long, ms (the room applies it at its next step). */
const THIN_TRUST_MS = 150;
/**
 * A thin bot doubts a door it has not opened itself for this long, ms: anyone may have shut it meanwhile, and
 * a character stuck at a door its bot cannot see would leave the bot's reckoning far behind.
 */
const DOUBT_MS = 10_000;
/** A decoding bot stops waiting at a door still shut after this long, ms, and walks on (the stuck rule replans)... */
const GIVE_UP_MS = 3000;
/** ...and leaves that door be for this long, ms, so it does not freeze in front of it again at once. */
const IGNORE_MS = 10_000;
/** A body is in a doorway while its centre is this close to the door's outline, meters. */
export const IN_DOORWAY = CHARACTER_RADIUS;
/**
 * A bot that shuts doors does so once its centre is this far from the door behind it: clear of the doorway
 * (the room will not shut a door on anyone), and still within reach up to `SHUT_UNTIL`.
 */
const CLEAR_OF = CHARACTER_RADIUS + 0.5;
/**
 * Asked this close or closer (a window a step wide at a run, 0.15 m): the room judges the reach where it has
 * the bot when the request arrives, and a loaded room takes it a few steps late. 0.45 m short of
 * `DOOR_REACH` is 150 ms of lag at a run before the request would come too far.
 */
const SHUT_UNTIL = CLEAR_OF + 0.2;
/**
 * A bot that asks to shut a door stands this long, ms, facing it, as a person closing a door does: the
 * request reaches the room while the bot is still within reach, however late a loaded room takes it.
 */
const SHUT_PAUSE_MS = 300;

/**
 * One bot's doors: what it believes of them (what its state shows while a door is in view, else what it last
 * saw or did, else the map's own state), opening a shut one on its path when it gets there, waiting (not
 * pushing) until it opens, and, for a bot that has the habit, shutting a door behind it once clear of it.
 * A thin bot sees no state: it believes its own requests, and asks for a door on its path that it has not
 * opened lately even when it believes it open (the room ignores opening an open door).
 */
export class BotDoors {
  private readonly believed = new Map<number, boolean>();
  /** When the bot last asked for each door, ms, and what it asked (open or shut). */
  private readonly askedAt = new Map<number, number>();
  private readonly asked = new Map<number, boolean>();
  private readonly ignoredUntil = new Map<number, number>();
  private waitingAt: MapDoor | undefined;
  private waitingSince = 0;
  /** The door whose doorway the bot was in last: the one behind it once it is clear. */
  private passing: MapDoor | undefined;
  /** The door it just asked to shut, and when: it stands a moment (see `SHUT_PAUSE_MS`). */
  private shutting: MapDoor | undefined;
  private shutAt = 0;

  /**
   * @param shutsBehind whether this bot shuts doors behind it (a seeded share of bots do)
   * @param seesDoors whether it decodes its state (else it believes its own requests)
   * @param request sends a `door` message
   * @param occupied whether the bot sees someone in a doorway (a thin bot sees no one): it does not try to
   *   shut a door on them, which the room would refuse
   */
  constructor(
    private readonly index: DoorIndex,
    readonly shutsBehind: boolean,
    private readonly seesDoors: boolean,
    private readonly request: (door: MapDoor, open: boolean) => void,
    private readonly occupied: (door: MapDoor) => boolean = () => false,
  ) {}

  /** Whether the bot believes `door` open; `view` (a decoding bot's doors) corrects the belief while it shows the door. */
  isOpen(door: MapDoor, view?: DoorsInView): boolean {
    const seen = view?.get(door.key);
    if (seen !== undefined) {
      this.believed.set(door.id, seen.open);
      return seen.open;
    }
    return this.believed.get(door.id) ?? door.openAtStart;
  }

  /**
   * One tick at (x, y), meters, walking `ahead` (the rest of its path): shuts the door behind it when due,
   * asks for a shut door on the path within reach, and returns the door to wait at (the bot stands facing
   * it) until it opens, or undefined to walk on.
   */
  tick(x: number, y: number, ahead: readonly Waypoint[], view: DoorsInView | undefined, now: number): MapDoor | undefined {
    const near = this.index.near(x, y);
    if (this.shutsBehind) this.shutBehind(x, y, near, view, now);
    if (this.shutting !== undefined) {
      if (now - this.shutAt < SHUT_PAUSE_MS) return this.shutting;
      this.shutting = undefined;
    }
    for (const door of near) {
      if (now < (this.ignoredUntil.get(door.id) ?? 0)) continue;
      const open = this.isOpen(door, view);
      const doubted = open && !this.seesDoors && !(this.asked.get(door.id) === true && now - this.askedAt.get(door.id)! < DOUBT_MS);
      if (open && !doubted) continue;
      if (distanceToOutline(door.outline, x, y) > ASK_FROM || !this.onPath(door, x, y, ahead)) continue;
      const asked = this.askedAt.get(door.id);
      if (asked === undefined || now - asked >= ASK_AGAIN_MS || this.asked.get(door.id) !== true) this.ask(door, true, now);
      // Opening a door that is open changes nothing, and the request lands before the bot is at the door.
      if (doubted) continue;
      if (this.waitingAt !== door) {
        this.waitingAt = door;
        this.waitingSince = now;
      }
      if (!this.seesDoors) {
        if (now - this.askedAt.get(door.id)! < THIN_TRUST_MS) return door;
        this.believed.set(door.id, true);
        continue;
      }
      if (now - this.waitingSince < GIVE_UP_MS) return door;
      this.ignoredUntil.set(door.id, now + IGNORE_MS);
    }
    this.waitingAt = undefined;
    return undefined;
  }

  /**
   * Whether a step from a to b (meters) would walk into a door the bot believes shut: thin bots reckon their
   * position, and the room stops a body at a shut door. A step away from the door is never blocked.
   */
  blocks(ax: number, ay: number, bx: number, by: number): boolean {
    for (const door of this.index.near(bx, by)) {
      if (this.isOpen(door)) continue;
      const d = distanceToOutline(door.outline, bx, by);
      if (d < CHARACTER_RADIUS && d < distanceToOutline(door.outline, ax, ay)) return true;
    }
    return false;
  }

  /**
   * The room refused a door request (its message, e.g. "door: door 12 is 2.1 m away: ..."): the door is
   * as it was, as far as the bot can tell.
   */
  refused(message: string): void {
    const id = Number(/door (\d+)/.exec(message)?.[1]);
    const asked = this.asked.get(id);
    if (asked !== undefined) this.believed.set(id, !asked);
  }

  /** Sent back to a spawn: no door is behind it or in front of it any more (what it believes stays). */
  reset(): void {
    this.passing = undefined;
    this.waitingAt = undefined;
    this.shutting = undefined;
  }

  private ask(door: MapDoor, open: boolean, now: number): void {
    this.askedAt.set(door.id, now);
    this.asked.set(door.id, open);
    this.request(door, open);
  }

  /** Remembers the doorway the bot is in; once it is clear of it, shuts that door if it is open. */
  private shutBehind(x: number, y: number, near: readonly MapDoor[], view: DoorsInView | undefined, now: number): void {
    for (const door of near) {
      if (distanceToOutline(door.outline, x, y) >= IN_DOORWAY) continue;
      this.passing = door;
      return;
    }
    const door = this.passing;
    if (door === undefined) return;
    const d = distanceToOutline(door.outline, x, y);
    if (d < CLEAR_OF) return;
    this.passing = undefined;
    if (d > SHUT_UNTIL || !this.isOpen(door, view) || this.occupied(door)) return;
    this.ask(door, false, now);
    this.believed.set(door.id, false);
    this.shutting = door;
    this.shutAt = now;
  }

  /** Whether the path from (x, y) through `ahead` meets the door within the index's reach. */
  private onPath(door: MapDoor, x: number, y: number, ahead: readonly Waypoint[]): boolean {
    let left = this.index.reach;
    let px = x;
    let py = y;
    for (const wp of ahead) {
      const len = Math.hypot(wp.x - px, wp.y - py);
      const f = len > left ? left / len : 1;
      const qx = px + (wp.x - px) * f;
      const qy = py + (wp.y - py) * f;
      if (segmentMeetsDoor(door, px, py, qx, qy)) return true;
      left -= len;
      if (left <= 0) return false;
      px = qx;
      py = qy;
    }
    return false;
  }
}
