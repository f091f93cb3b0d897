import { TICK_RATE } from "../../shared/gameRules.js";
import type { SimulationOptions } from "../sim/stealthSimulation.js";
import type { MapCatalog } from "./mapCatalog.js";
import { describeValue } from "../../shared/validation/rangeChecks.js";
import { Refusal } from "./refusal.js";
import type { CullingOptions } from "./stealthViews.js";

/** Server-side settings of a stealth room (clients cannot change them). */
export interface StealthRoomSettings {
  /** Simulation steps (and patches) per second. */
  tickRate: number;
  maxClients: number;
  /**
   * Frames a client may send per second, inputs and pings included, before Colyseus disconnects it with
   * 4002. Well above the 20 inputs per second a client sends at the default tick rate.
   */
  maxMessagesPerSecond: number;
  /** Seconds a dropped player may take to reconnect and keep its character. */
  reconnectSeconds: number;
  /**
   * Input frames a client may have queued. The room simulates one per tick; beyond this the oldest are
   * skipped (and counted), so a client that bursts cannot build up lag.
   */
  inputBacklog: number;
  /** Ticks a character keeps its last intent when no input arrives (network jitter), before it stops. */
  inputHoldTicks: number;
  /** Options of the simulation (vision, awareness, guards, movement). */
  simulation: SimulationOptions;
  /** Anti-wallhack culling: range, linger, round-trip cap, audit (see `CullingOptions`). */
  culling: CullingOptions;
  /**
   * False turns culling off: every client's view holds every entity, the baseline load tests compare
   * culling with. Default true.
   */
  cullingEnabled?: boolean;
  /**
   * Largest `guards` create option accepted. Default 0: only the map's own guards, because the create
   * option is a client's to send and every generated guard costs the server CPU (`MAX_GUARDS` for npm start).
   */
  maxGuards?: number;
  /** Milliseconds between round-trip pings to each client. */
  pingIntervalMs: number;
  /** Where maps come from. Default: the bundled `server/maps`. */
  catalog?: MapCatalog;
  /**
   * The token a client passes as the join option `spectate` to watch as a spectator (every entity, the
   * sight rays, what each player received). Unset or "" (the default): spectating is off.
   */
  spectatorToken?: string | undefined;
  /**
   * The clock of the room's own time rules (the spectator lockout, the throttle of error messages), ms.
   * Default: Colyseus's room clock. Tests pass a clock they move, instead of waiting on the wall clock.
   */
  now?: (() => number) | undefined;
}

export const DEFAULT_ROOM_SETTINGS: Readonly<StealthRoomSettings> = Object.freeze({
  tickRate: TICK_RATE,
  maxClients: 32,
  maxMessagesPerSecond: 60,
  reconnectSeconds: 20,
  inputBacklog: 3,
  inputHoldTicks: 5,
  simulation: {},
  culling: {},
  pingIntervalMs: 1000,
});

/**
 * The create option `doors` (default true): false builds the room without the map's doors, every doorway
 * an open passage (what a level without doors costs, for load tests). Throws a Refusal for anything else
 * than a boolean.
 */
export function keepsDoors(doors: unknown): boolean {
  return booleanOption("doors", doors);
}

/**
 * The create option `hearing` (default true): false makes a room where nobody is heard (no footsteps, no
 * thuds, deaf guards), what hearing costs, for load tests. Throws a Refusal for anything but a boolean.
 */
export function keepsHearing(hearing: unknown): boolean {
  return booleanOption("hearing", hearing);
}

/**
 * The create option `fairness` (default true): false judges sightings on the server's poses alone, without
 * the fairness mode (`SeenOnScreen`), what the mode costs, for load tests. Throws a Refusal for anything
 * but a boolean.
 */
export function keepsFairness(fairness: unknown): boolean {
  return booleanOption("fairness", fairness);
}

function booleanOption(name: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw new Refusal(`option "${name}" must be a boolean (got ${describeValue(value)})`);
  return value;
}

/**
 * Guards to generate for the create option `guards` (the total wanted; default: the map's own). Refused
 * unless an integer from the map's guard count up to `maxGuards`.
 */

export function extraGuardsFor(guards: unknown, mapGuards: number, maxGuards = 0): number {
  if (guards === undefined) return 0;
  const most = Math.max(maxGuards, mapGuards);
  if (typeof guards !== "number" || !Number.isInteger(guards) || guards < mapGuards || guards > most) {
    throw new Refusal(`option "guards" must be an integer from ${mapGuards} (the map's own guards) to ${most} (got ${describeValue(guards)})`);
  }
  return guards - mapGuards;
}
