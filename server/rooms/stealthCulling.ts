import { ViewCulling, type ViewListener } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { RoomCulling, RoomCullingReport } from "./roomCulling.js";

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
  /** Run the truth audit every tick (exact, costly). Default false. */
  audit?: boolean;
  /** Fraction of clients the audit covers, in (0, 1] (its cost grows with it). Default 1. */
  auditSample?: number;
}

/** Body radius given to cameras (they have no body), meters. */
export const CAMERA_RADIUS = 0.25;
/** Speed margin over the fastest configured mover, for collision pushes. */
const SPEED_MARGIN = 1.1;

/**
 * The stealth room's culling: a `ViewCulling` fed from the simulation. Players are characters on their
 * team; guards and cameras are entities whose sight ranges raise the culling range; occluders are the
 * map's static walls, read from the physics world. The fastest mover is the fastest configured speed
 * (players walking, guards pursuing) plus 10% for collision pushes.
 */
export class StealthCulling implements RoomCulling {
  readonly enabled = true;
  readonly culling: ViewCulling;
  private readonly players = new Map<string, string>();

  constructor(private readonly sim: StealthSimulation, options: CullingOptions, onAdd: ViewListener, onRemove: ViewListener) {
    const rules = sim.guardRules;
    const maxSpeed = SPEED_MARGIN * Math.max(sim.movement.walkSpeed, sim.movement.crouchSpeed, rules.patrolSpeed, rules.investigateSpeed, rules.pursueSpeed);
    const sample = options.auditSample ?? 1;
    // Checked even when the audit is off, so a bad setting fails when the room is created, not when the audit is turned on.
    if (typeof sample !== "number" || !(sample > 0 && sample <= 1)) throw new RangeError(`CullingOptions.auditSample must be a fraction of clients in (0, 1] (got ${sample})`);
    this.culling = new ViewCulling({
      occluders: Occluders.fromWorld(sim.world, { opaqueMask: sim.vision.opaqueMask }),
      tickSeconds: sim.dt,
      maxSpeed,
      range: options.range,
      lingerSeconds: options.lingerSeconds,
      maxRoundTripMs: options.maxRoundTripMs,
      audit: options.audit === true ? { sample } : false,
      onAdd,
      onRemove,
    });
    for (const g of sim.guards) {
      const at = g.body.getPosition();
      this.culling.addEntity(g.id, { x: at.x, y: at.y, radius: sim.characterRadius, sightRange: g.placement.range });
    }
    for (const c of sim.cameras) this.culling.addEntity(c.id, { x: c.placement.x, y: c.placement.y, radius: CAMERA_RADIUS, sightRange: c.placement.range });
  }

  get range(): number {
    return this.culling.range;
  }

  get audit(): ViewCulling["audit"] {
    return this.culling.audit;
  }

  addClient(clientId: string, playerId: string): void {
    this.syncPlayers();
    this.culling.addClient(clientId, playerId);
  }

  removeClient(clientId: string): void {
    this.culling.removeClient(clientId);
  }

  setRoundTrip(clientId: string, roundTripMs: number | undefined, actualMs = roundTripMs): void {
    this.culling.setRoundTrip(clientId, roundTripMs, actualMs);
  }

  has(clientId: string, entityId: string): boolean {
    return this.culling.has(clientId, entityId);
  }

  update(_tick: number): RoomCullingReport {
    this.syncPlayers();
    for (const g of this.sim.guards) {
      const at = g.body.getPosition();
      this.culling.moveEntity(g.id, at.x, at.y);
    }
    const r = this.culling.update();
    const audit = this.culling.audit?.counts;
    const report: RoomCullingReport = { adds: r.adds, removes: r.removes, maxPerClient: r.maxPerClient, potentiallyVisible: r.potentiallyVisible, ms: r.ms };
    if (audit !== undefined) report.audit = audit;
    return report;
  }

  dispose(): void {
    this.culling.dispose();
  }

  /** Players join, move, change team and leave in the simulation; the culling follows. */
  private syncPlayers(): void {
    for (const p of this.sim.players.values()) {
      const at = p.body.getPosition();
      const team = this.players.get(p.id);
      if (team === undefined) {
        this.culling.addEntity(p.id, { x: at.x, y: at.y, radius: this.sim.characterRadius, team: p.team, character: true });
        this.players.set(p.id, p.team);
        continue;
      }
      if (team !== p.team) {
        this.culling.setTeam(p.id, p.team);
        this.players.set(p.id, p.team);
      }
      this.culling.moveEntity(p.id, at.x, at.y);
    }
    if (this.players.size > this.sim.players.size) {
      for (const id of this.players.keys()) {
        if (this.sim.players.has(id)) continue;
        this.culling.removeEntity(id);
        this.players.delete(id);
      }
    }
  }
}
