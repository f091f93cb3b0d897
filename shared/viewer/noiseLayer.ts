/// <reference lib="dom" />
import { NOISE_COLOURS } from "./palette.js";
import type { Viewport } from "./viewport.js";
import type { HeardNoiseMessage } from "sightline/colyseus";

/**
 * One noise as a client receives it in a `noise` message (an array of these per patch): the library's own
 * type. A type-only import: nothing of the server reaches the page's bundle.
 */
export type HeardNoise = HeardNoiseMessage;

/** How long a noise stays on screen, ms, fading all the while. */
export const NOISE_MS = 1500;

/**
 * A noise whose spot is known: a ring there, growing from `from` to the kind's radius (meters) as it
 * fades. A thud's ring is wider and thicker than a footstep's: one is a stone landing, the other a step.
 */
export const NOISE_RING = Object.freeze({ from: 0.2, footstep: 1, thud: 1.8 });

/**
 * A noise from a hidden emitter: a chevron around the listener, pointing the way the sound came from.
 * `distance` is from the listener's centre to the chevron's base (meters; clear of the body and its
 * facing tick), `tip` how far its point stands out beyond that, `halfAngle` its half width (radians).
 */
export const NOISE_MARKER = Object.freeze({ distance: 1.1, tip: 0.35, halfAngle: 0.35 });

/**
 * Noises kept at once. Each lives 1.5 s; a crowd running past makes a few a tick. Beyond this the oldest
 * go first: a page drawing hundreds of rings tells nobody anything.
 */
const MAX_NOISES = 96;

/** A noise and when it arrived (performance.now(), ms). */
interface Held {
  noise: HeardNoise;
  since: number;
}

/** A noise the layer holds now, for the page's probe. */
export interface NoiseReading extends HeardNoise {
  /** ms since it arrived. */
  age: number;
  /** Whether it is drawn: a ring always; a marker only while its listener is on screen. */
  drawn: boolean;
}

/**
 * The noises the client was told of (`noise` messages), each for {@link NOISE_MS}, fading. A noise that
 * names its emitter is drawn where it was, as a ring: the client knows that spot anyway (its view holds
 * the emitter), and a spectator is told every noise so. One that does not is drawn as what an ear
 * learns, a chevron at the edge of a circle around the character that heard it (the player's own or a
 * teammate's), pointing along `dir`, bolder the louder it was; it is skipped while that character is
 * not on screen. Drawn over the fog and the characters: a sound is news, wherever it came from.
 */
export class NoiseLayer {
  private held: Held[] = [];
  /** Noises received since the page opened, for the record. */
  received = 0;

  /**
   * Takes one `noise` message's payload. Read loosely: whatever is not a well-formed noise is skipped, so
   * a newer server's extra fields or kinds cost nothing and a malformed entry draws nothing.
   */
  hear(payload: unknown, now: number): void {
    if (!Array.isArray(payload)) return;
    for (const entry of payload) {
      const noise = wellFormed(entry);
      if (noise === undefined) continue;
      this.received++;
      this.held.push({ noise, since: now });
    }
    if (this.held.length > MAX_NOISES) this.held.splice(0, this.held.length - MAX_NOISES);
  }

  /** The noises not expired by `now` (ms), as received, with their age and whether they are drawn. */
  readings(now: number, locate: (id: string) => { x: number; y: number } | undefined): NoiseReading[] {
    return this.held
      .filter((h) => now - h.since < NOISE_MS)
      .map(({ noise, since }) => ({ ...noise, age: Math.max(0, now - since), drawn: hasSpot(noise) || locate(noise.listener) !== undefined }));
  }

  /**
   * Draws what has not expired by `now` (ms, the clock `hear` was given), and forgets the rest.
   * @param locate where a listener is drawn now, meters; undefined when it is not on screen
   */
  draw(ctx: CanvasRenderingContext2D, view: Viewport, now: number, locate: (id: string) => { x: number; y: number } | undefined): void {
    if (this.held.length === 0) return;
    let kept = 0;
    for (const h of this.held) {
      // A frame's timestamp may precede the message that arrived while it was being prepared.
      const age = Math.max(0, now - h.since);
      if (age >= NOISE_MS) continue;
      this.held[kept++] = h;
      const fade = 1 - age / NOISE_MS;
      const n = h.noise;
      const thud = n.kind === "thud";
      ctx.strokeStyle = ctx.fillStyle = thud ? NOISE_COLOURS.thud : NOISE_COLOURS.footstep;
      if (hasSpot(n)) {
        ring(ctx, view, n.x, n.y, thud, age / NOISE_MS, strength(n.level) * fade);
        continue;
      }
      const at = locate(n.listener);
      if (at !== undefined) chevron(ctx, view, at.x, at.y, n.dir, thud, strength(n.level) * fade);
    }
    this.held.length = kept;
    ctx.globalAlpha = 1;
  }
}

/** How opaque a noise is drawn at its loudest: a faint one stays readable, a loud one is bold. */
function strength(level: number): number {
  return 0.35 + 0.65 * Math.min(1, Math.max(0, level));
}

function hasSpot(n: HeardNoise): n is HeardNoise & { x: number; y: number } {
  return n.x !== undefined && n.y !== undefined;
}

/** A ring growing as it fades, fast at first (ease-out), as a sound front does. */
function ring(ctx: CanvasRenderingContext2D, view: Viewport, x: number, y: number, thud: boolean, t: number, alpha: number): void {
  const to = thud ? NOISE_RING.thud : NOISE_RING.footstep;
  const radius = NOISE_RING.from + (to - NOISE_RING.from) * (1 - (1 - t) * (1 - t));
  ctx.globalAlpha = alpha;
  ctx.lineWidth = thud ? Math.max(3.5, view.length(0.16)) : Math.max(1.5, view.length(0.07));
  ctx.beginPath();
  ctx.arc(view.x(x), view.y(y), view.length(radius), 0, 2 * Math.PI);
  ctx.stroke();
}

/**
 * A chevron pointing along `dir` at the edge of a circle around (x, y): its two arms from the circle out
 * to a point. A thud's is filled, a footstep's only stroked, so the two read apart at a glance.
 */
function chevron(ctx: CanvasRenderingContext2D, view: Viewport, x: number, y: number, dir: number, thud: boolean, alpha: number): void {
  const { distance, tip, halfAngle } = NOISE_MARKER;
  const cx = view.x(x);
  const cy = view.y(y);
  const base = view.length(distance);
  const point = view.length(distance + tip);
  ctx.globalAlpha = alpha;
  ctx.lineWidth = thud ? Math.max(3, view.length(0.12)) : Math.max(2, view.length(0.08));
  ctx.lineJoin = "round";
  ctx.beginPath();
  ctx.moveTo(cx + base * Math.cos(dir - halfAngle), cy + base * Math.sin(dir - halfAngle));
  ctx.lineTo(cx + point * Math.cos(dir), cy + point * Math.sin(dir));
  ctx.lineTo(cx + base * Math.cos(dir + halfAngle), cy + base * Math.sin(dir + halfAngle));
  if (thud) {
    ctx.arc(cx, cy, base, dir + halfAngle, dir - halfAngle, true);
    ctx.fill();
  }
  ctx.stroke();
  ctx.lineJoin = "miter";
}

/** A payload entry as a noise, or undefined when it is not one. */
function wellFormed(entry: unknown): HeardNoise | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  if (typeof e.kind !== "string" || typeof e.listener !== "string") return undefined;
  if (typeof e.level !== "number" || !Number.isFinite(e.level) || typeof e.dir !== "number" || !Number.isFinite(e.dir)) return undefined;
  const noise: HeardNoise = { kind: e.kind, level: e.level, dir: e.dir, listener: e.listener };
  // The spot counts only whole: both coordinates finite (a half-given spot is drawn as a direction).
  if (typeof e.x === "number" && Number.isFinite(e.x) && typeof e.y === "number" && Number.isFinite(e.y)) {
    noise.x = e.x;
    noise.y = e.y;
    if (typeof e.emitter === "string") noise.emitter = e.emitter;
  }
  return noise;
}
