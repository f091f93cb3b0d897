// The options, entities and report of a `ViewCulling`: the types a game fills in and reads, apart from
// the class that keeps the views, so the siblings driven through the same interface (culling off) and the
// view upkeep can name them without importing the culling itself.
import type { Occluders } from "../occluders/occluders.js";

/** Called when an entity enters or leaves a client's view. Must not throw. */
export type ViewListener = (clientId: string, entityId: string) => void;

/** Options of a {@link ViewCulling}. `occluders`, `tickSeconds` and `maxSpeed` are facts of your game; the rest have safe defaults. */
export interface ViewCullingOptions {
  /** What blocks sight (from `sightline/occluders`). Changes to it count from the next `update()`. */
  occluders: Occluders;
  /** Seconds between two `update()` calls: your simulation's step, or your patch interval if you cull per patch. */
  tickSeconds: number;
  /**
   * The fastest any entity moves, meters per second, dashes and physics pushes included. The look-ahead
   * and the teleport threshold are derived from it. It must be a true bound: an entity that outruns it
   * (neither moving far enough to count as a teleport nor moved with `teleportEntity`) can enter a view a
   * tick late. If your physics can push a body faster than your characters run, cap each step's
   * displacement, as the stealth demo does.
   * 0 for a game where nothing moves.
   */
  maxSpeed: number;
  /**
   * How far characters could see, all around, meters. Raised by itself to the longest `sightRange` of
   * any entity, so whoever can see a character is in that character's view. Default 20.
   */
  range?: number;
  /**
   * Seconds an entity stays in a view after it stops qualifying, so an entity on the edge does not
   * flicker in and out (and churn is bounded). An entity that teleports does not linger. Default 0.25.
   */
  lingerSeconds?: number;
  /**
   * Round trips above this (ms) count as this, and a client whose round trip is not known yet counts as
   * this: a client that delays its pongs cannot widen its own view past it. In [0, 2000]. Default 300.
   */
  maxRoundTripMs?: number;
  /**
   * Ceiling of the look-ahead, meters. Past it, clients with a longer round trip may see an entity a
   * little late rather than receive a wider view. At least one tick of motion (`maxSpeed x tickSeconds`).
   * Default 3.
   */
  maxLookahead?: number;
  /**
   * Run the truth audit after every update (exact, costly): `true`, or `{ sample }` to audit that
   * fraction of the clients, in (0, 1]. Default false. Read it from {@link ViewCulling.audit}.
   */
  audit?: boolean | AuditOptions;
  /** Called for each entity that enters a client's view (during `update()`, `addClient`, `setCharacter`). */
  onAdd?: ViewListener;
  /** Called for each entity that leaves a client's view (during `update()`, and `removeEntity` for a removed one). */
  onRemove?: ViewListener;
}

/** Defaults of the optional {@link ViewCullingOptions}. */
export const DEFAULT_CULLING_OPTIONS = Object.freeze({
  range: 20,
  lingerSeconds: 0.25,
  maxRoundTripMs: 300,
  maxLookahead: 3,
});

/** Something that may be sent to clients, as the culling sees it. Meters. */
export interface CullingEntity {
  x: number;
  y: number;
  /** Body radius, meters, >= 0. Default 0. */
  radius?: number;
  /** Its side. Entities of a client's team are always in its view. Default: no team. */
  team?: string;
  /**
   * Whether it is a player's character: it looks, all around and up to `range`, on behalf of its team,
   * and clients can be attached to it. Needs a `team`. Default false.
   */
  character?: boolean;
  /**
   * How far it observes others, meters (a guard's or a turret's range): the culling range is raised to
   * at least this, so a player seen by it has it in view. Default 0.
   */
  sightRange?: number;
}

/** What one {@link ViewCulling.update} did. */
export interface CullingReport {
  /** Entities that entered views, over all clients. */
  adds: number;
  /** Entities that left views, over all clients. */
  removes: number;
  /** The largest adds + removes of a single client. */
  maxPerClient: number;
  /** Entities potentially visible, summed over teams. */
  potentiallyVisible: number;
  /** (character, entity) pairs in reach, each needing a verdict. */
  pairsTested: number;
  /** Of those, the pairs tested against occluders (the rest kept a remembered verdict). */
  occluderTests: number;
  /** Milliseconds the update took, audit excluded. */
  ms: number;
}

/** Options of the truth audit (`ViewCullingOptions.audit`, `ViewCulling.startAudit`). */
export interface AuditOptions {
  /**
   * Fraction of the clients audited, in (0, 1]: a client is in or out for its whole stay, picked evenly by
   * join order (the first always in). Default 1.
   */
  sample?: number;
}

/** Who a reveal is for: a `team`, one `client`, or (neither) every client. */
export interface RevealTarget {
  /** Every client whose character is on this team. */
  team?: string;
  /** One client, by the id its view was added with. */
  client?: string;
}

/** Options of `ViewCulling.reveal`. */
export interface RevealOptions extends RevealTarget {
  /** How long, seconds (> 0), rounded up to whole updates. Default: until concealed. */
  seconds?: number;
}
