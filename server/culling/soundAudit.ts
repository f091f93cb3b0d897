import type { Noise } from "../hearing/hearing.js";
import { shortestSoundPath } from "../hearing/shortestPath.js";
import type { Occluders } from "../occluders/occluders.js";
import type { AuditCounts } from "./cullingAudit.js";
import type { HeardNoiseMessage } from "./noiseDelivery.js";

/** Meters of slack for rounding: a way this much longer than the loudness still counts as in earshot. */
const SLACK = 1e-6;

/**
 * How near its emitter a noise must be made for a client that sees the emitter to be told its spot,
 * meters: about a character's reach (a footstep, a shout, a shot). A noise made farther off (a thrown
 * stone's landing) is told as to a client that lacks the emitter, a level and a way only: seeing the
 * thrower says nothing of where the stone fell.
 */
export const SPOT_WITHIN_METERS = 1;

/**
 * Whether `noise` was made where its emitter stands, within {@link SPOT_WITHIN_METERS} of `emitterAt`
 * (undefined: the emitter is gone): then a client that sees the emitter may be told the spot.
 */
export function madeAtEmitter(noise: Noise, emitterAt: { readonly x: number; readonly y: number } | undefined): boolean {
  return emitterAt !== undefined && Math.hypot(noise.x - emitterAt.x, noise.y - emitterAt.y) <= SPOT_WITHIN_METERS;
}

/**
 * The truth audit's check of delivered noises: each one (a sample of them) is held against the exact
 * shortest way around the occluders as they are now, from every character of the client's team, and
 * against the client's view. A **sound leak** is a noise no teammate could hear, one that names an
 * emitter (or gives the noise's position) while the view lacks the emitter, or one that gives the
 * position of a noise made away from its emitter. It shares the culling audit's
 * counts and failure list.
 * @internal
 */
export class SoundAudit {
  private offered = 0;

  constructor(
    private readonly occluders: Occluders,
    private readonly counts: AuditCounts,
    private readonly failures: string[],
    private readonly sample: number,
  ) {}

  /**
   * Checks one delivery to `client`: `ears` are where its team's characters are now, `holdsEmitter`
   * whether its view holds the emitter as the message leaves, `emitterAt` where the emitter is then
   * (undefined: gone).
   */
  check(client: string, noise: Noise, message: HeardNoiseMessage, ears: readonly { x: number; y: number }[], holdsEmitter: boolean, emitterAt: { x: number; y: number } | undefined): void {
    // One delivery in every 1 / sample, the first always.
    const n = this.offered++;
    if (Math.floor(n * this.sample) === Math.floor((n - 1) * this.sample) && n > 0) return;
    this.counts.soundsAudited++;
    let heard = false;
    for (const ear of ears) {
      if (shortestSoundPath(this.occluders, noise.x, noise.y, ear.x, ear.y, noise.loudness + SLACK) <= noise.loudness + SLACK) {
        heard = true;
        break;
      }
    }
    const names = message.emitter !== undefined || message.x !== undefined || message.y !== undefined;
    const text = JSON.stringify(message);
    if (!heard) this.leak(`${client} was sent a ${noise.kind} of ${noise.emitter} at (${noise.x.toFixed(2)}, ${noise.y.toFixed(2)}) that its team could not hear: ${text}`);
    else if (!holdsEmitter && (names || text.includes(JSON.stringify(noise.emitter)))) this.leak(`${client} was told of ${noise.emitter}, which its view lacks: ${text}`);
    else if ((message.x !== undefined || message.y !== undefined) && !madeAtEmitter(noise, emitterAt)) {
      this.leak(`${client} was told the spot of a ${noise.kind} made away from ${noise.emitter}, where its view does not reach: ${text}`);
    }
  }

  private leak(detail: string): void {
    this.counts.soundLeaks++;
    if (this.failures.length < 20) this.failures.push(`soundLeak: ${detail}`);
  }
}
