import type { Room } from "@colyseus/sdk";
import type { RecordableHistogram } from "node:perf_hooks";
import { applyInput, DEFAULT_MOVEMENT_RULES, type Motion } from "../shared/movement/applyInput.js";
import { seededRandom } from "../shared/seededRandom.js";
import { BotBehaviour, type BotKind } from "./botBehaviour.js";
import type { DoorsInView } from "./botDoors.js";
import { BotGait, type GaitTally } from "./botGait.js";
import { BotLevelPlay, type PlaySight } from "./botLevelPlay.js";
import type { ErrorTally } from "./errorTally.js";
import { countRefusal, refusedPlay, type LevelPlay, type LevelPlayTally } from "./levelPlay.js";
import { MeteredClient, type Traffic } from "./meteredClient.js";
import { servedLocally } from "./servingHost.js";
import type { PublicLevel } from "./publicMap.js";

/** What every bot of a run shares. */
export interface BotContext {
  /** Where bots matchmake: bot i goes through endpoint i mod their number (several with several processes). */
  endpoints: string[];
  roomName: string;
  level: PublicLevel;
  traffic: Traffic;
  errors: ErrorTally;
  /** Round trips, microseconds; recorded only while `measuring`. */
  roundTrips: RecordableHistogram;
  measuring: boolean;
  /** Seconds per input frame (the room's tick). */
  tickSeconds: number;
  /**
   * How far from its own character a decoding bot may hold anything, meters (the server's culling range
   * plus slack), or undefined when unknown or culling is off: no check then.
   */
  holdLimit: number | undefined;
  /** Sums over decoding bots' checks. */
  views: ViewTally;
  /** Frames the bots sent (input frames, pings, door, smoke and distraction requests, leaves). */
  sent: { frames: number };
  /** How bots use doors, smoke grenades and distractions; undefined with `--level-play off` (they never ask for any). */
  levelPlay: LevelPlay | undefined;
  /** What they asked of doors, smoke and distractions, and what the room refused. */
  play: LevelPlayTally;
  /** The bots' input frames by gait (as the room's ears would tell it with nothing in the way). */
  gaits: GaitTally;
  /** `noise` messages the bots received, and the noises in them (each message an array of what was heard). */
  heard: { messages: number; noises: number };
  /**
   * Join round trips into existing rooms (matchmaking request to joined room), ms, by whether the room was on the process
   * the bot matchmade through (`local`) or on another one (`cross`, with several processes).
   */
  joins: { local: number[]; cross: number[] };
}

/** What decoding bots found in their state. */
export interface ViewTally {
  /** Checks made (one bot, one moment). */
  checks: number;
  /** Entities held, summed over checks (divide by checks for the mean view). */
  entitiesHeld: number;
  /** Entities (not teammates) held farther from the bot than `holdLimit`: leaks a client can see for itself. */
  farLeaks: number;
  /** The first few of them, described. */
  farLeakExamples: string[];
}

/** The part of the decoded state a bot reads (the SDK builds the classes from the server's reflection). */
interface Positioned {
  x: number;
  y: number;
}
interface DecodedPlayer extends Positioned {
  team: string;
  /** Owner-only: grenades and distractions left, and each guard's or camera's awareness of the character. */
  smokes?: number;
  distractions?: number;
  meters?: ReadonlyMap<string, { state: string }>;
}
interface DecodedState {
  players?: ReadonlyMap<string, DecodedPlayer>;
  guards?: ReadonlyMap<string, Positioned>;
  cameras?: ReadonlyMap<string, Positioned>;
  doors?: DoorsInView;
}
interface InputFrame {
  data: { seq: number; moveX: number; moveY: number; facing: number; crouch: boolean };
  send(): number;
}

export type BotPhase = "new" | "joining" | "in" | "leaving" | "left" | "failed";

/** Ticks between a decoding bot's checks of what it holds. */
const CHECK_EVERY_TICKS = 10;
/** A blunderer walks at a guard it holds within this distance, meters. */
const BLUNDER_DISTANCE = 10;
const PING_TIMEOUT_MS = 5000;
/** Most steps one frame stands for in a thin bot's reckoning: the frame's own and the room's hold after it (5). */
const RECKON_HOLD_STEPS = 6;
/** A move between two view checks longer than walking allows (0.5 s at 3.5 m/s): a respawn. */
const TELEPORT_DISTANCE = 4;
/** How long view checks wait after a respawn: the linger (0.25 s) and the patch on its way, with margin. */
const RESPAWN_GRACE_MS = 1000;

/**
 * One simulated player: joins a room over the real SDK, sends an input frame per tick steered by its
 * {@link BotBehaviour}, pings about once a second for the round trip, and leaves with a consented leave.
 *
 * A decoding bot steers from its own decoded position and checks what it holds; a thin bot never decodes
 * (see `MeteredClient`) and steers by dead reckoning: it integrates its own intent with the room's
 * movement rule (`applyInput`), moving only where the nav grid is walkable, and snaps back to its spawn
 * when a `round` message says it was caught or escaped. Other bodies push it off its reckoning a little,
 * which matters for where it walks, not for the load it makes.
 */
export class Bot {
  phase: BotPhase = "new";
  /**
   * Which of the run's endpoints this bot matchmakes through (modulo their number; its index when unset).
   * The run alternates it within each room, so with several processes some joins always cross.
   */
  via: number | undefined;
  room: Room | undefined;
  /** The room it joined (or created). */
  roomId: string | undefined;
  private input: InputFrame | undefined;
  private readonly behaviour: BotBehaviour;
  /** How hard it pushes the stick: a run mostly, a walk in spells. */
  private readonly gait: BotGait;
  /** Its doors, grenades and distractions; undefined with level play off. */
  private readonly play: BotLevelPlay | undefined;
  /** What a decoding bot's level play sees, refreshed every tick (one object, not one a tick). */
  private readonly sight: PlaySight = { sessionId: "", me: undefined, doors: undefined, players: undefined, guards: undefined };
  private readonly motion: Motion = { vx: 0, vy: 0, facing: 0, crouch: false };
  private seq = 0;
  private x: number;
  private y: number;
  private ticks = 0;
  /** When the thin bot last reckoned its position (ms, the tick clock), -1 before the first frame. */
  private reckonedAt = -1;
  private nextPingAt = 0;
  private pingSentAt = -1;
  private readonly guardSeen = { x: 0, y: 0 };
  private readonly teamScratch: Positioned[] = [];
  /** Where the last view check found the bot, and until when checks wait after a respawn (ms). */
  private checkedX = NaN;
  private checkedY = NaN;
  private checksResumeAt = 0;

  /**
   * @param index the bot's number in the run (names its team)
   * @param spawn the spawn it joins at (its dead reckoning starts there)
   */
  constructor(
    readonly index: number,
    readonly kind: BotKind,
    readonly decodes: boolean,
    readonly team: string,
    readonly spawn: { name: string; x: number; y: number },
    private readonly ctx: BotContext,
    private readonly random: () => number,
  ) {
    this.behaviour = new BotBehaviour(kind, ctx.level.nav, ctx.level.map, random, ctx.tickSeconds);
    this.x = spawn.x;
    this.y = spawn.y;
    // Drawn whether or not the bot plays the level: turning level play off leaves the bot's other draws as they were.
    const playRandom = seededRandom(Math.floor(random() * 2 ** 31));
    // Its pace from a stream of its own too: the paths, stops and stance above draw as they did without it.
    this.gait = new BotGait(seededRandom(Math.floor(random() * 2 ** 31)), ctx.tickSeconds);
    if (ctx.levelPlay !== undefined) {
      const nav = ctx.level.nav;
      this.play = new BotLevelPlay(ctx.levelPlay, playRandom, decodes, ctx.tickSeconds, ctx.level.map, (type, payload) => {
        this.room?.send(type, payload);
        ctx.sent.frames++;
      }, ctx.play, (x, y) => nav.isFree(x, y));
    }
  }

  /** Whether this bot shuts doors behind it (a seeded share of bots do, with level play on). */
  get shutsDoors(): boolean {
    return this.play?.shutsDoors === true;
  }

  /** Sends the bot to `goal` (meters) from where it is now, as if it had picked that goal itself. */
  headFor(goal: { x: number; y: number }): void {
    this.behaviour.headFor(this.x, this.y, goal);
  }

  /**
   * Joins: creates a room (with `createOptions`) when `roomId` is undefined, else joins that one. Rejects
   * with the server's reason when the join fails.
   */
  async join(roomId: string | undefined, createOptions: Record<string, unknown>): Promise<void> {
    this.phase = "joining";
    const endpoint = this.ctx.endpoints[(this.via ?? this.index) % this.ctx.endpoints.length]!;
    const client = new MeteredClient(endpoint, this.ctx.traffic, !this.decodes);
    const options = { spawn: this.spawn.name, team: this.team };
    const asked = performance.now();
    try {
      this.room = roomId === undefined
        ? await client.create(this.ctx.roomName, { ...createOptions, ...options })
        : await client.joinById(roomId, options);
    } catch (err) {
      this.phase = "failed";
      throw err;
    }
    const room = this.room;
    this.roomId = room.roomId;
    // Joins only: a create also builds the room, which is not what a player joining waits for.
    if (roomId !== undefined) (servedLocally(room, endpoint) ? this.ctx.joins.local : this.ctx.joins.cross).push(performance.now() - asked);
    // A dropped socket is an error here, not something to paper over with the SDK's reconnection.
    room.reconnection.enabled = false;
    this.input = room.input({ mode: "reliable" }) as unknown as InputFrame;
    room.onMessage("round", () => this.backToSpawn());
    // What the character's team heard after each patch (rooms with hearing): counted, and so handled.
    room.onMessage("noise", (batch: unknown) => this.onNoise(batch));
    room.onMessage("explanation", () => {}); // why a guard spotted it: a page shows it; unhandled, the SDK warned on each
    room.onMessage("error", (e: { code?: string; message?: string }) => this.onError(e));
    room.onError((code, message) => this.ctx.errors.add("roomError", `bot ${this.index}: ${code} ${message ?? ""}`));
    room.onLeave((code) => {
      if (this.phase === "in") this.ctx.errors.add("dropped", `bot ${this.index} closed by the server with code ${code}`);
      this.phase = "left";
    });
    this.nextPingAt = performance.now() + this.random() * 1000;
    this.phase = "in";
  }

  /** One input frame (call at the room's tick rate), plus a ping when one is due. */
  tick(now: number): void {
    if (this.phase !== "in" || this.room === undefined || this.input === undefined) return;
    let guard: { x: number; y: number } | undefined;
    if (this.decodes) {
      const state = this.room.state as DecodedState | undefined;
      const me = state?.players?.get(this.room.sessionId);
      if (me === undefined) return; // not in the first patch yet
      this.x = me.x;
      this.y = me.y;
      if (this.behaviour.kind === "blunderer") guard = this.nearestGuard(state!);
      if (++this.ticks % CHECK_EVERY_TICKS === 0) this.checkView(state!, me.team, now);
      const sight = this.sight;
      sight.sessionId = this.room.sessionId;
      sight.me = me;
      sight.doors = state!.doors;
      sight.players = state!.players;
      sight.guards = state!.guards;
    }
    let intent = this.behaviour.steer(this.x, this.y, guard);
    if (this.play !== undefined) intent = this.play.steer(intent, this.x, this.y, this.behaviour, this.decodes ? this.sight : undefined, now);
    this.ctx.gaits[this.gait.pace(intent)]++;
    const data = this.input.data;
    data.seq = ++this.seq;
    data.moveX = intent.moveX;
    data.moveY = intent.moveY;
    data.facing = intent.facing;
    data.crouch = intent.crouch;
    this.input.send();
    this.ctx.sent.frames++;
    if (!this.decodes) this.reckon(intent, now);
    this.ping(now);
  }

  /** A consented leave; resolves when the server confirms it (or after 10 s, counted as an error). */
  async leave(): Promise<void> {
    if (this.phase !== "in" || this.room === undefined) return;
    this.phase = "leaving";
    const room = this.room;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), 10_000)));
    this.ctx.sent.frames++;
    const outcome = await Promise.race([room.leave(true).then(() => "left" as const), timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      this.ctx.errors.add("leaveTimeout", `bot ${this.index}: no leave confirmation in 10 s`);
      room.connection.close();
    }
    this.phase = "left";
  }

  private ping(now: number): void {
    const room = this.room!;
    if (this.pingSentAt >= 0) {
      if (now - this.pingSentAt > PING_TIMEOUT_MS) {
        this.ctx.errors.add("pingTimeout", `bot ${this.index}: no pong in ${PING_TIMEOUT_MS} ms`);
        this.pingSentAt = -1;
      }
      return;
    }
    if (now < this.nextPingAt) return;
    const sentAt = performance.now();
    this.pingSentAt = sentAt;
    this.ctx.sent.frames++;
    // The SDK's ping rounds to whole ms; loopback round trips are well under one, so time it here.
    room.ping(() => {
      const rtt = performance.now() - sentAt;
      this.pingSentAt = -1;
      if (this.ctx.measuring) this.ctx.roundTrips.record(Math.max(1, Math.round(rtt * 1000)));
    });
    this.nextPingAt = now + 800 + this.random() * 400;
  }

  /**
   * Thin bots: where the server will have moved the character with this intent, walls considered. By the
   * time since the last frame, not one step a frame: a bot whose loop runs late (a loaded machine) sends
   * fewer frames than the room steps, and the room keeps applying the last one (up to its hold of 5 steps),
   * so the character walks ahead of a frame count.
   */
  private reckon(intent: { moveX: number; moveY: number; facing: number; crouch: boolean }, now: number): void {
    const step = this.ctx.tickSeconds;
    const seconds = this.reckonedAt < 0 ? step : Math.min(Math.max(step, (now - this.reckonedAt) / 1000), RECKON_HOLD_STEPS * step);
    this.reckonedAt = now;
    if (!applyInput(intent, this.motion, DEFAULT_MOVEMENT_RULES)) return;
    const nx = this.x + this.motion.vx * seconds;
    const ny = this.y + this.motion.vy * seconds;
    if (this.ctx.level.nav.walkable(this.x, this.y, nx, ny) && this.play?.blocks(this.x, this.y, nx, ny) !== true) {
      this.x = nx;
      this.y = ny;
    }
  }

  private backToSpawn(): void {
    this.checksResumeAt = performance.now() + RESPAWN_GRACE_MS;
    this.x = this.spawn.x;
    this.y = this.spawn.y;
    this.behaviour.reset();
    this.play?.respawned();
  }

  /** A `noise` message: an array of what the team heard (`HeardNoiseMessage`); anything else is the server's fault. */
  private onNoise(batch: unknown): void {
    if (!Array.isArray(batch)) {
      this.ctx.errors.add("badMessage", `bot ${this.index}: a noise message that is not an array (${typeof batch})`);
      return;
    }
    this.ctx.heard.messages++;
    this.ctx.heard.noises += batch.length;
  }

  /**
   * The room's `error` message. A door, grenade or distraction it turns down is part of playing (counted,
   * not an error); anything else means the bot sent what it must not.
   */
  private onError(e: { code?: string; message?: string } | undefined): void {
    const refused = refusedPlay(e);
    if (refused === undefined) {
      this.ctx.errors.add("serverError", `bot ${this.index}: ${e?.code} ${e?.message}`);
      return;
    }
    countRefusal(this.ctx.play, refused, `bot ${this.index}: ${e!.message}`);
    this.play?.refused(refused, e!.message!);
  }

  private nearestGuard(state: DecodedState): { x: number; y: number } | undefined {
    let best = BLUNDER_DISTANCE * BLUNDER_DISTANCE;
    let found = false;
    state.guards?.forEach((g) => {
      const d = (g.x - this.x) ** 2 + (g.y - this.y) ** 2;
      if (d < best) {
        best = d;
        found = true;
        this.guardSeen.x = g.x;
        this.guardSeen.y = g.y;
      }
    });
    return found ? this.guardSeen : undefined;
  }

  /**
   * Counts what the bot holds, and anything held farther from every member of its team (teammates share
   * vision, and are always in view) than culling could ever allow.
   */
  private checkView(state: DecodedState, team: string, now: number): void {
    // Sent back to a spawn: what it held at the old spot may linger a few ticks, as culling allows.
    const jumped = (this.x - this.checkedX) ** 2 + (this.y - this.checkedY) ** 2 > TELEPORT_DISTANCE ** 2;
    this.checkedX = this.x;
    this.checkedY = this.y;
    if (jumped) this.checksResumeAt = Math.max(this.checksResumeAt, now + RESPAWN_GRACE_MS);
    if (now < this.checksResumeAt) return;
    const views = this.ctx.views;
    const limit = this.ctx.holdLimit;
    const members = this.teamScratch;
    members.length = 0;
    state.players?.forEach((p) => {
      if (p.team === team) members.push(p);
    });
    const check = (e: Positioned, id: string) => {
      held++;
      if (limit === undefined) return;
      for (const m of members) if ((e.x - m.x) ** 2 + (e.y - m.y) ** 2 <= limit * limit) return;
      views.farLeaks++;
      if (views.farLeakExamples.length < 5) {
        views.farLeakExamples.push(`bot ${this.index} at (${this.x.toFixed(1)}, ${this.y.toFixed(1)}) holds ${id} at (${e.x.toFixed(1)}, ${e.y.toFixed(1)}), over ${limit} m from its team`);
      }
    };
    let held = 0;
    state.players?.forEach((p, id) => {
      if (p.team === team) held++;
      else check(p, id);
    });
    state.guards?.forEach(check);
    state.cameras?.forEach(check);
    views.checks++;
    views.entitiesHeld += held;
  }
}
