import { Room, TimestepException, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import { Vec2, type Body, type World } from "planck";
import { GameLoop } from "../../server/loop/gameLoop.js";
import { InputIntake, MOVE_INPUT_OPTIONS } from "../../server/rooms/inputIntake.js";
import { JoinTiming } from "../../server/ops/joinTiming.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { Refusal } from "../../server/rooms/refusal.js";
import { RoomExceptions } from "../../server/rooms/roomExceptions.js";
import { DEFAULT_ROOM_SETTINGS } from "../../server/rooms/roomSettings.js";
import { RoomStats } from "../../server/ops/roomStats.js";
import { createCharacterBody } from "../../server/sim/characterBody.js";
import { buildMapWorld } from "../../server/sim/mapWorld.js";
import { NavGrid } from "../../server/sim/navGrid.js";
import { PLACEMENT_DEFAULTS, type StealthMap } from "../../server/sim/tiledMap.js";
import { DEFAULT_MOVEMENT_RULES, type Motion } from "../../shared/movement/applyInput.js";
import { JoinOptions, MoveInput, RespawnMessage, SERVER_MESSAGES } from "../../shared/protocol.js";
import { CHARACTER_RADIUS } from "../../shared/gameRules.js";
import { syncedFacing } from "../../shared/syncedFacing.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { describeIssues } from "../../shared/validation/describeIssues.js";
import { describeValue } from "../../shared/validation/rangeChecks.js";
import { PlainNpc, PlainPlayer, PlainState } from "./plainState.js";
import { Wanderers } from "./wanderers.js";

/** NPCs a room gets when its create options name no `guards`: the load test's capacity shape. */
export const DEFAULT_NPCS = 64;
const AFTER_PATCH = Object.freeze({ afterNextPatch: true });

/** Server-side settings of a plain room: the stealth room's rates and limits, and the NPC cap. */
export interface PlainRoomSettings {
  /** Largest `guards` create option accepted (each NPC costs the server CPU). */
  maxNpcs: number;
}

interface PlainCharacter {
  readonly body: Body;
  readonly ps: PlainPlayer;
  spawn: string | undefined;
  vx: number;
  vy: number;
  facing: number;
  crouch: boolean;
}

let roomsCreated = 0;

/**
 * The load test's peer baseline: a Colyseus room of the stealth room's shape (the same maps, planck bodies,
 * tick and patch rate, input stream, join options and game loop) with nothing of sightline in it: no
 * vision, no awareness, no culling, no StateView. Every client receives the whole state; NPCs wander. What
 * it costs is what Colyseus, schema and planck cost for this load by themselves, so the stealth room's cost
 * over it is ours.
 *
 * The rates, limits, input handling and game loop are the stealth room's own units, imported: a faster or
 * slower peer for a reason other than vision and culling would make the comparison say nothing.
 *
 * Never trusts a client: bad options refuse the join, a frame with NaN or Infinity stops the character (the
 * number never reaches planck), and a message handler that throws is counted and the room goes on.
 */
export class PlainRoom extends Room<{ state: PlainState; input: MoveInput }> {
  settings: PlainRoomSettings = { maxNpcs: DEFAULT_NPCS };
  override state = new PlainState();
  override inputs = this.defineInput(MoveInput, { ...MOVE_INPUT_OPTIONS, tickRate: DEFAULT_ROOM_SETTINGS.tickRate });
  readonly stats = new RoomStats();
  map!: StealthMap;
  npcs!: Wanderers;
  /** The movement rule the input intake applies: the stealth room's. */
  readonly movement = DEFAULT_MOVEMENT_RULES;

  private world!: World;
  private exits: Body[] = [];
  private readonly characters = new Map<string, PlainCharacter>();
  private intake!: InputIntake;
  private loop: GameLoop | undefined;
  private nextSpawn = 0;
  private readonly exceptions = new RoomExceptions("plain", this.stats);
  private readonly joinTiming = new JoinTiming(this, this.stats);

  override onCreate(options: { map?: unknown; guards?: unknown } = {}): void {
    const s = DEFAULT_ROOM_SETTINGS;
    this.map = MapCatalog.bundled().forOption(options.map);
    const guards = options.guards ?? DEFAULT_NPCS;
    if (typeof guards !== "number" || !Number.isInteger(guards) || guards < 0 || guards > this.settings.maxNpcs) {
      throw new Refusal(`option "guards" must be an integer from 0 to ${this.settings.maxNpcs} (got ${describeValue(guards)})`);
    }
    this.maxClients = s.maxClients;
    this.maxMessagesPerSecond = s.maxMessagesPerSecond;
    const built = buildMapWorld(this.map);
    this.world = built.world;
    this.exits = built.exits;
    const nav = NavGrid.ofMap(this.map, { world: this.world });
    this.npcs = new Wanderers(this.world, nav, guards, CHARACTER_RADIUS, seededRandom(++roomsCreated));
    for (const w of this.npcs.list) {
      const at = w.body.getPosition();
      const npc = new PlainNpc();
      Object.assign(npc, { x: at.x, y: at.y, facing: syncedFacing(w.facing), fov: PLACEMENT_DEFAULTS.guard.fov * (Math.PI / 180), range: PLACEMENT_DEFAULTS.guard.range });
      this.state.guards.set(w.id, npc);
    }
    this.state.map = this.map.name;
    void this.setMetadata({ map: this.map.name });
    this.intake = new InputIntake(this, this.stats, s);

    this.onMessage("respawn", (client: Client, payload: unknown) => {
      const parsed = RespawnMessage.safeParse(payload ?? {});
      const c = this.characters.get(client.sessionId);
      if (!parsed.success || c === undefined || (parsed.data.spawn !== undefined && !this.map.spawns.some((sp) => sp.name === parsed.data.spawn))) {
        this.stats.messagesInvalid++;
        return;
      }
      if (parsed.data.spawn !== undefined) c.spawn = parsed.data.spawn;
      this.respawn(c);
    });
    this.onMessage("*", () => {
      this.stats.messagesUnknown++;
    });

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
      const parsed = JoinOptions.safeParse(options ?? {});
      if (!parsed.success) throw new Refusal(`invalid join options: ${describeIssues(parsed.error, "options")}`);
      const spawn = this.pickSpawn(parsed.data.spawn);
      const body = createCharacterBody(this.world, "player", spawn.x, spawn.y, CHARACTER_RADIUS);
      const ps = new PlainPlayer();
      Object.assign(ps, { x: spawn.x, y: spawn.y, team: parsed.data.team ?? "infiltrators" });
      this.characters.set(client.sessionId, { body, ps, spawn: parsed.data.spawn, vx: 0, vy: 0, facing: 0, crouch: false });
      this.state.players.set(client.sessionId, ps);
      this.intake.add(client.sessionId);
    } finally {
      this.joinTiming.joined(client.sessionId, started);
    }
  }

  override onLeave(client: Client): void {
    const sid = client.sessionId;
    const c = this.characters.get(sid);
    if (c === undefined) return;
    this.characters.delete(sid);
    this.state.players.delete(sid);
    this.intake.remove(sid);
    this.world.destroyBody(c.body);
    this.joinTiming.forget(sid);
  }

  override onDispose(): void {
    this.loop?.stop();
  }

  override onUncaughtException(error: RoomException, method: RoomMethodName): void {
    this.exceptions.handle(this.roomId, error, method);
  }

  /** Only the game loop's patches go out, as in the stealth room: Colyseus's own interval just moves the clock. */
  override broadcastPatch(): boolean {
    if (this.loop === undefined) {
      this.clock.tick();
      return false;
    }
    return this.loop.gatePatch(this.clock, () => super.broadcastPatch());
  }

  /** The intake's hook: what one applied input frame asks of a character. */
  setMotion(id: string, motion: Motion): void {
    const c = this.characters.get(id);
    if (c === undefined) return;
    c.vx = motion.vx;
    c.vy = motion.vy;
    c.facing = motion.facing;
    c.crouch = motion.crouch;
  }

  /** Resolves after the game loop's next firing has stepped and patched (for tests). */
  afterNextLoop(): Promise<void> {
    return this.loop?.afterNext() ?? Promise.resolve();
  }

  private step(): void {
    const started = performance.now();
    this.intake.consume((sid) => this.inputs.get(sid), (sid, seq) => {
      const c = this.characters.get(sid);
      if (c !== undefined) c.ps.ack = seq;
    }, () => {});
    const stepStarted = performance.now();
    for (const c of this.characters.values()) {
      const v = c.body.getLinearVelocity();
      v.x = c.vx;
      v.y = c.vy;
      c.body.setLinearVelocity(v);
      c.body.setAwake(true);
    }
    this.npcs.steer();
    this.world.step(1 / DEFAULT_ROOM_SETTINGS.tickRate);
    this.checkExits();
    const stepMs = performance.now() - stepStarted;

    const state = this.state;
    state.tick++;
    for (const c of this.characters.values()) {
      const at = c.body.getPosition();
      const ps = c.ps;
      ps.x = at.x;
      ps.y = at.y;
      ps.facing = syncedFacing(c.facing);
      ps.crouch = c.crouch;
    }
    for (const w of this.npcs.list) {
      const npc = state.guards.get(w.id)!;
      const at = w.body.getPosition();
      npc.x = at.x;
      npc.y = at.y;
      npc.facing = syncedFacing(w.facing);
    }
    this.stats.recordTick(performance.now() - started, stepMs);
  }

  /** A player in an exit area escaped: back to a spawn, told after the patch (the bots reset on it). */
  private checkExits(): void {
    for (const [sid, c] of this.characters) {
      const at = c.body.getPosition();
      let escaped = false;
      for (const exit of this.exits) {
        for (let f = exit.getFixtureList(); f !== null && !escaped; f = f.getNext()) escaped = f.testPoint(at);
      }
      if (!escaped) continue;
      c.ps.escapes++;
      this.stats.escapes++;
      this.respawn(c);
      this.clients.getById(sid)?.send(SERVER_MESSAGES.round, { type: "escaped" }, AFTER_PATCH);
    }
  }

  private respawn(c: PlainCharacter): void {
    const spawn = this.pickSpawn(c.spawn);
    c.body.setPosition(Vec2(spawn.x, spawn.y));
    c.body.setLinearVelocity(Vec2(0, 0));
    c.vx = 0;
    c.vy = 0;
  }

  private pickSpawn(name: string | undefined): { x: number; y: number } {
    const spawns = this.map.spawns;
    if (name !== undefined) {
      const s = spawns.find((sp) => sp.name === name);
      if (s === undefined) throw new Refusal(`unknown spawn ${describeValue(name)}; this map has ${spawns.map((sp) => JSON.stringify(sp.name)).join(", ") || "none"}`);
      return s;
    }
    if (spawns.length === 0) return { x: this.map.width / 2, y: this.map.height / 2 };
    return spawns[this.nextSpawn++ % spawns.length]!;
  }
}

/** A `PlainRoom` class with its settings changed, for `defineRoom`. */
export function plainRoomWith(settings: Partial<PlainRoomSettings>): typeof PlainRoom {
  const merged: PlainRoomSettings = { maxNpcs: DEFAULT_NPCS, ...settings };
  return class ConfiguredPlainRoom extends PlainRoom {
    override settings = merged;
  };
}
