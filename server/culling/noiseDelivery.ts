import { checkNoise, Hearing, type Earshot, type Noise } from "../hearing/hearing.js";
import { wrapAngle } from "../../shared/math/angle.js";
import { fail, finite, isIterable, nonEmptyString, object } from "../../shared/validation/rangeChecks.js";

/**
 * A noise as one client receives it: what its character's (or a teammate's) ear learned, and the emitter
 * only when the client's view holds it.
 */
export interface HeardNoiseMessage {
  /** What it was (the noise's `kind`). */
  kind: string;
  /** How loud it was at `listener`, in (0, 1], rounded up to eighths ({@link NOISE_LEVEL_STEPS}). */
  level: number;
  /**
   * Where it came from, seen from `listener`: radians (0 = +x, counter-clockwise), rounded to 1/32 of a
   * turn ({@link NOISE_DIRECTION_STEPS}). Through a doorway, the doorway's way, not the emitter's.
   */
  dir: number;
  /** The character that heard it: the client's own, or a teammate when a team shares its senses ("" for a caster, told every noise as it was, at level 1). */
  listener: string;
  /** The emitter's id and the noise's exact position, meters: only when the client's view holds the emitter. */
  emitter?: string;
  x?: number;
  y?: number;
}

/**
 * A character that may hear: its id (non-empty), its team (a non-empty string; undefined: alone) and
 * where it is, meters (finite).
 */
export interface NoiseListener {
  readonly id: string;
  readonly team: string | undefined;
  readonly x: number;
  readonly y: number;
}

/** Levels are sent rounded up to multiples of 1 / this. */
export const NOISE_LEVEL_STEPS = 8;
/** Directions are sent rounded to multiples of a turn / this. */
export const NOISE_DIRECTION_STEPS = 32;

/** What one team (or one loner) heard of one noise: its loudest ear. */
interface EarSlot {
  stamp: number;
  level: number;
  dirX: number;
  dirY: number;
  listener: string;
}

/**
 * A team's ear over two noises: the slot the current noise's messages read, and the one the next noise
 * is decided in, which becomes current only once every listener has passed its checks.
 */
type TeamEar = [EarSlot, EarSlot];

/**
 * Who hears a noise, decided once per team: a team hears it if any of its characters does, through the
 * ear that hears it loudest (teams share their senses, as their views share sight); a character with no
 * team hears alone. Then what each client is told: {@link messageFor}. Game-agnostic: give it the same
 * `Hearing` your guards listen with, and your characters.
 *
 * A hidden emitter is never named, and its position is never sent: only how loud, rounded to eighths,
 * and from which way, rounded to 1/32 of a turn. A level rounded up to eighths places how far the sound
 * travelled in a band an eighth of its loudness wide, so a client can tell it to within a sixteenth of
 * the loudness (0.625 m for a 10 m run), and its way to within 5.6 degrees: what an ear learns, no more.
 */
export class NoiseDelivery {
  /**
   * By team name, and by id for characters with no team: two maps, because ids and team names are
   * chosen apart and may coincide (a loner "red" must not hear through team "red").
   */
  private readonly teamEars = new Map<string, TeamEar>();
  private readonly loneEars = new Map<string, TeamEar>();
  private readonly ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  /** Counts every `hear` call, refused ones too, so a slot written by a refused call never matches. */
  private stamp = 0;
  /** The stamp of the current noise and the slot its messages read. */
  private currentStamp = 0;
  private slot = 0;
  private current: Noise | null = null;
  private readonly hearing: Hearing;

  /** @throws RangeError unless `hearing` is a `Hearing` (from `sightline`) */
  constructor(hearing: Hearing) {
    if (!(hearing instanceof Hearing)) fail("NoiseDelivery hearing", "must be a Hearing (from sightline)", hearing);
    this.hearing = hearing;
  }

  /**
   * Decides who hears `noise` among `listeners` (walked once, so a generator will do); then ask
   * {@link messageFor} per client. The emitter does not hear its own noise, nor do the characters of
   * `deafTeam` (a team that will not be told: the emitter's own, when it holds the emitter in view anyway).
   * Returns whether anyone heard it.
   * @throws RangeError naming the field of a malformed noise, listener or `deafTeam`; the last noise's
   * messages then stand as they were
   */
  hear(noise: Noise, listeners: Iterable<NoiseListener>, deafTeam?: string): boolean {
    checkNoise(noise);
    if (deafTeam !== undefined) nonEmptyString("NoiseDelivery.hear deafTeam", deafTeam);
    if (!isIterable(listeners)) fail("NoiseDelivery.hear listeners", "must be an iterable of NoiseListener { id, team, x, y }", listeners);
    // Decided in the slot the current messages do not read, made current only after the last listener:
    // a listener refused halfway leaves the last noise's messages whole, without a second walk.
    const stamp = ++this.stamp;
    const slot = this.slot ^ 1;
    const ear = this.ear;
    let anyone = false;
    for (const l of listeners) {
      checkListener(l);
      if (l.id === noise.emitter || (deafTeam !== undefined && l.team === deafTeam)) continue;
      const dx = l.x - noise.x;
      const dy = l.y - noise.y;
      // Out of earshot in a straight line: out of it by any way (most listeners of most noises).
      if (dx * dx + dy * dy >= noise.loudness * noise.loudness) continue;
      if (!this.hearing.listen(noise.x, noise.y, noise.loudness, l.x, l.y, ear)) continue;
      anyone = true;
      const ears = l.team === undefined ? this.loneEars : this.teamEars;
      const key = l.team ?? l.id;
      let pair = ears.get(key);
      if (pair === undefined) ears.set(key, (pair = [emptySlot(), emptySlot()]));
      const team = pair[slot];
      if (team.stamp === stamp && team.level >= ear.level) continue;
      team.stamp = stamp;
      team.level = ear.level;
      team.dirX = ear.dirX;
      team.dirY = ear.dirY;
      team.listener = l.id;
    }
    this.current = noise;
    this.currentStamp = stamp;
    this.slot = slot;
    return anyone;
  }

  /**
   * What a client whose character is `character` on `team` (undefined: alone) is told of the last noise:
   * undefined if its team did not hear it. `holdsEmitter`: whether the client's view holds the emitter
   * now (true: the message names it and gives the noise's position).
   * @throws RangeError for an empty `character`, a `team` that is neither a non-empty string nor
   * undefined, or a `holdsEmitter` that is not a boolean
   */
  messageFor(character: string, team: string | undefined, holdsEmitter: boolean): HeardNoiseMessage | undefined {
    nonEmptyString("NoiseDelivery.messageFor character", character);
    if (team !== undefined) nonEmptyString("NoiseDelivery.messageFor team", team);
    // Only a true names the emitter: a truthy "no" would leak who made the noise and where.
    if (typeof holdsEmitter !== "boolean") fail("NoiseDelivery.messageFor holdsEmitter", "must be a boolean", holdsEmitter);
    const noise = this.current;
    const ear = this.earOf(character, team);
    if (noise === null || ear === undefined) return undefined;
    const turn = (2 * Math.PI) / NOISE_DIRECTION_STEPS;
    const message: HeardNoiseMessage = {
      kind: noise.kind,
      level: Math.ceil(ear.level * NOISE_LEVEL_STEPS) / NOISE_LEVEL_STEPS,
      dir: wrapAngle(Math.round(Math.atan2(ear.dirY, ear.dirX) / turn) * turn),
      listener: ear.listener,
    };
    if (holdsEmitter) {
      message.emitter = noise.emitter;
      message.x = noise.x;
      message.y = noise.y;
    }
    return message;
  }

  /**
   * Whether a character `character` on `team` (undefined: alone) heard the last noise, through its own
   * ear or a teammate's: {@link messageFor} gives a message exactly when this is true. Nothing is built,
   * so a server can ask it of every client first, and ask its views about the emitter only for the few
   * whose team heard (most footsteps reach no one).
   * @throws RangeError for an empty `character` or a `team` that is neither a non-empty string nor undefined
   */
  heardBy(character: string, team: string | undefined): boolean {
    nonEmptyString("NoiseDelivery.heardBy character", character);
    if (team !== undefined) nonEmptyString("NoiseDelivery.heardBy team", team);
    return this.current !== null && this.earOf(character, team) !== undefined;
  }

  /** The slot of the team (or loner) that heard the current noise, or undefined. */
  private earOf(character: string, team: string | undefined): EarSlot | undefined {
    const pair = team === undefined ? this.loneEars.get(character) : this.teamEars.get(team);
    if (pair === undefined) return undefined;
    const ear = pair[this.slot];
    return ear.stamp === this.currentStamp ? ear : undefined;
  }

  /** Forgets what it knows of teams and loners that no longer exist (call now and then, or never: it is small). */
  clear(): void {
    this.teamEars.clear();
    this.loneEars.clear();
  }
}

function emptySlot(): EarSlot {
  return { stamp: 0, level: 0, dirX: 0, dirY: 0, listener: "" };
}

/** Throws a RangeError naming the first bad field of a listener. No closures: it runs for every character of every noise. */
function checkListener(l: NoiseListener): void {
  object("NoiseListener", l, "{ id, team, x, y }");
  nonEmptyString("NoiseListener.id", l.id);
  if (l.team !== undefined) nonEmptyString("NoiseListener.team", l.team);
  finite("NoiseListener.x", l.x, "meters");
  finite("NoiseListener.y", l.y, "meters");
}
