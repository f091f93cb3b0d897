import { schema, t } from "@colyseus/schema";

/**
 * The synced state of a `stealth` room, built with @colyseus/schema 5 builders.
 *
 * What goes where is a security decision, not a layout one:
 * - `map` and `tick` are public (map geometry is public anyway: clients load the map file by name).
 * - Every moving entity sits in a `.view()` collection, so a client receives only the entities its
 *   `StateView` holds; an entity outside it leaves no key, id or value in that client's bytes.
 * - A character's detection meters and events hang off the character itself under the {@link OWNER}
 *   tag: they reach its owner (and spectators), and never through an entity the client may not see.
 *
 * Units: meters, radians (0 = +x, y grows downward as in Tiled), ticks. Facings are written rounded to
 * 1/1024 of a turn (`syncedFacing`).
 */

/** View tag for fields only the owning client (and spectators) receive. Tags are powers of two. */
export const OWNER = 1;

/** How aware one observer is of the character holding this meter. Keyed by the observer's id. */
export const DetectionMeter = schema({
  /** Awareness in [0, 1]: 1 = spotted. */
  level: t.float32().default(0),
  /** The observer's state: "idle" | "suspicious" | "alerted" | "searching". */
  state: t.string().default("idle"),
}, "DetectionMeter");
export type DetectionMeter = InstanceType<typeof DetectionMeter>;

/** One detection event about the character holding it (see `DetectionEvent` in server/vision/awareness/types.ts). */
export const DetectionNotice = schema({
  /** Per-room sequence number: strictly increasing, so a client can order and de-duplicate. */
  seq: t.uint32().default(0),
  tick: t.uint32().default(0),
  /** "noticed" | "suspicious" | "spotted" | "lost" | "cleared". */
  type: t.string().default(""),
  /** The guard or camera id. */
  observer: t.string().default(""),
  /** Where that observer last knew this character to be, meters (where it heard it, for "hearing"). */
  x: t.float32().default(0),
  y: t.float32().default(0),
  /** The sense that fed the meter: "sight" or "hearing". */
  sense: t.string().default("sight"),
}, "DetectionNotice");
export type DetectionNotice = InstanceType<typeof DetectionNotice>;

/** A player's character, keyed by its client's `sessionId`. */
export const PlayerState = schema({
  x: t.float32().default(0),
  y: t.float32().default(0),
  facing: t.float32().default(0),
  crouch: t.boolean().default(false),
  team: t.string().default("infiltrators"),
  /** Times an alerted guard caught this character (each sends it back to a spawn). */
  caught: t.uint16().default(0),
  /** Times it reached an exit (each sends it back to a spawn: a new run). */
  escapes: t.uint16().default(0),
  /** Seq of the last input frame the server simulated, for client reconciliation. */
  ack: t.uint32().default(0).view(OWNER),
  /** Smoke grenades left (refilled at every respawn). */
  smokes: t.uint8().default(0).view(OWNER),
  /** Distractions left (owner only). */
  distractions: t.uint8().default(0).view(OWNER),
  /** Meters of every guard and camera with awareness of this character above 0, keyed by observer id. */
  meters: t.map(DetectionMeter).view(OWNER),
  /** The most recent detection events about this character, oldest first (at most `EVENT_HISTORY`). */
  events: t.array(DetectionNotice).view(OWNER),
  /**
   * Map tiles this character has ever seen (tile field of view, shared/fov), as 32-tile words keyed by
   * word index in decimal ("0", "1", ...): tile i = y * columns + x is bit (i & 31) of word i >>> 5, and a
   * missing key is a word with nothing seen yet. Only words that gain a tile are patched. A map rather than
   * an array: an array element changed in the patch window of its owner's join reaches that client twice
   * (schema 5 decodes the repeated ADD as an insert), a key cannot. What the character sees now is not
   * sent: the client computes it with `computeFov` from the public map and its own position.
   */
  explored: t.map("uint32").view(OWNER),
}, "PlayerState");
export type PlayerState = InstanceType<typeof PlayerState>;

/** How many detection events a character keeps in `events`. */
export const EVENT_HISTORY = 8;

/**
 * What guards and cameras share: where they stand and their cone (meters, radians), and their awareness
 * state. A function, so each schema gets its own field builders.
 */
const viewerFields = () => ({
  x: t.float32().default(0),
  y: t.float32().default(0),
  facing: t.float32().default(0),
  /** FULL cone angle, radians. */
  fov: t.float32().default(0),
  range: t.float32().default(0),
  /** Awareness state: "idle" | "suspicious" | "alerted" | "searching". */
  alert: t.string().default("idle"),
});

/** A patrolling guard, keyed `guard:<map name>` (`guard:<object id>` when unnamed). */
export const GuardState = schema({
  ...viewerFields(),
  /** What it is doing: "patrol" | "turn" | "investigate" | "pursue" | "search" | "return". */
  activity: t.string().default("patrol"),
}, "GuardState");
export type GuardState = InstanceType<typeof GuardState>;

/** A fixed, sweeping security camera, keyed `camera:<map name>` (`camera:<object id>` when unnamed). */
export const CameraState = schema(viewerFields(), "CameraState");
export type CameraState = InstanceType<typeof CameraState>;

/**
 * A door of the map, keyed by its Tiled object id in decimal ("12"): its outline is in the public map,
 * whether it is open is here. Culled like any entity: a client learns a door opened or shut only while it
 * could see the door, so a door far away is no news of who is there. Its map property `open` is its state
 * until then.
 */
export const DoorState = schema({
  /** The centre of its outline's box, meters (where the culling places it). */
  x: t.float32().default(0),
  y: t.float32().default(0),
  open: t.boolean().default(false),
}, "DoorState");
export type DoorState = InstanceType<typeof DoorState>;

/** A smoke cloud, keyed `smoke:<n>`. Culled like any entity: no news of a cloud, or its thrower, far away. */
export const SmokeCloud = schema({
  /** Its centre, meters. */
  x: t.float32().default(0),
  y: t.float32().default(0),
  /** Its radius now, meters (it grows). */
  radius: t.float32().default(0),
  /** 1 while dense, falling to 0 as it thins; it blocks sight while at least `SMOKE.opaqueDensity`. */
  density: t.float32().default(1),
}, "SmokeCloud");
export type SmokeCloud = InstanceType<typeof SmokeCloud>;

/** The room's root state. */
export const StealthState = schema({
  /** The map's name: clients fetch its geometry from `/maps/<map>.tmj`. */
  map: t.string().default(""),
  /** Simulation ticks since the room started. */
  tick: t.uint32().default(0),
  players: t.map(PlayerState).view(),
  guards: t.map(GuardState).view(),
  cameras: t.map(CameraState).view(),
  doors: t.map(DoorState).view(),
  smokes: t.map(SmokeCloud).view(),
}, "StealthState");
export type StealthState = InstanceType<typeof StealthState>;
