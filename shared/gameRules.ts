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

/**
 * Footsteps: every character makes one each `stride` meters it moves. How far one carries (meters of path
 * around walls, see `Hearing` in `sightline`) depends on the gait, read from the speed: `runFrom` m/s
 * and up is a run (a player at full speed, a guard in pursuit), slower is a walk (a player easing the
 * stick or holding Shift, a guard on patrol), and a crouching player creeps, near silent. Below
 * `stillBelow` m/s no step is made.
 */
export const FOOTSTEPS = Object.freeze({
  stride: 0.8,
  runFrom: 2.4,
  stillBelow: 0.3,
  run: 10,
  walk: 4,
  crouch: 1.2,
});

/**
 * A player's distractions (a stone, a bottle): how many it carries (refilled at every respawn), how far it
 * throws one (meters from its centre), and how far the thud where it lands carries (meters of path).
 * Guards that hear it go and look there.
 */
export const DISTRACTION = Object.freeze({
  count: 3,
  throwRange: 12,
  loudness: 14,
  /** How much a thud says to a guard that hears it, against a footstep's 1 (`Heard.salience`): one is enough to make it come and look. */
  salience: 5,
});
