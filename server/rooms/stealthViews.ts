import type { SightlineOptions, SightlinePlugin } from "sightline/colyseus";
import { PLAYER_SIGHT_RANGE } from "../../shared/gameRules.js";
import { OWNER, type PlayerState, type StealthState } from "../../shared/schema.js";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import { fraction } from "../../shared/validation/rangeChecks.js";

/** Options of the stealth room's culling; every field optional. */
export interface CullingOptions {
  /**
   * How far player characters see for culling, all around, meters. Default `PLAYER_SIGHT_RANGE` (20).
   * Never shorter than the longest guard or camera range, so whoever can see a player is in that
   * player's view.
   */
  range?: number;
  /** Seconds an entity stays in a view after it stops qualifying. Default 0.25 (5 ticks at 20 Hz). */
  lingerSeconds?: number;
  /**
   * Round trips above this (ms) are treated as this: the look-ahead stops growing, so a client that
   * delays its pongs cannot widen its own view past it. Default 300.
   */
  maxRoundTripMs?: number;
  /** Run the truth audit every tick (exact, costly). Default false. */
  audit?: boolean;
  /** Fraction of clients the audit covers, in (0, 1] (its cost grows with it). Default 1. */
  auditSample?: number;
}

/** Body radius given to cameras (they have no body), meters. */
const CAMERA_RADIUS = 0.25;
/**
 * The stealth room's culling through the `sightline/colyseus` plugin: the options it starts with, from
 * the simulation. Occluders are the simulation's own (walls, doors, smoke: the set its vision reads, so a
 * door or a cloud changes both in the same step); the fastest mover is
 * the simulation's top speed, which it enforces on every body, pushed or not. Views
 * follow each simulation step (`update: "manual"`), so meters and events, which name an observer only
 * while it is in view, are decided on the same views the patch carries. With culling off (`enabled`
 * false) only the step and the owner tag are passed on.
 */
export function cullingFor(sim: StealthSimulation, options: CullingOptions, enabled: boolean): Partial<SightlineOptions> {
  const sample = options.auditSample ?? 1;
  // Checked even when the audit is off, so a bad setting fails when the room is created, not when the audit is turned on.
  fraction("CullingOptions.auditSample", sample, "(]", "clients");
  const views = { tickSeconds: sim.dt, update: "manual", ownerTag: OWNER } as const;
  // Culling off reads no occluders and sizes nothing by speed: no sight state is built for it.
  if (!enabled) return { ...views, culling: false };
  return {
    ...views,
    culling: true,
    occluders: sim.occluders,
    maxSpeed: sim.topSpeed,
    range: options.range ?? PLAYER_SIGHT_RANGE,
    lingerSeconds: options.lingerSeconds,
    maxRoundTripMs: options.maxRoundTripMs,
    audit: options.audit === true ? { sample } : false,
  };
}

/**
 * Tells the culling of every respawn: one a step from where the player was caught is no walk either, and
 * taken for one it would break the speed bound the look-ahead rests on.
 */
export function followTeleports(plugin: Pick<SightlinePlugin, "teleported">, sim: StealthSimulation): void {
  sim.onTeleport = (id) => plugin.teleported(id);
}

/** Declares the map's guards and cameras (already in `state`): their sight ranges raise the culling range. */
export function declareScenery(plugin: Pick<SightlinePlugin, "addEntity">, sim: StealthSimulation, state: StealthState): void {
  for (const g of sim.guards) plugin.addEntity(g.id, state.guards.get(g.id)!, { radius: sim.characterRadius, sightRange: g.placement.range });
  for (const c of sim.cameras) plugin.addEntity(c.id, state.cameras.get(c.id)!, { radius: CAMERA_RADIUS, sightRange: c.placement.range });
}

/** Declares a player's character (already in `state` and the simulation). */
export function declarePlayer(plugin: Pick<SightlinePlugin, "addEntity">, sim: StealthSimulation, id: string, player: PlayerState): void {
  plugin.addEntity(id, player, { radius: sim.characterRadius, team: sim.players.get(id)!.team, character: true });
}
