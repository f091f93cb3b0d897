import type { Client } from "@colyseus/core";
import { fail, object } from "../../shared/validation/rangeChecks.js";
import type { AuditCounts } from "../culling/index.js";
import type { MessageCounts } from "./culledMessages.js";
import type { NoiseCounts } from "./culledNoises.js";
import type { RoundTripCounts } from "./roundTrips.js";

/** How the culling sees one entity you declare with `SightlinePlugin.addEntity`. Meters. */
export interface EntitySpec {
  /** Body radius, meters, >= 0. @default 0 */
  radius?: number;
  /** Its side: entities of a client's team are always in that client's view. @default no team */
  team?: string;
  /** A player's character: it looks on behalf of its team and clients can play it. Needs a `team`. @default false */
  character?: boolean;
  /** How far it observes others (a guard, a turret), meters: whoever it can see has it in view. @default 0 */
  sightRange?: number;
  /**
   * It never moves (a door, a terminal, a smoke cloud): its position is read when it is added, and again
   * only after `SightlinePlugin.teleported(id)`, never at an update. A busy room walks every entity's
   * position at every update and before every send; a fixed one costs nothing there. Moving it without
   * `teleported` is not seen by the culling. @default false
   */
  fixed?: boolean;
}

/** Options of `SightlinePlugin.sendToViewersOf`. */
export interface CulledSendOptions {
  /** Clients that must not get it (the sender, say). */
  except?: Client | readonly Client[];
  /**
   * Seconds during which a client whose view gains the entity still gets the message, right after the
   * patch that shows it the entity (a gunshot heard a moment ago). 0 drops it for those clients. In [0, 10].
   * @default 0
   */
  catchUpSeconds?: number;
}

/** The plugin's counters since the room started, for a `/metrics` page. */
export interface SightlineCounters {
  /** Clients with a view the plugin keeps, and entities declared. */
  clients: number;
  entities: number;
  /** Entities that entered and left views, over all clients. */
  adds: number;
  removes: number;
  /** The largest adds + removes one client had in one update (view churn). */
  churnMaxPerClient: number;
  /** Updates run, and the last one's duration, ms. */
  updates: number;
  lastUpdateMs: number;
  /** The truth audit's totals (all 0 when it is off): see `AuditCounts` in `sightline/culling`. */
  audit: AuditCounts | null;
  roundTrips: RoundTripCounts;
  messages: MessageCounts;
  noises: NoiseCounts;
  /** Positions read as NaN or Infinity (each one reported through `onUncaughtException`). */
  badPositions: number;
  /**
   * Sends between two updates settled (patches in `update: "manual"`, patches after the room clock's
   * timers, joins' full states), and how many entities left views there (teleports and team changes made
   * since the update, let go before they could be sent).
   */
  settles: number;
  settled: number;
}

/** Options of `SightlinePlugin.reveal`: who sees the entity, and for how long. */
export interface PluginRevealOptions {
  /** Every client whose character is on this team. */
  team?: string;
  /** One client (or its session id). */
  client?: Client | string;
  /** Seconds (> 0), rounded up to whole updates. Default: until `conceal`. */
  seconds?: number;
}

/** Options of `SightlinePlugin.spectate` and `spectateAll`. */
export interface SpectateOptions {
  /**
   * Whether the spectator also receives owner-only fields (`ownerTag`): of the character it watches, or
   * (`spectateAll`) of every character. Default false: a spectator sees what the team knows, not what
   * only the player does.
   */
  ownerFields?: boolean;
}

/** A client's session id (a session id passes through). @internal */
export function sessionOf(client: Client | string | undefined): string | undefined {
  return client === undefined || typeof client === "string" ? client : client.sessionId;
}

/** Whether spectate options grant owner-only fields (a RangeError for a bad value). @internal */
export function ownerFields(options: SpectateOptions): boolean {
  const o = object<SpectateOptions>("SpectateOptions", options);
  if (o.ownerFields !== undefined && typeof o.ownerFields !== "boolean") fail("SpectateOptions.ownerFields", "must be a boolean", o.ownerFields);
  return o.ownerFields === true;
}
