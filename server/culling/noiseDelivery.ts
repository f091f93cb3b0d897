import { checkNoise, type Earshot, type Hearing, type Noise } from "../hearing/hearing.js";
import { wrapAngle } from "../../shared/math/angle.js";

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

/** A character that may hear: its id, its team (undefined: alone) and where it is, meters. */
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

interface TeamEar {
  stamp: number;
  level: number;
  dirX: number;
  dirY: number;
  listener: string;
}

/**
 * Who hears a noise, decided once per team: a team hears it if any of its characters does, through the
 * ear that hears it loudest (teams share their senses, as their views share sight); a character with no
 * team hears alone. Then what each client is told: {@link messageFor}. Game-agnostic: give it the same
 * `Hearing` your guards listen with, and your characters.
 *
 * A hidden emitter is never named, and its position is never sent: only how loud, rounded to eighths,
 * and from which way, rounded to 1/32 of a turn. From a footstep's level a client can tell how far the
 * sound travelled, to about a sixteenth of its loudness (0.75 m for a 12 m run), and its way to within
 * 5.6 degrees: what an ear learns, no more.
 */
export class NoiseDelivery {
  private readonly ears = new Map<string, TeamEar>();
  private readonly ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  private stamp = 0;
  private current: Noise | null = null;

  constructor(private readonly hearing: Hearing) {}

  /**
   * Decides who hears `noise` (checked: a RangeError naming the field) among `listeners`; then ask
   * {@link messageFor} per client. The emitter does not hear its own noise, nor do the characters of
   * `deafTeam` (a team that will not be told: the emitter's own, when it holds the emitter in view anyway).
   * Returns whether anyone heard it.
   */
  hear(noise: Noise, listeners: Iterable<NoiseListener>, deafTeam?: string): boolean {
    checkNoise(noise);
    this.current = noise;
    const stamp = ++this.stamp;
    const ear = this.ear;
    let anyone = false;
    for (const l of listeners) {
      if (l.id === noise.emitter || (deafTeam !== undefined && l.team === deafTeam)) continue;
      const dx = l.x - noise.x;
      const dy = l.y - noise.y;
      // Out of earshot in a straight line: out of it by any way (most listeners of most noises).
      if (dx * dx + dy * dy >= noise.loudness * noise.loudness) continue;
      if (!this.hearing.listen(noise.x, noise.y, noise.loudness, l.x, l.y, ear)) continue;
      anyone = true;
      const key = l.team ?? l.id;
      let team = this.ears.get(key);
      if (team === undefined) this.ears.set(key, (team = { stamp: 0, level: 0, dirX: 0, dirY: 0, listener: "" }));
      if (team.stamp === stamp && team.level >= ear.level) continue;
      team.stamp = stamp;
      team.level = ear.level;
      team.dirX = ear.dirX;
      team.dirY = ear.dirY;
      team.listener = l.id;
    }
    return anyone;
  }

  /**
   * What a client whose character is `character` on `team` is told of the last noise: undefined if its
   * team did not hear it. `holdsEmitter`: whether the client's view holds the emitter now (then the message
   * names it and gives the noise's position).
   */
  messageFor(character: string, team: string | undefined, holdsEmitter: boolean): HeardNoiseMessage | undefined {
    const noise = this.current;
    if (noise === null) return undefined;
    const ear = this.ears.get(team ?? character);
    if (ear === undefined || ear.stamp !== this.stamp) return undefined;
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

  /** Forgets what it knows of teams that no longer exist (call now and then, or never: it is small). */
  clear(): void {
    this.ears.clear();
  }
}
