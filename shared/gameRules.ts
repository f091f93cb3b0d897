/**
 * The stealth demo's game rules that more than one part of the demo needs: the server's simulation and
 * rooms, the viewer page, the load test's bots and peer server, the benches and the tests. Demo code:
 * the library never imports it (its own defaults stay in the library, even where the numbers match).
 * Browser-safe: no imports.
 */

/** Simulation steps per second, and so patches and client input frames per second. */
export const TICK_RATE = 20;

/** Seconds of one tick. */
export const TICK_SECONDS = 1 / TICK_RATE;

/** Radius of every character's body (players and guards), meters. */
export const CHARACTER_RADIUS = 0.35;

/**
 * How far a player character sees, all around, meters: the reach of its tile field of view (explored
 * memory, the viewer's fog of war) and of its culling.
 */
export const PLAYER_SIGHT_RANGE = 20;

/** Tiled pixels per meter of the demo's maps (one 32-pixel tile is one meter). */
export const PIXELS_PER_METER = 32;

/**
 * How far a player may be from a door to open or shut it, meters: from the character's centre to the
 * nearest point of the door. Guards open a shut door on their way when it is this close ahead.
 */
export const DOOR_REACH = 1.5;

/**
 * A player's smoke grenades: how many it carries (refilled at every respawn), how far it throws one
 * (meters from its centre), and the cloud: radius (meters), lifetime, growth and fading (seconds), and the
 * density below which it stops blocking sight (see `SmokeOptions` in `sightline/occluders`).
 */
export const SMOKE = Object.freeze({
  grenades: 3,
  throwRange: 10,
  radius: 3,
  seconds: 12,
  growSeconds: 1,
  fadeSeconds: 2,
  opaqueDensity: 0.5,
});
