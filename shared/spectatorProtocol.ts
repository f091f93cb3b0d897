/**
 * The spectator side of the `stealth` room's protocol. Kept apart from `protocol.ts` (zod, schema) so the
 * browser viewer imports it without pulling either into its bundle.
 *
 * A spectator joins the `stealth` room with the join option `{ spectate: token }`. It has no character;
 * it receives every entity, every player's meters and events, the sight rays of each tick, and, for one
 * player it chooses, which entities that player's client has in its view.
 */

/** Message types between a spectator and the room. */
export const SPECTATOR_MESSAGES = Object.freeze({
  /** Spectator -> room, `{ player: string }`: report what this player's client received ("" = nobody). */
  watch: "watch",
  /** Room -> spectators, bytes, every tick: the sight rays the vision scheduler cast this tick (see {@link RAY_FLOATS}). */
  rays: "rays",
  /** Room -> spectator, {@link ReceivedEntities}: sent when the watched player's view changes, and on `watch`. */
  received: "received",
} as const);

/** What one player's client has in its view: the ids of players, guards and cameras. */
export interface ReceivedEntities {
  /** The watched player's session id. */
  player: string;
  /** Entity ids in that client's view now: session ids of players, `guard:<name>`, `camera:<name>`. */
  ids: string[];
}

/**
 * Floats per ray in a `rays` message, little-endian float32: x1, y1 (the eye), x2, y2 (where the ray
 * ended: the sample point, or where it met the target's body), all meters; then 1 for a clear ray, 0 for
 * a blocked one. 20 bytes a ray.
 */
export const RAY_FLOATS = 5;

/**
 * The rays of a `rays` message as floats (see {@link RAY_FLOATS}). Copies, because a received message's
 * bytes may start at an offset a Float32Array cannot view. Throws a RangeError on a length that is not a
 * whole number of rays.
 */
export function readRays(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % (RAY_FLOATS * 4) !== 0) throw new RangeError(`a rays message holds ${RAY_FLOATS * 4} bytes per ray (got ${bytes.byteLength} bytes)`);
  return new Float32Array(bytes.slice().buffer, 0, bytes.byteLength / 4);
}
