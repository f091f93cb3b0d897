import type { StealthSimulation } from "../sim/stealthSimulation.js";
import { CullingAudit, type AuditCounts } from "./cullingAudit.js";
import { PotentialSight } from "./potentialSight.js";
import { ViewKeeper, type ChurnReport, type ViewListener } from "./viewKeeper.js";

/** Options of {@link StealthCulling}; every field optional. */
export interface CullingOptions {
  /**
   * How far player characters see for culling, all around, meters. Default 20. Never shorter than the
   * longest guard or camera range, so whoever can see a player is in that player's view.
   */
  range?: number;
  /** Seconds an entity stays in a view after it stops qualifying. Default 0.25 (5 ticks at 20 Hz). */
  lingerSeconds?: number;
  /**
   * Round trips above this (ms) are treated as this: the look-ahead stops growing, so a client that
   * delays its pongs cannot widen its own view past it. Default 300.
   */
  maxRoundTripMs?: number;
  /** Run the truth harness every tick ({@link CullingAudit}: exact, costly). Default false. */
  audit?: boolean;
  /** Fraction of clients the truth harness audits, in (0, 1] (its cost grows with it). Default 1. */
  auditSample?: number;
}

/** Hard ceiling of the look-ahead, meters (DESIGN: at most 3 m). */
export const MAX_LOOKAHEAD = 3;
/** Body radius given to cameras (they have no body), meters. */
export const CAMERA_RADIUS = 0.25;
/** Speed margin over the fastest configured mover, for collision pushes. */
const SPEED_MARGIN = 1.1;

/** What one {@link StealthCulling.update} did. */
export interface CullingReport {
  churn: ChurnReport;
  /** Entities potentially visible, summed over teams. */
  potentiallyVisible: number;
  /** Milliseconds spent in the sight update and the view upkeep. */
  ms: number;
  audit?: AuditCounts;
}

/**
 * Anti-wallhack culling for a {@link StealthSimulation}: which guards, cameras and other players each
 * client may receive. Wires {@link PotentialSight} (what each team could see soon) and {@link ViewKeeper}
 * (views with linger) to the simulation, and sets each team's look-ahead from its clients' round trips:
 *
 *   lookahead = min(3 m, maxSpeed x (roundTrip / 2 + one tick))
 *
 * with maxSpeed the fastest configured mover (players walking, guards pursuing) plus 10% for collision
 * pushes, the round trip capped at `maxRoundTripMs` (and taken as that cap until measured), and the
 * team's slowest client deciding for the team (teammates share vision). The scheduler staleness term of
 * the DESIGN's formula is 0 here: every character is evaluated every tick.
 *
 * No Colyseus: the room turns the listeners into `StateView` calls.
 */
export class StealthCulling {
  readonly sight: PotentialSight;
  readonly views: ViewKeeper;
  readonly audit: CullingAudit | null;
  /** Meters per second the look-ahead assumes for every mover. */
  readonly maxSpeed: number;
  readonly maxRoundTripMs: number;
  private readonly players = new Set<string>();
  private readonly roundTrips = new Map<string, number | undefined>();
  private readonly clientCharacter = new Map<string, string>();
  private readonly tickSeconds: number;
  private readonly teamLookahead = new Map<string, number>();

  constructor(private readonly sim: StealthSimulation, options: CullingOptions, onAdd: ViewListener, onRemove: ViewListener) {
    const lingerSeconds = options.lingerSeconds ?? 0.25;
    if (!(lingerSeconds >= 0 && lingerSeconds <= 10)) throw new RangeError(`lingerSeconds must be in [0, 10] (got ${lingerSeconds})`);
    this.maxRoundTripMs = options.maxRoundTripMs ?? 300;
    if (!(this.maxRoundTripMs >= 0 && this.maxRoundTripMs <= 2000)) throw new RangeError(`maxRoundTripMs must be in [0, 2000] (got ${this.maxRoundTripMs})`);
    if (!((options.auditSample ?? 1) > 0 && (options.auditSample ?? 1) <= 1)) throw new RangeError(`auditSample must be in (0, 1] (got ${options.auditSample})`);
    let range = options.range ?? 20;
    if (!(range > 0 && Number.isFinite(range))) throw new RangeError(`range must be a positive finite number of meters (got ${range})`);
    for (const g of sim.guards) range = Math.max(range, g.placement.range);
    for (const c of sim.cameras) range = Math.max(range, c.placement.range);
    this.tickSeconds = sim.dt;
    const rules = sim.guardRules;
    this.maxSpeed = SPEED_MARGIN * Math.max(sim.movement.walkSpeed, sim.movement.crouchSpeed, rules.patrolSpeed, rules.investigateSpeed, rules.pursueSpeed);
    // Farther than any mover gets in a tick (the audit's threshold too): a respawn, which must not linger.
    const teleportDistance = 2 * this.maxSpeed * sim.dt;
    this.sight = new PotentialSight(sim.world, { opaqueMask: sim.vision.opaqueMask, range, teleportDistance });
    const lingerTicks = Math.ceil(lingerSeconds / sim.dt - 1e-9);
    this.views = new ViewKeeper(this.sight, { lingerTicks }, onAdd, onRemove);
    for (const g of sim.guards) {
      const at = g.body.getPosition();
      this.sight.addEntity(g.id, at.x, at.y, sim.characterRadius);
    }
    for (const c of sim.cameras) this.sight.addEntity(c.id, c.placement.x, c.placement.y, CAMERA_RADIUS);
    this.audit = options.audit === true
      ? new CullingAudit(sim.world, this.sight, this.views, { opaqueMask: sim.vision.opaqueMask, tickSeconds: sim.dt, lingerTicks, teleportDistance, sample: options.auditSample ?? 1 })
      : null;
    if (this.audit !== null) for (const g of sim.guards) this.audit.setBody(g.id, g.body);
  }

  /**
   * Gives a client the view of the player character `playerId` (already added to the simulation). Its
   * round trip counts as `maxRoundTripMs` until {@link setRoundTrip} reports one.
   */
  addClient(clientId: string, playerId: string): void {
    this.syncPlayers();
    this.clientCharacter.set(clientId, playerId);
    this.roundTrips.set(clientId, undefined);
    this.views.addClient(clientId, playerId);
    this.audit?.addClient(clientId, playerId, this.maxRoundTripMs);
  }

  removeClient(clientId: string): void {
    this.views.removeClient(clientId);
    this.roundTrips.delete(clientId);
    this.clientCharacter.delete(clientId);
    this.audit?.removeClient(clientId);
  }

  /**
   * A measured round trip, ms (undefined: unknown, counted as the cap). `trueRoundTripMs` is for the audit
   * only: the delay the harness assumes patches take (tests simulate latency; a room passes the measure).
   */
  setRoundTrip(clientId: string, roundTripMs: number | undefined, trueRoundTripMs = roundTripMs): void {
    if (!this.roundTrips.has(clientId)) return;
    this.roundTrips.set(clientId, roundTripMs);
    this.audit?.setRoundTrip(clientId, trueRoundTripMs ?? this.maxRoundTripMs);
  }

  /** The look-ahead (meters) for a round trip (ms). */
  lookaheadFor(roundTripMs: number | undefined): number {
    const rtt = Math.min(roundTripMs ?? this.maxRoundTripMs, this.maxRoundTripMs);
    return Math.min(MAX_LOOKAHEAD, this.maxSpeed * (rtt / 2000 + this.tickSeconds));
  }

  /** Whether the client's view holds `entityId` now (its own character and teammates included). */
  has(clientId: string, entityId: string): boolean {
    return this.views.has(clientId, entityId);
  }

  /** After a simulation step: positions in, sight recomputed, views updated (and audited when enabled). */
  update(tick: number): CullingReport {
    const started = performance.now();
    this.syncPlayers();
    for (const g of this.sim.guards) {
      const at = g.body.getPosition();
      this.sight.moveEntity(g.id, at.x, at.y);
    }
    const lookahead = this.teamLookahead;
    lookahead.clear();
    for (const [clientId, rtt] of this.roundTrips) {
      const team = this.sight.teamOf(this.clientCharacter.get(clientId)!);
      if (team === undefined) continue;
      lookahead.set(team, Math.max(lookahead.get(team) ?? 0, this.lookaheadFor(rtt)));
    }
    for (const team of this.sight.teamNames()) this.sight.setLookahead(team, lookahead.get(team) ?? this.lookaheadFor(undefined));
    this.sight.update();
    const churn = this.views.update(tick);
    let potentiallyVisible = 0;
    for (const team of this.sight.teamNames()) potentiallyVisible += this.sight.visibleCount(team);
    const ms = performance.now() - started;
    const audit = this.audit?.audit(tick);
    return audit === undefined ? { churn, potentiallyVisible, ms } : { churn, potentiallyVisible, ms, audit };
  }

  dispose(): void {
    this.audit?.dispose();
  }

  /** Players join, move, change team and leave in the simulation; the sight follows. */
  private syncPlayers(): void {
    for (const p of this.sim.players.values()) {
      const at = p.body.getPosition();
      if (this.players.has(p.id) && this.sight.teamOf(p.id) !== p.team) {
        this.sight.removeEntity(p.id);
        this.players.delete(p.id);
      }
      if (!this.players.has(p.id)) {
        this.sight.addEntity(p.id, at.x, at.y, this.sim.characterRadius, p.team);
        this.audit?.setBody(p.id, p.body);
        this.players.add(p.id);
      } else {
        this.sight.moveEntity(p.id, at.x, at.y);
      }
    }
    if (this.players.size > this.sim.players.size) {
      for (const id of this.players) {
        if (this.sim.players.has(id)) continue;
        this.sight.removeEntity(id);
        this.players.delete(id);
      }
    }
  }
}
