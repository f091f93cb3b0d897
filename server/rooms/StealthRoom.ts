import { CloseCode, definePlugins, Room, TimestepException, type Client, type InputAPI, type RoomException, type RoomMethodName } from "@colyseus/core";
import { SightlinePlugin, type RewoundPoses } from "sightline/colyseus";
import { ERROR_CODES, JoinOptions, MoveInput, SERVER_MESSAGES } from "../../shared/protocol.js";
import { PlayerState, StealthState } from "../../shared/schema.js";
import { encodeExplanation } from "../../shared/explanationWire.js";
import type { DetectionEvent } from "sightline";
import { describeIssues } from "../../shared/validation/describeIssues.js";
import { StealthSimulation, type SimFairness } from "../sim/stealthSimulation.js";
import { ExploredTiles } from "./exploredTiles.js";
import { FrameHygiene } from "./frameHygiene.js";
import { GameLoop } from "../loop/gameLoop.js";
import { InputIntake, MOVE_INPUT_OPTIONS } from "./inputIntake.js";
import { JoinTiming } from "../ops/joinTiming.js";
import { LevelMirror } from "./levelMirror.js";
import { registerMessages } from "./messageIntake.js";
import { MapCatalog } from "./mapCatalog.js";
import { Refusal } from "./refusal.js";
import { RoomExceptions } from "./roomExceptions.js";
import { DEFAULT_ROOM_SETTINGS, extraGuardsFor, keepsDoors, keepsFairness, keepsHearing, type StealthRoomSettings } from "./roomSettings.js";
import { RoomStats } from "../ops/roomStats.js";
import { asksToSpectate, Spectators } from "./spectators.js";
import { StateMirror } from "./stateMirror.js";
import { cullingFor, declarePlayer, declareScenery, followTeleports } from "./stealthViews.js";

export { DEFAULT_ROOM_SETTINGS, type StealthRoomSettings } from "./roomSettings.js";

const AFTER_PATCH = Object.freeze({ afterNextPatch: true });
const FOOTSTEPS_HIDDEN = Object.freeze({ whenHidden: true });

/**
 * The `stealth` room: authoritative planck physics on a Tiled map, guards and cameras that look through
 * the vision engine, awareness meters and detection events synced through schema, culled per client by
 * the `sightline/colyseus` plugin. This class keeps lifecycle and wiring; each concern is its own unit.
 *
 * Create options `map` (a map name, default "demo"), `doors` (false: without the map's doors),
 * `hearing` (false: silent footsteps, deaf guards) and `fairness` (false: guards judge on the server's
 * poses alone, not also on what each player's screen showed; see `SeenOnScreen`). Join
 * options `spawn` (a spawn's name) and `team`.
 * Each step (default 20 Hz): inputs (doors and smoke asked for included) -> physics and vision -> bodies,
 * doors and smoke into the schema -> culling -> awareness into the schema; then the patch, and after it
 * the messages that follow state. Doors and smoke clouds are culled entities like the characters. Steps come from
 * a drift-free {@link FixedStepClock} whose phase is spread over all the rooms of the process.
 *
 * Never trusts a client: broken input frames stop the character, unknown or invalid messages are answered
 * with a bounded `error` message, and every rejection is counted in {@link stats}.
 */
export class StealthRoom extends Room<{ state: StealthState; input: MoveInput }> {
  /** Override in a subclass (or use {@link stealthRoomWith}) to change them. */
  settings: StealthRoomSettings = DEFAULT_ROOM_SETTINGS;
  override state = new StealthState();
  /** The input stream, defined in `onCreate`: its tick rate comes from the settings, which a subclass sets. */
  declare inputs: InputAPI<MoveInput>;
  // The fairness mode's pose history is made only when a room asks for it (`shownPoses`).
  override plugins = definePlugins([new SightlinePlugin({ seenOnScreen: {} })]);
  /** Counters and tick timings (see `RoomStats`). */
  readonly stats = new RoomStats();
  /** The simulation (set in `onCreate`). */
  sim!: StealthSimulation;
  /** Clients watching without a character (set in `onCreate`). */
  spectators!: Spectators;
  /** Each player's tile sight and explored memory, synced to its owner (set in `onCreate`). */
  explored!: ExploredTiles;

  private mirror!: StateMirror;
  private level!: LevelMirror;
  private intake!: InputIntake;
  private hygiene!: FrameHygiene;
  private loop: GameLoop | undefined;
  private readonly exceptions = new RoomExceptions("stealth", this.stats);
  private readonly joinTiming = new JoinTiming(this, this.stats);

  /** Who may receive what: the culling plugin. */
  get culling(): StealthRoom["plugins"]["sightline"] {
    return this.plugins.sightline;
  }

  override onCreate(options: { map?: unknown; guards?: unknown; doors?: unknown; hearing?: unknown; fairness?: unknown } = {}): void {
    const s = this.settings;
    const chosen = (s.catalog ?? MapCatalog.bundled()).forOption(options.map);
    const map = keepsDoors(options.doors) ? chosen : { ...chosen, doors: [] };
    this.maxClients = s.maxClients;
    this.maxMessagesPerSecond = s.maxMessagesPerSecond;
    const fairness = keepsFairness(options.fairness) ? fairnessOf(this.plugins.sightline.shownPoses) : undefined;
    this.sim = new StealthSimulation(map, { ...s.simulation, tickRate: s.tickRate, extraGuards: extraGuardsFor(options.guards, map.guards.length, s.maxGuards), hearing: keepsHearing(options.hearing), fairness });
    this.spectators = new Spectators(s.spectatorToken);
    this.explored = new ExploredTiles(map, this.sim.occluders);
    this.mirror = new StateMirror(this.sim, this.state, this.stats);
    this.intake = new InputIntake(this.sim, this.stats, s);
    this.hygiene = new FrameHygiene(this.stats, () => this.now(), () => this.maxMessagesPerSecond);
    this.plugins.sightline.start({ ...cullingFor(this.sim, s.culling, s.cullingEnabled !== false), pingIntervalMs: s.pingIntervalMs, hearing: this.sim.ears.hearing });
    declareScenery(this.plugins.sightline, this.sim, this.state);
    this.level = new LevelMirror(this.sim, this.state, this.plugins.sightline);
    followTeleports(this.plugins.sightline, this.sim);
    this.state.map = map.name;
    void this.setMetadata({ map: map.name });

    registerMessages(this, this.sim, this.spectators, this.hygiene, this.stats);

    // The loop is our FixedStepClock rather than setFixedTimestep, so the input handshake learns the tick
    // rate here, and the patch rate (which the SDK's clock also reads) is one patch per step.
    this.inputs = this.defineInput(MoveInput, { ...MOVE_INPUT_OPTIONS, tickRate: s.tickRate });
    this.patchRate = 1000 / s.tickRate;
    this.loop = new GameLoop(1000 / s.tickRate, () => this.step(), () => this.broadcastPatch(), (part, err) => {
      const cause = err instanceof Error ? err : new Error(String(err));
      this.onUncaughtException(new TimestepException(cause, `game loop ${part} threw: ${cause.message}`), "setFixedTimestep");
    }, this.stats);
    this.loop.start();
  }

  override onJoin(client: Client, options: unknown = {}): void {
    const started = performance.now();
    try {
      this.join(client, options);
    } finally {
      this.joinTiming.joined(client.sessionId, started);
    }
  }

  private join(client: Client, options: unknown): void {
    const sid = client.sessionId;
    if (asksToSpectate(options)) {
      const refusal = this.spectators.refusal(options.spectate, this.now());
      if (refusal !== undefined) throw new Refusal(refusal);
      // Every entity, meters and events included, through the plugin's caster view.
      this.plugins.sightline.spectateAll(client, { ownerFields: true });
      this.spectators.add(client);
      this.sim.vision.setRecordRays(true);
      return;
    }
    const parsed = JoinOptions.safeParse(options ?? {});
    if (!parsed.success) throw new Refusal(`invalid join options: ${describeIssues(parsed.error, "options")}`);
    let player;
    try {
      player = this.sim.addPlayer(sid, { spawn: parsed.data.spawn, team: parsed.data.team });
    } catch (err) {
      throw new Refusal((err as Error).message);
    }
    const ps = new PlayerState();
    const at = player.body.getPosition();
    Object.assign(ps, { x: at.x, y: at.y, team: player.team });
    this.state.players.set(sid, ps);
    this.explored.add(sid, ps);
    this.intake.add(sid);
    this.hygiene.add(sid);
    // The view starts with the character (owner fields too) and its teammates; the culling adds the rest.
    declarePlayer(this.plugins.sightline, this.sim, sid, ps);
    this.plugins.sightline.setCharacter(client, sid);
    this.hygiene.watch(client);
  }

  override onDrop(client: Client, code?: number): void {
    if (!this.state.players.has(client.sessionId)) return; // a spectator, or a join that was refused
    if (code === CloseCode.WITH_ERROR) this.stats.errorDisconnects++;
    this.intake.stop(client.sessionId);
    // A client the server closed for misbehaving does not get its seat held, nor does one of a closing room.
    if (code === CloseCode.WITH_ERROR || this.hygiene.kicked(client.sessionId)) return;
    Promise.resolve(this.allowReconnection(client, this.settings.reconnectSeconds)).catch(() => {});
  }

  override onReconnect(client: Client): void {
    this.hygiene.watch(client);
  }

  override onLeave(client: Client): void {
    const sid = client.sessionId;
    if (this.spectators.remove(sid)) {
      if (this.spectators.count === 0) this.sim.vision.setRecordRays(false);
      return;
    }
    const ps = this.state.players.get(sid);
    if (ps === undefined) return;
    this.plugins.sightline.removeEntity(sid); // every view lets it go before it leaves the state
    this.state.players.delete(sid);
    this.intake.remove(sid);
    this.hygiene.remove(sid);
    this.sim.removePlayer(sid);
    this.explored.remove(sid);
    this.joinTiming.forget(sid);
  }

  override onDispose(): void {
    this.loop?.stop();
    this.explored?.dispose();
    this.sim?.dispose();
  }

  override onUncaughtException(error: RoomException, method: RoomMethodName): void {
    this.exceptions.handle(this.roomId, error, method);
  }

  /** Sends the patch of a firing (counted and timed); Colyseus's own patch interval only moves the room clock. */
  override broadcastPatch(): boolean {
    if (this.loop === undefined) {
      this.clock.tick();
      return false;
    }
    return this.loop.gatePatch(this.clock, () => super.broadcastPatch());
  }

  /**
   * Resolves after the game loop's next firing has run its steps and sent its patch: for tests and tools
   * that pace themselves on the room (it does not use `setFixedTimestep`, so `waitForNextTimestep` does not apply).
   */
  afterNextLoop(): Promise<void> {
    return this.loop?.afterNext() ?? Promise.resolve();
  }

  /** The clock of the room's time rules, ms: `settings.now`, else Colyseus's room clock. */
  private now(): number {
    return this.settings.now?.() ?? this.clock.currentTime;
  }

  /**
   * Each `spotted` of this step explains itself to its player, only while the player's view holds the
   * observer and only as far back as it has held it (what the player could know anyway); spectators get it whole.
   */
  private explain(result: { events: readonly DetectionEvent[] }): void {
    for (const e of result.events) {
      if (e.type !== "spotted" || e.explanation === undefined) continue;
      const since = this.mirror.inViewSince(e.targetId, e.observerId);
      if (since !== undefined) this.clients.getById(e.targetId)?.send(SERVER_MESSAGES.explanation, encodeExplanation(e.explanation, since), AFTER_PATCH);
      if (this.spectators.count > 0) this.spectators.sendAll(SERVER_MESSAGES.explanation, { ...encodeExplanation(e.explanation), target: e.targetId });
    }
  }

  /** One fixed step. */
  private step(): void {
    const started = performance.now();
    this.intake.consume(
      (sid) => this.inputs.get(sid),
      (sid, seq) => { const ps = this.state.players.get(sid); if (ps !== undefined) ps.ack = seq; },
      (sid) => { const c = this.clients.getById(sid); if (c !== undefined) this.hygiene.sendError(c, ERROR_CODES.inputNonFinite, "input frame dropped: moveX, moveY and facing must be finite numbers"); },
    );
    const stepStarted = performance.now();
    const result = this.sim.step();
    const stepMs = performance.now() - stepStarted;
    this.mirror.syncBodies(result);
    this.level.sync(result.doorsToggled);
    this.stats.doorsToggled += result.doorsToggled;
    this.stats.smokesThrown += this.sim.smokes.added.length;
    // Heard after this step's patch, by each client only as its team's ears allow. A client that sees a
    // walker plays its steps from its movement: footsteps go only where the walker is out of view.
    for (const noise of result.noises) this.plugins.sightline.sendNoise(noise, SERVER_MESSAGES.noise, noise.kind === "footstep" ? FOOTSTEPS_HIDDEN : undefined);
    this.stats.noises += result.noises.length;
    const exploredStarted = performance.now();
    this.explored.update(this.sim.players.values());
    this.stats.recordTileVision(performance.now() - exploredStarted, this.explored.recomputes);
    const cullStarted = performance.now();
    this.stats.recordCulling(this.plugins.sightline.update(), this.state.players.size, this.plugins.sightline);
    const cullMs = performance.now() - cullStarted;
    for (const r of this.mirror.syncAwareness(result, this.plugins.sightline)) {
      const by = r.by !== undefined && this.plugins.sightline.has(r.playerId, r.by) ? r.by : undefined;
      this.clients.getById(r.playerId)?.send(SERVER_MESSAGES.round, by === undefined ? { type: r.type } : { type: r.type, by }, AFTER_PATCH);
    }
    this.explain(result);
    this.spectators.afterTick(this.sim.vision.rayLog, this.state, this.plugins.sightline);
    this.stats.rays += result.vision.rays;
    this.stats.stalenessMax = result.vision.staleness.max;
    this.stats.recordTick(performance.now() - started, stepMs, cullMs);
  }
}

/** The simulation's fairness hookup over the plugin's Colyseus `Rewind` history: poses kept each step, snapshot at each patch. */
function fairnessOf(poses: RewoundPoses): SimFairness {
  return { poses, record: (id, x, y, facing) => poses.record(id, x, y, facing) };
}

/** A `StealthRoom` class with some settings changed, for `defineRoom` (e.g. from environment variables). */
export function stealthRoomWith(settings: Partial<StealthRoomSettings>): typeof StealthRoom {
  const merged: StealthRoomSettings = { ...DEFAULT_ROOM_SETTINGS, ...settings };
  return class ConfiguredStealthRoom extends StealthRoom {
    override settings = merged;
  };
}
