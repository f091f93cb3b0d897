import type { ObserverState } from "sightline";
import { fieldSlot, liveValues } from "sightline/colyseus";
import { CameraState, DetectionMeter, DetectionNotice, EVENT_HISTORY, GuardState, type PlayerState, type StealthState } from "../../shared/schema.js";
import { syncedFacing } from "../../shared/syncedFacing.js";
import type { RoundEvent, StealthSimulation, StepResult } from "../sim/stealthSimulation.js";
import type { RoomStats } from "../ops/roomStats.js";

/** Which entities a client's view holds (the room's culling). */
export interface ViewMembership {
  has(clientId: string, entityId: string): boolean;
}

/** A meter the mirror keeps in a player's `meters`, with what the mirror knows of it. */
interface MirroredMeter {
  readonly meter: DetectionMeter;
  /** The sync that last wrote it: one not written by this sync is dropped. */
  stamp: number;
  /**
   * The tick it was made at: a meter exists only while its observer is in its target's view, so this is
   * when the target's client last began to see that observer.
   */
  readonly since: number;
  /**
   * What was last written into `meter` (level in hundredths, state): a setter costs a call even when it
   * writes nothing, and most meters of a tick hold the hundredths and state they had.
   */
  level: number;
  state: ObserverState;
}

/** A player on the mirror's side: its meters as plain objects by observer, so a sync hashes no schema map. */
interface MirroredPlayer {
  readonly state: PlayerState;
  readonly meters: Map<string, MirroredMeter>;
  /** What {@link StateMirror.syncBodies} last wrote of it (see `PLAYER_FIELDS`): an unchanged field is not written. */
  readonly written: Float64Array;
}

/** The player fields `syncBodies` writes, in the order of `MirroredPlayer.written`. */
const PX = 0;
const PY = 1;
const PFACING = 2;
const PCROUCH = 3;
const PCAUGHT = 4;
const PESCAPES = 5;
const PSMOKES = 6;
const PDISTRACTIONS = 7;
const PLAYER_FIELDS = 8;

/** Slots of the guards' and cameras' fields in their live values, for writes while unseen (see `syncBodies`). */
const GX = fieldSlot(GuardState, "x");
const GY = fieldSlot(GuardState, "y");
const GFACING = fieldSlot(GuardState, "facing");
const GALERT = fieldSlot(GuardState, "alert");
const GACTIVITY = fieldSlot(GuardState, "activity");
const CFACING = fieldSlot(CameraState, "facing");
const CALERT = fieldSlot(CameraState, "alert");

/**
 * The simulation mirrored into the synced schema, in the two halves of a tick the culling sits between:
 * {@link syncBodies} (where everything is, read by the culling) before it, {@link syncAwareness} (meters,
 * detection events, round outcomes, which may name an observer only while it is in the target's view)
 * after it.
 */
export class StateMirror {
  private meterSyncs = 0;
  /**
   * Each player's meters, by player id. A stamp per meter rather than a set cleared every tick: clearing
   * (or emptying and refilling) a long-lived Map or Set makes V8 allocate its new table straight in the old
   * generation, so a per-tick clear is garbage only a mark-compact collects.
   */
  private readonly mirrored = new Map<string, MirroredPlayer>();
  /** The sync under way, for the reused visitor. */
  private views: ViewMembership | null = null;
  private readonly visitLevel = (observerId: string, targetId: string, level: number, alert: ObserverState): void => this.meterOf(observerId, targetId, level, alert);
  /**
   * The guards' states in the simulation's order, and what was last written of each (x, y, facing as
   * synced): most guards' alert and activity, and a standing guard's place, are what they were, and a
   * schema setter costs a call even when it writes nothing.
   */
  private readonly guardStates: GuardState[] = [];
  private readonly guardWritten: Float64Array;
  private readonly guardAlert: string[] = [];
  private readonly guardActivity: string[] = [];
  /** The cameras' states in the simulation's order, and what was last written of each (facing as synced, alert). */
  private readonly cameraStates: CameraState[] = [];
  private readonly cameraWritten: Float64Array;
  private readonly cameraAlert: string[] = [];

  constructor(private readonly sim: StealthSimulation, private readonly state: StealthState, private readonly stats: RoomStats) {
    for (const g of sim.guards) {
      const gs = new GuardState();
      const at = g.body.getPosition();
      Object.assign(gs, { x: at.x, y: at.y, facing: syncedFacing(g.brain.facing), fov: g.placement.fov, range: g.placement.range });
      state.guards.set(g.id, gs);
      this.guardStates.push(gs);
      this.guardAlert.push(gs.alert);
      this.guardActivity.push(gs.activity);
    }
    this.guardWritten = new Float64Array(3 * sim.guards.length).fill(NaN);
    for (const c of sim.cameras) {
      const cs = new CameraState();
      Object.assign(cs, { x: c.placement.x, y: c.placement.y, facing: syncedFacing(c.facing), fov: c.placement.fov, range: c.placement.range });
      state.cameras.set(c.id, cs);
      this.cameraStates.push(cs);
      this.cameraAlert.push(cs.alert);
    }
    this.cameraWritten = Float64Array.from(this.cameraStates, (cs) => cs.facing);
  }

  /** Positions, poses and alert states after a step. */
  syncBodies(result: StepResult): void {
    const state = this.state;
    state.tick = result.tick;
    for (const p of this.sim.players.values()) {
      const mp = this.mirrorOf(p.id);
      if (mp === undefined) continue;
      const ps = mp.state;
      const w = mp.written;
      const at = p.body.getPosition();
      if (w[PX] !== at.x) ps.x = w[PX] = at.x;
      if (w[PY] !== at.y) ps.y = w[PY] = at.y;
      const facing = syncedFacing(p.facing);
      if (w[PFACING] !== facing) ps.facing = w[PFACING] = facing;
      const crouch = p.crouch ? 1 : 0;
      if (w[PCROUCH] !== crouch) {
        w[PCROUCH] = crouch;
        ps.crouch = p.crouch;
      }
      if (w[PCAUGHT] !== p.caught) ps.caught = w[PCAUGHT] = p.caught;
      if (w[PESCAPES] !== p.escapes) ps.escapes = w[PESCAPES] = p.escapes;
      if (w[PSMOKES] !== p.smokes) ps.smokes = w[PSMOKES] = p.smokes;
      if (w[PDISTRACTIONS] !== p.distractions) ps.distractions = w[PDISTRACTIONS] = p.distractions;
    }
    // A guard or camera no client's view holds has its recording paused (the plugin's `pauseUnheld`): its
    // fields are stored straight into its live values, which a view that takes it encodes it from. Most
    // guards are unseen at a time, and their setters were most of what this sync cost.
    const guards = this.sim.guards;
    const gw = this.guardWritten;
    for (let i = 0; i < guards.length; i++) {
      const g = guards[i]!;
      const gs = this.guardStates[i]!;
      const live = gs.isTrackingPaused ? liveValues(gs) : null;
      const at = g.body.getPosition();
      if (gw[3 * i] !== at.x) {
        gw[3 * i] = at.x;
        if (live === null) gs.x = at.x;
        else live[GX] = at.x;
      }
      if (gw[3 * i + 1] !== at.y) {
        gw[3 * i + 1] = at.y;
        if (live === null) gs.y = at.y;
        else live[GY] = at.y;
      }
      const facing = syncedFacing(g.brain.facing);
      if (gw[3 * i + 2] !== facing) {
        gw[3 * i + 2] = facing;
        if (live === null) gs.facing = facing;
        else live[GFACING] = facing;
      }
      const alert = this.sim.alertOf(g.id);
      if (this.guardAlert[i] !== alert) {
        this.guardAlert[i] = alert;
        if (live === null) gs.alert = alert;
        else live[GALERT] = alert;
      }
      const activity = g.brain.activity;
      if (this.guardActivity[i] !== activity) {
        this.guardActivity[i] = activity;
        if (live === null) gs.activity = activity;
        else live[GACTIVITY] = activity;
      }
    }
    const cameras = this.sim.cameras;
    const cw = this.cameraWritten;
    for (let i = 0; i < cameras.length; i++) {
      const c = cameras[i]!;
      const cs = this.cameraStates[i]!;
      const facing = syncedFacing(c.facing);
      const alert = this.sim.alertOf(c.id);
      if (cw[i] === facing && this.cameraAlert[i] === alert) continue;
      const live = cs.isTrackingPaused ? liveValues(cs) : null;
      if (cw[i] !== facing) {
        cw[i] = facing;
        if (live === null) cs.facing = facing;
        else live[CFACING] = facing;
      }
      if (this.cameraAlert[i] !== alert) {
        this.cameraAlert[i] = alert;
        if (live === null) cs.alert = alert;
        else live[CALERT] = alert;
      }
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
    return this.mirrored.get(targetId)?.meters.get(observerId)?.since;
  }

  /** Mirrors every awareness level above 0 into its target's `meters`, dropping meters back at 0. */
  private syncMeters(views: ViewMembership): void {
    ++this.meterSyncs;
    this.views = views;
    this.sim.awareness.forEachLevel(this.visitLevel);
    this.views = null;
    this.mirrored.forEach(this.sweepPlayer);
  }

  /** The mirror's side of player `id` (made on first use), or undefined when it has no state (yet). */
  private mirrorOf(id: string): MirroredPlayer | undefined {
    let mp = this.mirrored.get(id);
    if (mp === undefined) {
      const ps = this.state.players.get(id);
      if (ps === undefined) return undefined;
      mp = { state: ps, meters: new Map(), written: new Float64Array(PLAYER_FIELDS).fill(NaN) };
      this.mirrored.set(id, mp);
    }
    return mp;
  }

  /** Reused callbacks of the sweep after each sync (no closure a tick). */
  private sweeping: MirroredPlayer | null = null;
  private readonly sweepPlayer = (mp: MirroredPlayer, id: string): void => {
    // A player who left took its meters with its state; one back under the same id starts anew.
    if (this.state.players.get(id) !== mp.state) {
      this.mirrored.delete(id);
      return;
    }
    if (mp.meters.size === 0) return;
    this.sweeping = mp;
    mp.meters.forEach(this.sweepMeter);
    this.sweeping = null;
  };
  private readonly sweepMeter = (m: MirroredMeter, observerId: string): void => {
    if (m.stamp === this.meterSyncs) return;
    const mp = this.sweeping!;
    mp.state.meters.delete(observerId);
    mp.meters.delete(observerId);
  };

  /** One pair's level into its target's meter, if the target's view holds the observer (a meter names it). */
  private meterOf(observerId: string, targetId: string, level: number, alert: ObserverState): void {
    const mp = this.mirrorOf(targetId);
    if (mp === undefined || !this.views!.has(targetId, observerId)) return;
    let m = mp.meters.get(observerId);
    if (m === undefined) {
      const meter = new DetectionMeter();
      mp.state.meters.set(observerId, meter);
      m = { meter, stamp: 0, since: this.state.tick, level: meter.level, state: meter.state as ObserverState };
      mp.meters.set(observerId, m);
    }
    // Hundredths are all a meter needs on screen, and they spare a patch on most ticks of a slow decay.
    const shown = Math.round(level * 100) / 100;
    if (m.level !== shown) m.meter.level = m.level = shown;
    if (m.state !== alert) m.meter.state = m.state = alert;
    m.stamp = this.meterSyncs;
  }
}
