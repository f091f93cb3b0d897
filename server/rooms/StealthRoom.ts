import { CloseCode, Room, TimestepException, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { applyInput, type Motion } from "../../shared/movement/applyInput.js";
import {
  CLIENT_MESSAGES,
  ERROR_CODES,
  JoinOptions,
  MoveInput,
  RespawnMessage,
  SERVER_MESSAGES,
  sanitizeMoveFrame,
} from "../../shared/protocol.js";
import { CameraState, DetectionMeter, DetectionNotice, EVENT_HISTORY, GuardState, OWNER, PlayerState, StealthState } from "../../shared/schema.js";
import { EverythingVisible } from "./everythingVisible.js";
import type { RoomCulling } from "./roomCulling.js";
import { StealthCulling, type CullingOptions } from "./stealthCulling.js";
import { StealthSimulation, type SimulationOptions, type StepResult } from "../sim/stealthSimulation.js";
import { ExploredTiles } from "./exploredTiles.js";
import { DEFAULT_MAP, MAP_NAME, MapCatalog } from "./mapCatalog.js";
import { RoomStats } from "./roomStats.js";
import { RoundTripProbe, type PingableSocket } from "./roundTripProbe.js";
import { LoopStalls } from "./loopStalls.js";
import { FixedStepClock, type StepFiring } from "./fixedStepClock.js";
import { asksToSpectate, Spectators } from "./spectators.js";
import { SPECTATOR_MESSAGES } from "../../shared/spectatorProtocol.js";
import { bounded, echo, Refusal } from "./refusal.js";

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
  /** Anti-wallhack culling: range, linger, round-trip cap, audit (see `StealthCulling`). */
  culling: CullingOptions;
  /**
   * False turns culling off: every client's view holds every entity (`EverythingVisible`), the baseline
   * load tests compare culling with. Default true.
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
}

export const DEFAULT_ROOM_SETTINGS: Readonly<StealthRoomSettings> = Object.freeze({
  tickRate: 20,
  maxClients: 32,
  maxMessagesPerSecond: 60,
  reconnectSeconds: 20,
  inputBacklog: 3,
  inputHoldTicks: 5,
  simulation: {},
  culling: {},
  pingIntervalMs: 1000,
});

/** Per-session bookkeeping that survives a reconnection. */
interface Seat {
  readonly motion: Motion;
  /** Ticks since the last input frame. */
  idleTicks: number;
  /** Last time (ms, room clock) each error code was sent, for throttling. */
  readonly errorSentAt: Map<string, number>;
  /** Mirror of Colyseus's per-second frame counter, to count flood disconnects. */
  frames: number;
  framesResetAt: number;
  /** Closed by the server for flooding or an oversized frame: no reconnection. */
  kicked: boolean;
}

/** Protocol codes a client may legitimately send (see @colyseus/shared-types `Protocol`). */
const CLIENT_PROTOCOL_CODES = new Set([10, 12, 13, 17, 18, 19, 20, 21]);

/** How input frames are buffered (the tick rate is added in `onCreate`, once the settings are known). */
const INPUT_OPTIONS = { seqField: "seq", sanitize: sanitizeMoveFrame, bufferMaxSize: 16 } as const;

/**
 * The `stealth` room: authoritative planck physics on a Tiled map, guards and cameras that look through
 * the vision engine, awareness meters and detection events synced through schema.
 *
 * Create option `map` (a map name, default "demo"). Join options `spawn` (a spawn's name) and `team`.
 * Each tick (default 20 Hz): inputs -> movement -> `world.step` -> poses into the vision engine ->
 * scheduler tick -> awareness -> guard behaviour -> round -> state, then the patch. Ticks come from a
 * drift-free {@link FixedStepClock} whose phase is spread over all the rooms of the process.
 *
 * Never trusts a client: input frames with NaN or Infinity are dropped, unknown or invalid messages are
 * answered with an `error` message, and every rejection is counted in {@link stats}; nothing a client
 * sends can throw out of a tick.
 */
export class StealthRoom extends Room<{ state: StealthState; input: MoveInput }> {
  /** Override in a subclass (or use {@link stealthRoomWith}) to change them. */
  settings: StealthRoomSettings = DEFAULT_ROOM_SETTINGS;

  override state = new StealthState();
  override inputs = this.defineInput(MoveInput, INPUT_OPTIONS);
  /** Counters and tick timings (see `RoomStats`). */
  readonly stats = new RoomStats();
  /** The simulation (set in `onCreate`). */
  sim!: StealthSimulation;
  /** Who may receive what (set in `onCreate`). */
  culling!: RoomCulling;
  /** Clients watching without a character (set in `onCreate`). */
  spectators!: Spectators;
  /** Each player's tile sight and explored memory, synced to its owner (set in `onCreate`). */
  explored!: ExploredTiles;

  /** Each session's StateView (a reconnected client keeps its view). */
  private readonly views = new Map<string, StateView>();
  /** When this room's loop was blocked: the probe takes it off the round trips (see `RoundTripProbe`). */
  private stalls!: LoopStalls;
  /** The game loop: drift-free steps at this room's phase, each firing followed by its patch (see `FixedStepClock`). */
  private loop: FixedStepClock | undefined;
  private readonly loopWaiters: (() => void)[] = [];
  private patching = false;
  private readonly probe = new RoundTripProbe(4, undefined, (fromMs, toMs) => this.stalls.blockedWithin(fromMs, toMs));
  private readonly seats = new Map<string, Seat>();
  /** Meters written this tick (reused), so the ones whose level fell back to 0 can be dropped. */
  private readonly touchedMeters = new Set<DetectionMeter>();
  private exceptionLogs = 0;

  override onCreate(options: { map?: unknown; guards?: unknown } = {}): void {
    const s = this.settings;
    const catalog = s.catalog ?? MapCatalog.bundled();
    const name = options.map ?? DEFAULT_MAP;
    if (typeof name !== "string" || !MAP_NAME.test(name)) {
      throw new Refusal(`option "map" must be a map name (letters, digits, '_', '-'); available: ${catalog.names.join(", ")}`);
    }
    const map = catalog.get(name);
    if (map === undefined) {
      throw new Refusal(`unknown map ${echo(name)}; available: ${catalog.names.join(", ") || "none"}`);
    }
    this.maxClients = s.maxClients;
    this.maxMessagesPerSecond = s.maxMessagesPerSecond;
    const extraGuards = this.extraGuardsFor(options.guards, map.guards.length);
    this.sim = new StealthSimulation(map, { ...s.simulation, tickRate: s.tickRate, extraGuards });
    this.spectators = new Spectators(s.spectatorToken);
    this.explored = new ExploredTiles(map);
    const show = (sessionId: string, entityId: string) => {
      const entity = this.entityState(entityId);
      if (entity !== undefined) this.views.get(sessionId)?.add(entity);
    };
    const hide = (sessionId: string, entityId: string) => {
      const entity = this.entityState(entityId);
      if (entity !== undefined) this.views.get(sessionId)?.remove(entity);
    };
    this.culling = s.cullingEnabled === false ? new EverythingVisible(this.sim, show) : new StealthCulling(this.sim, s.culling, show, hide);
    this.state.map = map.name;
    void this.setMetadata({ map: map.name });

    for (const g of this.sim.guards) {
      const gs = new GuardState();
      const at = g.body.getPosition();
      gs.x = at.x;
      gs.y = at.y;
      gs.facing = g.brain.facing;
      gs.fov = g.placement.fov;
      gs.range = g.placement.range;
      this.state.guards.set(g.id, gs);
    }
    for (const c of this.sim.cameras) {
      const cs = new CameraState();
      cs.x = c.placement.x;
      cs.y = c.placement.y;
      cs.facing = c.facing;
      cs.fov = c.placement.fov;
      cs.range = c.placement.range;
      this.state.cameras.set(c.id, cs);
    }

    this.onMessage("respawn", (client, payload: unknown) => this.onRespawn(client, payload));
    this.onMessage(SPECTATOR_MESSAGES.watch, (client, payload: unknown) => {
      const error = this.spectators.watch(client.sessionId, payload);
      if (error === undefined) return;
      if (error.code === ERROR_CODES.messageInvalid) this.stats.messagesInvalid++;
      this.sendError(client, error.code, error.message);
    });
    // A client controls what arrives here as `type` (a message typed "*" puts its payload there), so it is
    // only ever rendered by `echo`, which calls none of its methods.
    this.onMessage("*", (client, type) => {
      this.stats.messagesUnknown++;
      this.sendError(client, ERROR_CODES.messageUnknown, `message type ${echo(type)} is not handled by this room; it accepts: ${CLIENT_MESSAGES.join(", ")} (movement goes through room.input())`);
    });

    // The loop is our FixedStepClock rather than setFixedTimestep, so the input handshake learns the tick
    // rate here, and the patch rate (which the SDK's clock also reads) is one patch per step.
    this.inputs = this.defineInput(MoveInput, { ...INPUT_OPTIONS, tickRate: s.tickRate });
    this.patchRate = 1000 / s.tickRate;
    this.stalls = new LoopStalls();
    this.loop = new FixedStepClock(1000 / s.tickRate, (firing) => this.onLoop(firing));
    this.loop.start();
    this.stats.stepPhaseMs = this.loop.phaseMs;
    this.clock.setInterval(() => {
      this.probe.pingAll();
      this.recordRoundTrips();
    }, s.pingIntervalMs);
  }

  override onJoin(client: Client, options: unknown = {}): void {
    if (asksToSpectate(options)) {
      const refusal = this.spectators.refusal(options.spectate, this.clock.currentTime);
      if (refusal !== undefined) throw new Refusal(refusal);
      this.spectators.add(client, this.state);
      this.sim.vision.setRecordRays(true);
      return;
    }
    const parsed = JoinOptions.safeParse(options ?? {});
    if (!parsed.success) {
      throw new Refusal(`invalid join options: ${parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ")}`);
    }
    let player;
    try {
      player = this.sim.addPlayer(client.sessionId, { spawn: parsed.data.spawn, team: parsed.data.team });
    } catch (err) {
      throw new Refusal((err as Error).message);
    }
    const ps = new PlayerState();
    const at = player.body.getPosition();
    ps.x = at.x;
    ps.y = at.y;
    ps.team = player.team;
    this.state.players.set(client.sessionId, ps);
    this.explored.add(client.sessionId, ps);
    this.spectators.showPlayer(ps);
    this.seats.set(client.sessionId, { motion: { vx: 0, vy: 0, facing: 0, crouch: false }, idleTicks: 0, errorSentAt: new Map(), frames: 0, framesResetAt: 0, kicked: false });

    // The view starts with the character and its teammates; culling adds what the team could see soon.
    const view = new StateView();
    client.view = view;
    this.views.set(client.sessionId, view);
    this.culling.addClient(client.sessionId, client.sessionId);
    view.add(ps, OWNER);
    this.watchFrames(client);
  }

  override onDrop(client: Client, code?: number): void {
    const seat = this.seats.get(client.sessionId);
    if (seat === undefined) return; // a join that was refused
    if (code === CloseCode.WITH_ERROR) this.stats.errorDisconnects++;
    seat.motion.vx = 0;
    seat.motion.vy = 0;
    this.sim.setMotion(client.sessionId, seat.motion);
    // A client the server closed for misbehaving does not get its seat held.
    if (code === CloseCode.WITH_ERROR || seat.kicked) return;
    // A room that is shutting down refuses with "disposing": nothing to hold then, and nothing to report.
    Promise.resolve(this.allowReconnection(client, this.settings.reconnectSeconds)).catch(() => {});
  }

  override onReconnect(client: Client): void {
    this.watchFrames(client);
  }

  /**
   * Sends the patches, right after each firing's steps (see {@link onLoop}): counted and timed here
   * (encoding every view and sending), since tick time does not include it.
   */
  override broadcastPatch(): boolean {
    // Colyseus's own interval keeps calling this (the `patchRate` must stay a number: the SDK's clock learns
    // it from the input handshake); only the game loop's calls send.
    if (!this.patching) return false;
    const started = performance.now();
    const changed = super.broadcastPatch();
    this.stats.recordPatch(started, performance.now() - started);
    return changed;
  }

  /**
   * One firing of the game loop (drift-free, at this room's phase among the process's rooms): the steps it
   * owes, then one patch, so what clients receive is never older than the step that just ran. A step that
   * throws goes to `onUncaughtException` like one from `setFixedTimestep` would, and the loop goes on.
   */
  private onLoop(firing: Readonly<StepFiring>): void {
    this.stalls.late(firing.dueMs, firing.nowMs);
    this.stats.stepsDropped += firing.dropped;
    this.stats.stepPhaseMs = this.loop?.phaseMs ?? 0;
    try {
      for (let i = 0; i < firing.steps; i++) this.tick();
    } catch (err) {
      this.reportLoopError("step", err);
    }
    try {
      this.sendPatch();
    } catch (err) {
      this.reportLoopError("patch", err);
    }
    if (this.loopWaiters.length > 0) for (const resolve of this.loopWaiters.splice(0)) resolve();
  }

  private reportLoopError(part: "step" | "patch", err: unknown): void {
    const cause = err instanceof Error ? err : new Error(String(err));
    this.onUncaughtException(new TimestepException(cause, `game loop ${part} threw: ${cause.message}`), "setFixedTimestep");
  }

  /**
   * Resolves after the game loop's next firing has run its steps and sent its patch: for tests and tools
   * that pace themselves on the room (the room does not use Colyseus's `setFixedTimestep`, so
   * `@colyseus/testing`'s `waitForNextTimestep` does not apply).
   */
  afterNextLoop(): Promise<void> {
    return new Promise((resolve) => this.loopWaiters.push(resolve));
  }

  /** Encodes every view and sends. */
  private sendPatch(): void {
    this.patching = true;
    try {
      this.broadcastPatch();
    } finally {
      this.patching = false;
    }
  }

  /**
   * Guards to generate for the create option `guards` (the total wanted; default: the map's own). Refused
   * unless an integer from the map's guard count up to `maxGuards`.
   */
  private extraGuardsFor(guards: unknown, mapGuards: number): number {
    if (guards === undefined) return 0;
    const most = Math.max(this.settings.maxGuards ?? 0, mapGuards);
    if (typeof guards !== "number" || !Number.isInteger(guards) || guards < mapGuards || guards > most) {
      throw new Refusal(`option "guards" must be an integer from ${mapGuards} (the map's own guards) to ${most} (got ${echo(guards)})`);
    }
    return guards - mapGuards;
  }

  /** The schema object of a player, guard or camera, by entity id. */
  private entityState(id: string): PlayerState | GuardState | CameraState | undefined {
    return this.state.players.get(id) ?? this.state.guards.get(id) ?? this.state.cameras.get(id);
  }

  override onLeave(client: Client): void {
    const sid = client.sessionId;
    if (this.spectators.remove(sid)) {
      if (this.spectators.count === 0) this.sim.vision.setRecordRays(false);
      return;
    }
    const ps = this.state.players.get(sid);
    if (ps !== undefined) {
      for (const [other, view] of this.views) if (other !== sid && this.culling.has(other, sid)) view.remove(ps);
      this.spectators.hidePlayer(ps);
      this.state.players.delete(sid);
    }
    this.seats.delete(sid);
    this.views.delete(sid);
    this.probe.unwatch(sid);
    this.culling.removeClient(sid);
    this.sim.removePlayer(sid);
    this.explored.remove(sid);
  }

  override onDispose(): void {
    this.loop?.stop();
    this.culling?.dispose();
    this.sim?.dispose();
  }

  override onUncaughtException(error: RoomException, method: RoomMethodName): void {
    if (error.cause instanceof Refusal) {
      if (method === "onJoin") this.stats.joinsRefused++;
      return;
    }
    this.stats.exceptions++;
    // Bounded logging: a client that triggers a bug every frame must not flood the log as well.
    if (this.exceptionLogs < 20 || this.stats.exceptions % 1000 === 0) {
      this.exceptionLogs++;
      console.error(`[stealth ${this.roomId}] ${method} threw (${this.stats.exceptions} so far): ${error.cause instanceof Error ? error.cause.stack : error.message}`);
    }
  }

  /** One fixed step. */
  private tick(): void {
    const started = performance.now();
    this.consumeInputs();
    const stepStarted = performance.now();
    const result = this.sim.step();
    const stepMs = performance.now() - stepStarted;
    // Culling before the state sync, so meters and events can follow what each view holds this tick.
    const cullStarted = performance.now();
    this.updateCulling(result.tick);
    const cullMs = performance.now() - cullStarted;
    this.syncState(result);
    this.spectators.afterTick(this.sim.vision.rayLog, this.state, this.culling);
    this.stats.rays += result.vision.rays;
    this.stats.stalenessMax = result.vision.staleness.max;
    this.stats.recordTick(performance.now() - started, stepMs, cullMs);
  }

  private updateCulling(tick: number): void {
    const st = this.stats;
    for (const sid of this.views.keys()) this.culling.setRoundTrip(sid, this.probe.estimate(sid));
    const r = this.culling.update(tick);
    st.viewAdds += r.adds;
    st.viewRemoves += r.removes;
    st.viewClientTicks += this.views.size;
    if (r.maxPerClient > st.viewChurnMaxPerClient) st.viewChurnMaxPerClient = r.maxPerClient;
    st.potentiallyVisible = r.potentiallyVisible;
    if (r.audit !== undefined) {
      st.leaks = r.audit.leaks;
      st.popIns = r.audit.popIns;
      st.misses = r.audit.misses;
      st.auditedClientTicks = r.audit.clientTicks - r.audit.excused;
      st.auditFailures = this.culling.audit?.failures ?? st.auditFailures;
    }
  }

  /** Round-trip figures for `stats`, refreshed with each ping round rather than every tick. */
  private recordRoundTrips(): void {
    const rtts: number[] = [];
    for (const sid of this.views.keys()) {
      const rtt = this.probe.estimate(sid);
      if (rtt !== undefined) rtts.push(rtt);
    }
    rtts.sort((a, b) => a - b);
    this.stats.roundTripMs = { p50: rtts[Math.floor(rtts.length / 2)] ?? 0, max: rtts.at(-1) ?? 0, clients: rtts.length };
  }

  private consumeInputs(): void {
    const s = this.settings;
    for (const [sid, seat] of this.seats) {
      const input = this.inputs.get(sid);
      while (input.size > s.inputBacklog) {
        input.next();
        this.stats.inputsSkipped++;
      }
      const frame = input.next();
      if (frame === undefined) {
        if (++seat.idleTicks === s.inputHoldTicks) {
          seat.motion.vx = 0;
          seat.motion.vy = 0;
          this.sim.setMotion(sid, seat.motion);
        }
        continue;
      }
      seat.idleTicks = 0;
      const ps = this.state.players.get(sid);
      if (ps !== undefined) ps.ack = frame.seq;
      if (frame.rejected || !applyInput(frame, seat.motion, this.sim.movement)) {
        // Never guess at a broken frame: the character stops, and the sender learns why.
        this.stats.inputsNonFinite++;
        seat.motion.vx = 0;
        seat.motion.vy = 0;
        this.sim.setMotion(sid, seat.motion);
        const client = this.clients.get(sid);
        if (client !== undefined) this.sendError(client, ERROR_CODES.inputNonFinite, "input frame dropped: moveX, moveY and facing must be finite numbers");
        continue;
      }
      this.stats.inputsApplied++;
      this.sim.setMotion(sid, seat.motion);
    }
  }

  private syncState(result: StepResult): void {
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
    }
    const exploredStarted = performance.now();
    this.explored.update(this.sim.players.values());
    this.stats.tileVisionMs += performance.now() - exploredStarted;
    this.stats.tileVisionRecomputes = this.explored.recomputes;
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
    this.syncMeters();

    for (const e of result.events) {
      this.stats.detectionEvents++;
      const ps = state.players.get(e.targetId);
      if (ps === undefined) continue;
      const notice = new DetectionNotice();
      notice.seq = e.seq;
      notice.tick = e.tick;
      notice.type = e.type;
      // An event must not name (and so locate) an observer the target's client may not see.
      notice.observer = this.culling.has(e.targetId, e.observerId) ? e.observerId : "";
      notice.x = e.position.x;
      notice.y = e.position.y;
      ps.events.push(notice);
      while (ps.events.length > EVENT_HISTORY) ps.events.shift();
    }
    for (const r of result.round) {
      if (r.type === "escaped") this.stats.escapes++;
      else this.stats.captures++;
      const by = r.by !== undefined && this.culling.has(r.playerId, r.by) ? r.by : undefined;
      this.clients.get(r.playerId)?.send(SERVER_MESSAGES.round, by === undefined ? { type: r.type } : { type: r.type, by });
    }
  }

  /** Mirrors every awareness level above 0 into its target's `meters`, dropping meters back at 0. */
  private syncMeters(): void {
    const touched = this.touchedMeters;
    touched.clear();
    const players = this.state.players;
    this.sim.awareness.forEachLevel((observerId, targetId, level) => {
      const ps = players.get(targetId);
      // A meter names its observer: it reaches the target only while the observer is in the target's view.
      if (ps === undefined || !this.culling.has(targetId, observerId)) return;
      let meter = ps.meters.get(observerId);
      if (meter === undefined) {
        meter = new DetectionMeter();
        ps.meters.set(observerId, meter);
      }
      // Hundredths are all a meter needs on screen, and they spare a patch on most ticks of a slow decay.
      meter.level = Math.round(level * 100) / 100;
      meter.state = this.sim.alertOf(observerId);
      touched.add(meter);
    });
    players.forEach((ps) => {
      if (ps.meters.size === 0) return;
      for (const [observerId, meter] of ps.meters) {
        if (!touched.has(meter)) ps.meters.delete(observerId);
      }
    });
  }

  private onRespawn(client: Client, payload: unknown): void {
    const parsed = RespawnMessage.safeParse(payload ?? {});
    if (!parsed.success) {
      this.stats.messagesInvalid++;
      this.sendError(client, ERROR_CODES.messageInvalid, `respawn: ${parsed.error.issues.map((i) => `${i.path.join(".") || "payload"}: ${i.message}`).join("; ")}`);
      return;
    }
    try {
      this.sim.respawn(client.sessionId, parsed.data.spawn);
    } catch (err) {
      this.sendError(client, ERROR_CODES.messageRefused, `respawn: ${(err as Error).message}`);
    }
  }

  /** Sends an `error` message, at most once per code per client per second. */
  private sendError(client: Client, code: string, message: string): void {
    const seat = this.seats.get(client.sessionId);
    const now = this.clock.currentTime;
    if (seat !== undefined) {
      const last = seat.errorSentAt.get(code);
      if (last !== undefined && now - last < 1000) return;
      seat.errorSentAt.set(code, now);
    }
    client.send(SERVER_MESSAGES.error, { code, message: bounded(message) });
  }

  /**
   * Observes the client's raw frames next to Colyseus's own handler, to count what it drops silently
   * (frames with a protocol code clients may not send, text frames), the flood disconnects it makes
   * (the same per-second window and limit as Colyseus's check) and oversized frames.
   */
  private watchFrames(client: Client): void {
    const seat = this.seats.get(client.sessionId);
    if (seat === undefined) return;
    this.probe.watch(client.sessionId, client.ref as unknown as PingableSocket);
    client.ref.on("message", (data: unknown, isBinary?: boolean) => {
      const now = this.clock.currentTime;
      if (now >= seat.framesResetAt) {
        seat.frames = 0;
        seat.framesResetAt = now + 1000;
      } else if (++seat.frames > this.maxMessagesPerSecond && !seat.kicked) {
        seat.kicked = true;
        this.stats.floodDisconnects++;
      }
      const first = data instanceof Uint8Array && data.length > 0 ? data[0]! & 0x1f : -1;
      if (isBinary === false || !CLIENT_PROTOCOL_CODES.has(first)) this.stats.framesGarbage++;
    });
    // The WebSocket layer closes on a frame over maxPayload (the client sees 1009, the server only an
    // abnormal close), so the reason is read from its error.
    client.ref.on("error", (err: { code?: string }) => {
      if (err?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" && !seat.kicked) {
        seat.kicked = true;
        this.stats.oversizedDisconnects++;
      }
    });
  }

}

/** A `StealthRoom` class with some settings changed, for `defineRoom` (e.g. from environment variables). */
export function stealthRoomWith(settings: Partial<StealthRoomSettings>): typeof StealthRoom {
  const merged: StealthRoomSettings = { ...DEFAULT_ROOM_SETTINGS, ...settings };
  return class ConfiguredStealthRoom extends StealthRoom {
    override settings = merged;
  };
}
