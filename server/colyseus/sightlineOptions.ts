import type { Schema } from "@colyseus/schema";
import type { ViewCullingOptions } from "../culling/index.js";
import { Hearing } from "../hearing/hearing.js";
import { DEFAULT_SEEN_ON_SCREEN_OPTIONS, type SeenOnScreenOptions } from "../vision/fairness/seenOnScreen.js";
import { fail, func, object, oneOf, within } from "../../shared/validation/rangeChecks.js";

/** Where an entity is, meters: written by a {@link SightlineOptions.position} reader. */
export interface Position {
  x: number;
  y: number;
}

/**
 * Options of the {@link SightlinePlugin}. Given to its constructor, to {@link SightlinePlugin.start}, or
 * both (`start` wins): facts known when the room class is written go to the constructor, facts of a
 * room's own map (its occluders) to `start` in `onCreate`.
 *
 * The culling options (`occluders`, `tickSeconds`, `maxSpeed`, `range`, `lingerSeconds`,
 * `maxRoundTripMs`, `maxLookahead`, `audit`) mean what they mean for `ViewCulling` (`sightline/culling`);
 * `onAdd` and `onRemove` are the plugin's own.
 */
export interface SightlineOptions extends Omit<ViewCullingOptions, "onAdd" | "onRemove" | "tickSeconds"> {
  /**
   * Seconds between two culling updates. With `update: "beforePatch"` it defaults to the room's patch
   * interval (`patchRate / 1000`); with `"manual"`, your simulation's step (required).
   */
  tickSeconds?: number;
  /**
   * When views are brought up to date:
   * - `"beforePatch"`: just before each patch, after your own `onBeforePatch`, reading each entity's
   *   position from its schema instance. Works with any game loop.
   * - `"manual"`: when you call {@link SightlinePlugin.update} (after your physics step, so what you
   *   derive from the views, such as which observer a meter may name, is decided the same tick).
   * @default "beforePatch"
   */
  update?: "beforePatch" | "manual";
  /**
   * False turns culling off: every view holds every entity, as if the state were broadcast. A baseline
   * to measure culling against, never a setting for a game that cares about wallhacks.
   * @default true
   */
  culling?: boolean;
  /**
   * Pauses the schema change recording of every entity no client's view holds (Colyseus's
   * `pauseTracking`), and resumes it just before a view takes the entity again, which then receives it
   * whole from its live fields. Writes to an unseen guard then record nothing for a patch no client would
   * receive any of (and cost a store, written through `liveValues`), and no view's encode walks past it.
   * False records every write, as Colyseus does by default (for server code of your own that reads the
   * recorded changes).
   * @default true
   */
  pauseUnheld?: boolean;
  /**
   * The `.view(tag)` tag of owner-only fields (ammo, health, a private meter): the plugin adds the
   * client's character to its view with this tag, so those fields reach that client alone, and moves the
   * tag when the client takes another character. Unset: no owner-only fields.
   */
  ownerTag?: number;
  /**
   * The `.view(tag)` tag of team-only fields (health, ammo, loadout that teammates see and enemies never
   * do): the plugin adds every entity of a client's team to its view with this tag, and takes the tag
   * away, before anything else is sent, from a view whose team the entity (or the viewer) leaves. A
   * different power of two from `ownerTag`. Unset: no team-only fields.
   */
  teamTag?: number;
  /**
   * Reads an entity's position from its schema instance into `out`, meters. Called for every entity at
   * every update, so keep it allocation-free.
   * @default reads the instance's `x` and `y` fields
   */
  position?: (instance: Schema, out: Position) => void;
  /**
   * Milliseconds between round-trip pings to each client (WebSocket ping frames, answered by the
   * client's WebSocket layer). In [100, 60000].
   * @default 1000
   */
  pingIntervalMs?: number;
  /**
   * Your own round-trip measure, ms (undefined: unknown, counted as `maxRoundTripMs`), read at every
   * update: for a transport of your own, or a test that simulates latency. When set, the plugin sends no
   * pings. Unset: WebSocket pings every `pingIntervalMs`.
   */
  roundTrip?: (sessionId: string) => number | undefined;
  /**
   * What noises sent with {@link SightlinePlugin.sendNoise} travel through: pass the `Hearing` your
   * guards listen with, so both share its sound grid (built once for the level). Default: one built on `occluders` when
   * the first noise is sent.
   */
  hearing?: Hearing;
  /**
   * The fairness mode's history (see `SeenOnScreen` in `sightline`): with it, {@link SightlinePlugin.shownPoses}
   * records your observers' poses in Colyseus's `Rewind` and reads each player's render time from the
   * room's `defineInput` stream. `maxRewindMs`: as `SeenOnScreenOptions` (default 350).
   */
  seenOnScreen?: SeenOnScreenOptions;
}

/** The rewind cap of {@link SightlineOptions.seenOnScreen}, milliseconds, given its options. @internal */
export function rewindCapOf(o: SeenOnScreenOptions): number {
  return o.maxRewindMs ?? DEFAULT_SEEN_ON_SCREEN_OPTIONS.maxRewindMs;
}

/** Defaults of the plugin's own options. */
export const DEFAULT_SIGHTLINE_OPTIONS = Object.freeze({
  update: "beforePatch" as const,
  culling: true,
  pauseUnheld: true,
  pingIntervalMs: 1000,
});

const UPDATE_MODES = ["beforePatch", "manual"] as const;

/** Checks the plugin's own options (the culling checks the rest when built). @internal */
export function checkPluginOptions(o: SightlineOptions): void {
  if (o.update !== undefined) oneOf("SightlineOptions.update", o.update, UPDATE_MODES);
  if (o.culling !== undefined && typeof o.culling !== "boolean") fail("SightlineOptions.culling", "must be a boolean", o.culling);
  if (o.pauseUnheld !== undefined && typeof o.pauseUnheld !== "boolean") fail("SightlineOptions.pauseUnheld", "must be a boolean", o.pauseUnheld);
  for (const name of ["ownerTag", "teamTag"] as const) {
    const tag = o[name];
    // Colyseus view tags are single bits.
    if (tag !== undefined && !(Number.isInteger(tag) && tag > 0 && tag < 2 ** 31 && (tag & (tag - 1)) === 0)) fail(`SightlineOptions.${name}`, "must be a view tag: a power of two from 1 to 2^30", tag);
  }
  if (o.ownerTag !== undefined && o.ownerTag === o.teamTag) fail("SightlineOptions.teamTag", "must differ from ownerTag: teammates would receive owner-only fields", o.teamTag);
  if (o.position !== undefined) func("SightlineOptions.position", o.position, "(instance, out) => void");
  if (o.roundTrip !== undefined) func("SightlineOptions.roundTrip", o.roundTrip, "(sessionId) => milliseconds | undefined");
  if (o.hearing !== undefined && !(o.hearing instanceof Hearing)) fail("SightlineOptions.hearing", "must be a Hearing (from sightline)", o.hearing);
  if (o.pingIntervalMs !== undefined) within("SightlineOptions.pingIntervalMs", o.pingIntervalMs, 100, 60_000, "milliseconds");
  if (o.seenOnScreen !== undefined) {
    object("SightlineOptions.seenOnScreen", o.seenOnScreen, "{ maxRewindMs? }");
    if (o.seenOnScreen.maxRewindMs !== undefined) within("SightlineOptions.seenOnScreen.maxRewindMs", o.seenOnScreen.maxRewindMs, 0, 10_000, "milliseconds");
  }
}

/** Reads `x` and `y` fields. @internal */
export function readXY(instance: Schema, out: Position): void {
  out.x = (instance as unknown as { x: number }).x;
  out.y = (instance as unknown as { y: number }).y;
}

/**
 * The same read, for fixed entities only. A separate function on purpose: each property read keeps a
 * cache of the object shapes it met, and past four it falls back to a slow generic lookup. The moving
 * entities' read, run for every entity at every update, then meets only their few schema classes, not
 * also every kind of door and prop read once. @internal
 */
export function readFixedXY(instance: Schema, out: Position): void {
  out.x = (instance as unknown as { x: number }).x;
  out.y = (instance as unknown as { y: number }).y;
}
