import { CameraState, DetectionMeter, DetectionNotice, EVENT_HISTORY, GuardState, type PlayerState, type StealthState } from "../../shared/schema.js";
import type { RoundEvent, StealthSimulation, StepResult } from "../sim/stealthSimulation.js";
import type { RoomStats } from "../ops/roomStats.js";

/** Which entities a client's view holds (the room's culling). */
export interface ViewMembership {
  has(clientId: string, entityId: string): boolean;
}

/**
 * The simulation mirrored into the synced schema, in the two halves of a tick the culling sits between:
 * {@link syncBodies} (where everything is, read by the culling) before it, {@link syncAwareness} (meters,
 * detection events, round outcomes, which may name an observer only while it is in the target's view)
 * after it.
 */
export class StateMirror {
  /** Meters written this tick (reused), so the ones whose level fell back to 0 can be dropped. */
  /**
   * The sync at which each meter was last written. A stamp rather than a set cleared every tick: clearing
   * (or emptying and refilling) a long-lived Map or Set makes V8 allocate its new table straight in the old
   * generation, so a per-tick clear is garbage only a mark-compact collects.
   */
  private readonly meterStamps = new Map<DetectionMeter, number>();
  private meterSyncs = 0;
  /**
   * The tick each meter was made at: a meter exists only while its observer is in its target's view, so
   * this is when the target's client last began to see that observer.
   */
  private readonly meterSince = new Map<DetectionMeter, number>();

  constructor(private readonly sim: StealthSimulation, private readonly state: StealthState, private readonly stats: RoomStats) {
    for (const g of sim.guards) {
      const gs = new GuardState();
      const at = g.body.getPosition();
      Object.assign(gs, { x: at.x, y: at.y, facing: g.brain.facing, fov: g.placement.fov, range: g.placement.range });
      state.guards.set(g.id, gs);
    }
    for (const c of sim.cameras) {
      const cs = new CameraState();
      Object.assign(cs, { x: c.placement.x, y: c.placement.y, facing: c.facing, fov: c.placement.fov, range: c.placement.range });
      state.cameras.set(c.id, cs);
    }
  }

  /** Positions, poses and alert states after a step. */
  syncBodies(result: StepResult): void {
    const state = this.state;
    state.tick = result.tick;
    for (const p of this.sim.players.values()) {
      const ps = state.players.get(p.id);
      if (ps === undefined) continue;
      const at = p.body.getPosition();
      ps.x = at.x;
      ps.y = at.y;
      ps.facing = p.facing;
      ps.crouch = p.crouch;
      ps.caught = p.caught;
      ps.escapes = p.escapes;
      ps.smokes = p.smokes;
      ps.distractions = p.distractions;
    }
    for (const g of this.sim.guards) {
      const gs = state.guards.get(g.id)!;
      const at = g.body.getPosition();
      gs.x = at.x;
      gs.y = at.y;
      gs.facing = g.brain.facing;
      gs.alert = this.sim.alertOf(g.id);
      gs.activity = g.brain.activity;
    }
    for (const c of this.sim.cameras) {
      const cs = state.cameras.get(c.id)!;
      cs.facing = c.facing;
      cs.alert = this.sim.alertOf(c.id);
    }
  }

  /**
   * Meters and detection events after the views are decided; returns the round outcomes, each with the
   * observer named only if the player's view holds it (to send after the patch).
   */
  syncAwareness(result: StepResult, views: ViewMembership): readonly RoundEvent[] {
    this.syncMeters(views);
    const players = this.state.players;
    for (const e of result.events) {
      this.stats.detectionEvents++;
      const ps = players.get(e.targetId);
      if (ps === undefined) continue;
      const notice = new DetectionNotice();
      notice.seq = e.seq;
      notice.tick = e.tick;
      notice.type = e.type;
      // An event must not name (and so locate) an observer the target's client may not see.
      notice.observer = views.has(e.targetId, e.observerId) ? e.observerId : "";
      notice.x = e.position.x;
      notice.y = e.position.y;
      notice.sense = e.sense;
      ps.events.push(notice);
      while (ps.events.length > EVENT_HISTORY) ps.events.shift();
    }
    for (const r of result.round) {
      if (r.type === "escaped") this.stats.escapes++;
      else this.stats.captures++;
    }
    return result.round;
  }

  /**
   * The tick since which player `targetId`'s view has held `observerId` without a break while their meter
   * was above 0 (after {@link syncAwareness}); undefined when it does not hold it now. What an explanation
   * sent to that player may cover: nothing from before it saw that observer.
   */
  inViewSince(targetId: string, observerId: string): number | undefined {
    const meter = this.state.players.get(targetId)?.meters.get(observerId);
    return meter === undefined ? undefined : this.meterSince.get(meter);
  }

  /** Mirrors every awareness level above 0 into its target's `meters`, dropping meters back at 0. */
  private syncMeters(views: ViewMembership): void {
    const stamps = this.meterStamps;
    const stamp = ++this.meterSyncs;
    const players = this.state.players;
    this.sim.awareness.forEachLevel((observerId, targetId, level) => {
      const ps = players.get(targetId);
      // A meter names its observer: it reaches the target only while the observer is in the target's view.
      if (ps === undefined || !views.has(targetId, observerId)) return;
      let meter = ps.meters.get(observerId);
      if (meter === undefined) {
        meter = new DetectionMeter();
        ps.meters.set(observerId, meter);
        this.meterSince.set(meter, this.state.tick);
      }
      // Hundredths are all a meter needs on screen, and they spare a patch on most ticks of a slow decay.
      meter.level = Math.round(level * 100) / 100;
      meter.state = this.sim.alertOf(observerId);
      stamps.set(meter, stamp);
    });
    players.forEach((ps: PlayerState) => {
      if (ps.meters.size === 0) return;
      for (const [observerId, meter] of ps.meters) {
        if (stamps.get(meter) !== stamp) {
          ps.meters.delete(observerId);
          stamps.delete(meter);
          this.meterSince.delete(meter);
        }
      }
    });
    // Meters of players who left went with their state: forget their stamps now and then.
    if (stamp % 100 === 0) {
      for (const [meter, at] of stamps) {
        if (at === stamp) continue;
        stamps.delete(meter);
        this.meterSince.delete(meter);
      }
    }
  }
}
