import { Vec2, type Body } from "planck";
import { Occluders } from "sightline/occluders";
import { DEFAULT_MOVEMENT_RULES, type MovementRules, type Motion } from "../../shared/movement/applyInput.js";
import { AwarenessModel, SeenOnScreen, VisionSystem, type AwarenessOptions, type DetectionEvent, type ObserverState, type ShownPoses, type VisionOptions } from "sightline";
import { CHARACTER_RADIUS, DISTRACTION, DOOR_REACH, SMOKE, TICK_RATE } from "../../shared/gameRules.js";
import { cameraFacing } from "./cameraSweep.js";
import { createCharacterBody } from "./characterBody.js";
import { DEFAULT_GUARD_RULES, GuardBrain, type GuardRules } from "./guardBrain.js";
import { GuardSensing } from "./guardSensing.js";
import { Doors } from "./doors.js";
import { buildMapWorld, type MapWorld } from "./mapWorld.js";
import { NavGrid } from "./navGrid.js";
import { PatrolRoute } from "./patrolRoute.js";
import { RoomHearing } from "./roomHearing.js";
import { checkRound, raiseAlarm } from "./roundReferee.js";
import { SmokeGrenades } from "./smokeGrenades.js";
import type { StealthMap } from "./tiledMap.js";
import { TravelCap } from "./travelCap.js";
import { wanderingGuardPlacements } from "./wanderingGuards.js";
import type { RoundEvent, SimCamera, SimGuard, SimPlayer, StepResult } from "./simEntities.js";
import { fraction, inRange, integer, nonNegative } from "../../shared/validation/rangeChecks.js";

/** Options of a {@link StealthSimulation}; every field optional. */
export interface SimulationOptions {
  /** Steps per second. Default `TICK_RATE` (20). */
  tickRate?: number;
  vision?: VisionOptions;
  awareness?: AwarenessOptions;
  movement?: MovementRules;
  guards?: Partial<GuardRules>;
  /** Character body radius (players and guards), meters. Default `CHARACTER_RADIUS` (0.35). */
  characterRadius?: number;
  /** Awareness `visibility` of a crouching player, in [0, 1]. Default 0.5 (fills half as fast). */
  crouchVisibility?: number;
  /** Gap between an alerted guard's body and a player's at which the player is caught, meters. Default 0.15. */
  catchReach?: number;
  /** Guards a camera's `spotted` sends to look (the nearest ones). Default 2. */
  camerasAlarmGuards?: number;
  /**
   * Guards to add to the map's own, each patrolling a loop of random reachable spots (see
   * `wanderingGuardPlacements`): rooms with more guards than the map places, e.g. for load tests. Default 0.
   */
  extraGuards?: number;
  /** False: nobody makes a sound and guards are deaf (what hearing costs, for load tests). Default true. */
  hearing?: boolean;
  /**
   * The fairness mode (`SeenOnScreen`): guards' and cameras' sightings count toward a meter below full only
   * if they also hold from where the player's own screen showed the observer. `record` takes each
   * observer's pose every step, before the awareness step. Default off.
   */
  fairness?: SimFairness;
}

/** How the simulation records and rewinds its observers' poses for the fairness mode. */
export interface SimFairness {
  poses: ShownPoses;
  record(id: string, x: number, y: number, facing: number): void;
  /** As `SeenOnScreenOptions.maxRewindMs` (default 350). */
  maxRewindMs?: number;
}

export type { RoundEvent, SimCamera, SimGuard, SimPlayer, StepResult } from "./simEntities.js";

/** Headroom of {@link StealthSimulation.topSpeed} over the fastest configured speed. */
const SPEED_MARGIN = 1.1;

const DEFAULTS = {
  tickRate: TICK_RATE,
  characterRadius: CHARACTER_RADIUS,
  crouchVisibility: 0.5,
  catchReach: 0.15,
  camerasAlarmGuards: 2,
};

/**
 * The authoritative stealth simulation of one room, with no networking: planck physics over a map,
 * player characters moved by intent, guards and cameras that look through the vision engine, awareness
 * meters and detection events, guard behaviour and the round (exit or caught). The Colyseus room feeds it
 * inputs and mirrors it into schema; tests and benchmarks drive it directly.
 *
 * What blocks sight is {@link occluders}, built from the map (walls, solid tiles, doors) and shared with
 * the room's culling and tile field of view: doors opened and shut, smoke thrown, all change it.
 *
 * One {@link step} runs, in order: doors and smoke asked for since the last step, and the clouds' ageing
 * -> movement (player intents and guard commands become velocities) -> `world.step` -> poses into the
 * vision engine (and, with `fairness`, into the pose history) -> scheduler tick -> footsteps and thuds,
 * heard by guards -> awareness -> guard behaviour (guards open the shut doors ahead of them, for the next
 * step) -> round.
 */
export class StealthSimulation {
  readonly map: StealthMap;
  readonly world: MapWorld["world"];
  /** What blocks sight: the map's walls, solid tiles and doors, and the smoke clouds thrown. */
  readonly occluders: Occluders;
  readonly doors: Doors;
  readonly smokes: SmokeGrenades;
  /** Footsteps, thrown distractions, and what the guards hear of them. */
  readonly ears: RoomHearing;
  readonly vision: VisionSystem;
  readonly awareness: AwarenessModel;
  /** The fairness mode's check, when on (its `counts` say what it cost and refused). */
  readonly seenOnScreen: SeenOnScreen | null;
  private readonly fairness: SimFairness | null;
  readonly nav: NavGrid;
  readonly tickRate: number;
  readonly dt: number;
  readonly movement: MovementRules;
  /** The guards' rules (defaults merged with `options.guards`). */
  readonly guardRules: GuardRules;
  readonly characterRadius: number;
  /**
   * The speed no character exceeds, m/s: the fastest configured speed (players walking or crouching,
   * guards patrolling, investigating or pursuing) plus 10%. Walking never reaches it; a collision push
   * that would carry a body farther in one step is cut back to it. The culling sizes what a client is
   * sent ahead of sight on this bound, so it has to hold for every body, pushed or not.
   */
  readonly topSpeed: number;
  readonly guards: SimGuard[] = [];
  readonly cameras: SimCamera[] = [];
  readonly players = new Map<string, SimPlayer>();
  /** Steps taken. */
  tick = 0;
  /**
   * Called with a player's id each time it is put somewhere rather than walked there (a respawn, however
   * close to where it was), after its body moved: whoever tracks motion by speed (the room's culling)
   * must not take it for a walk.
   */
  onTeleport: (id: string) => void = () => {};

  private readonly exits: Body[];
  private readonly crouchVisibility: number;
  private readonly catchReach: number;
  private readonly alarmGuards: number;
  private nextSpawn = 0;
  private readonly round: RoundEvent[] = [];
  private readonly events: DetectionEvent[] = [];
  private readonly sensing: GuardSensing;
  /** Every character's body: players (in join order), then guards. */
  private readonly bodies: Body[] = [];
  private readonly travel = new TravelCap();

  constructor(map: StealthMap, options: SimulationOptions = {}) {
    const o = { ...DEFAULTS, ...options };
    inRange("SimulationOptions.tickRate", o.tickRate, 0, 240, "steps per second", "(]");
    inRange("SimulationOptions.characterRadius", o.characterRadius, 0, 5, "meters", "()");
    fraction("SimulationOptions.crouchVisibility", o.crouchVisibility);
    nonNegative("SimulationOptions.catchReach", o.catchReach, "meters");
    integer("SimulationOptions.camerasAlarmGuards", o.camerasAlarmGuards, 0);
    this.map = map;
    this.tickRate = o.tickRate;
    this.dt = 1 / o.tickRate;
    this.movement = o.movement ?? DEFAULT_MOVEMENT_RULES;
    this.guardRules = { ...DEFAULT_GUARD_RULES, ...options.guards };
    this.characterRadius = o.characterRadius;
    this.crouchVisibility = o.crouchVisibility;
    this.catchReach = o.catchReach;
    this.alarmGuards = o.camerasAlarmGuards;
    const rules = this.guardRules;
    this.topSpeed = SPEED_MARGIN * Math.max(this.movement.walkSpeed, this.movement.crouchSpeed, rules.patrolSpeed, rules.investigateSpeed, rules.pursueSpeed);

    const built = buildMapWorld(map);
    this.world = built.world;
    this.exits = built.exits;
    this.occluders = Occluders.fromLevel(map, { file: map.file });
    this.doors = new Doors(map.doors, built.doors, this.occluders);
    this.smokes = new SmokeGrenades(this.occluders, map);
    this.ears = new RoomHearing(this.occluders, map, options.hearing !== false);
    this.vision = new VisionSystem(this.occluders, options.vision);
    const fair = (this.fairness = options.fairness ?? null);
    this.seenOnScreen = fair === null ? null : new SeenOnScreen(this.vision, fair.poses, { maxRewindMs: fair.maxRewindMs });
    // Every detection explains itself (the room sends it to its player), fairness mode or not.
    this.awareness = new AwarenessModel({ explain: true, ...options.awareness, ...(this.seenOnScreen === null ? {} : { check: this.seenOnScreen }) });
    this.nav = NavGrid.ofMap(map, { world: this.world, clearance: this.characterRadius });
    this.sensing = new GuardSensing(this.vision, this.awareness, this.players);

    const ids = new Set<string>();
    const uniqueId = (kind: string, name: string, objectId: number): string => {
      let id = `${kind}:${name !== "" ? name : objectId}`;
      if (ids.has(id)) id = `${kind}:${name}#${objectId}`;
      ids.add(id);
      return id;
    };
    const extraGuards = options.extraGuards ?? 0;
    const maxObjectId = map.guards.reduce((m, g) => Math.max(m, g.id), 0);
    const placements = extraGuards === 0 ? map.guards : [...map.guards, ...wanderingGuardPlacements(this.nav, extraGuards, 7919, maxObjectId + 1)];
    for (const g of placements) {
      const id = uniqueId("guard", g.name, g.id);
      const body = createCharacterBody(this.world, "guard", g.x, g.y, this.characterRadius);
      const route = new PatrolRoute(g.patrol.length > 0 ? g.patrol : [{ x: g.x, y: g.y }], g.patrolLoop);
      const brain = new GuardBrain(id, route, this.nav, g.facing, options.guards, g.id);
      this.vision.addObserver(id, { position: { x: g.x, y: g.y }, facing: g.facing, fov: g.fov, range: g.range, proximityRadius: 1.5 });
      this.guards.push({ id, placement: g, body, brain, command: { vx: 0, vy: 0, facing: g.facing }, stride: 0 });
      this.bodies.push(body);
    }
    for (const c of map.cameras) {
      const id = uniqueId("camera", c.name, c.id);
      this.vision.addObserver(id, { position: { x: c.x, y: c.y }, facing: c.facing, fov: c.fov, range: c.range });
      this.cameras.push({ id, placement: c, facing: c.facing });
    }
    // The history starts with the map's poses: a room declares what it rewinds before anyone joins.
    this.recordPoses();
  }

  /**
   * Adds a player character at the named spawn (round-robin when omitted). Throws a RangeError for an
   * unknown spawn or a duplicate id.
   */
  addPlayer(id: string, options: { spawn?: string | undefined; team?: string | undefined } = {}): SimPlayer {
    if (this.players.has(id)) throw new RangeError(`player ${JSON.stringify(id)} already exists`);
    const spawn = this.pickSpawn(options.spawn);
    const body = createCharacterBody(this.world, "player", spawn.x, spawn.y, this.characterRadius);
    const player: SimPlayer = { id, body, team: options.team ?? "infiltrators", spawn: options.spawn, facing: 0, crouch: false, vx: 0, vy: 0, caught: 0, escapes: 0, smokes: SMOKE.grenades, distractions: DISTRACTION.count, stride: 0 };
    this.players.set(id, player);
    // Players first, in join order, then guards: the order the travel cap records them in.
    this.bodies.splice(this.players.size - 1, 0, body);
    this.vision.addObservable(id, { position: { x: spawn.x, y: spawn.y }, radius: this.characterRadius });
    return player;
  }

  /** Removes a player character and every meter about it. Unknown ids are ignored. */
  removePlayer(id: string): void {
    const p = this.players.get(id);
    if (p === undefined) return;
    this.players.delete(id);
    this.bodies.splice(this.bodies.indexOf(p.body), 1);
    this.smokes.forget(p);
    this.ears.forget(p);
    this.vision.remove(id);
    this.awareness.remove(id);
    this.world.destroyBody(p.body);
  }

  /**
   * A player asks to open or shut a door (its Tiled object id), done at the start of the next step. Throws
   * a RangeError saying why when it may not: an unknown door, out of reach (`DOOR_REACH`), or someone in
   * the doorway of a door it would shut.
   */
  requestDoor(id: string, objectId: number, open: boolean): void {
    const p = this.players.get(id);
    if (p === undefined) throw new RangeError(`player ${JSON.stringify(id)} is not in the room`);
    const at = p.body.getPosition();
    this.doors.request(objectId, open, at.x, at.y, DOOR_REACH, this.bodies, this.characterRadius);
  }

  /**
   * A player throws a smoke grenade to (x, y), meters, landing at the start of the next step. Throws a
   * RangeError saying why when it may not: none left, beyond `SMOKE.throwRange`, or off the map.
   */
  throwSmoke(id: string, x: number, y: number): void {
    const p = this.players.get(id);
    if (p === undefined) throw new RangeError(`player ${JSON.stringify(id)} is not in the room`);
    this.smokes.request(p, x, y);
  }

  /**
   * A player throws a distraction to (x, y), meters: a thud there at the next step that guards in earshot
   * go and look at. Throws a RangeError saying why when it may not: none left, too far, off the map.
   */
  throwDistraction(id: string, x: number, y: number): void {
    const p = this.players.get(id);
    if (p === undefined) throw new RangeError(`player ${JSON.stringify(id)} is not in the room`);
    this.ears.request(p, x, y);
  }

  /** Sets what a player's character does from now on (one applied input frame; see `applyInput`). */
  setMotion(id: string, motion: Motion): void {
    const p = this.players.get(id);
    if (p === undefined) return;
    p.vx = motion.vx;
    p.vy = motion.vy;
    p.facing = motion.facing;
    p.crouch = motion.crouch;
  }

  /**
   * Sends a player back to a spawn, at rest: the named one, else the one it joined at, else the next in
   * round-robin. Throws a RangeError for an unknown spawn name.
   */
  respawn(id: string, spawnName?: string): void {
    const p = this.players.get(id);
    if (p === undefined) return;
    const spawn = this.pickSpawn(spawnName ?? p.spawn);
    if (spawnName !== undefined) p.spawn = spawnName;
    p.body.setPosition(Vec2(spawn.x, spawn.y));
    p.body.setLinearVelocity(Vec2(0, 0));
    p.vx = 0;
    p.vy = 0;
    p.smokes = SMOKE.grenades;
    p.distractions = DISTRACTION.count;
    this.onTeleport(id);
  }

  /** Advances one tick (1 / tickRate seconds). */
  step(): StepResult {
    const dt = this.dt;
    this.tick++;

    // 0. Doors and smoke asked for since the last step, then the clouds' ageing: sight changes here only.
    const doorsToggled = this.doors.apply(this.bodies, this.characterRadius);
    this.smokes.apply(dt);

    // 1. Movement: velocities straight from intent (top-down characters have no momentum to speak of).
    for (const p of this.players.values()) {
      const v = p.body.getLinearVelocity();
      v.x = p.vx;
      v.y = p.vy;
      p.body.setLinearVelocity(v);
      p.body.setAwake(true);
    }
    for (const g of this.guards) {
      const v = g.body.getLinearVelocity();
      v.x = g.command.vx;
      v.y = g.command.vy;
      g.body.setLinearVelocity(v);
      g.body.setAwake(true);
    }

    // 2. Physics, then the speed limit: a push may not carry a body past what the culling assumes.
    this.travel.record(this.bodies);
    this.world.step(dt);
    this.travel.cap(this.bodies, this.topSpeed * dt);

    // 3. Poses into the vision engine.
    for (const p of this.players.values()) {
      const at = p.body.getPosition();
      this.vision.moveObservable(p.id, at.x, at.y);
    }
    for (const g of this.guards) {
      const at = g.body.getPosition();
      this.vision.moveObserver(g.id, at.x, at.y, g.brain.facing);
    }
    const time = this.tick * dt;
    for (const c of this.cameras) {
      c.facing = cameraFacing(c.placement, time);
      this.vision.moveObserver(c.id, c.placement.x, c.placement.y, c.facing);
    }
    this.recordPoses();

    // 4. The scheduler's slice of sight rays; footsteps and thuds, and who among the guards hears them.
    const vision = this.vision.tick();
    this.ears.step(this.players.values(), this.guards, dt);

    // 5. Awareness, with crouching players harder to notice, by sight and by ear.
    const sightings = this.vision.sightings();
    for (const s of sightings) {
      const p = this.players.get(s.targetId);
      s.visibility = p !== undefined && p.crouch ? this.crouchVisibility : 1;
    }
    const events = this.events;
    events.length = 0;
    for (const e of this.awareness.step(this.tick, dt, sightings, this.ears.heard)) events.push(e);

    // 6. Behaviour: cameras raise alarms, guards decide their next step.
    for (const e of events) if (e.type === "spotted" && e.observerId.startsWith("camera:")) raiseAlarm(this.guards, e.position, this.alarmGuards);
    for (const g of this.guards) {
      const at = g.body.getPosition();
      g.brain.think(dt, at.x, at.y, this.sensing.of(g.id), g.command);
      this.doors.openAhead(at.x, at.y, g.command.vx, g.command.vy, DOOR_REACH);
    }

    // 7. Round: exits and captures.
    this.round.length = 0;
    checkRound(this, 2 * this.characterRadius + this.catchReach, this.exits, this.round, this.events);
    return { tick: this.tick, vision, events, round: this.round, doorsToggled, noises: this.ears.noises };
  }

  /** With the fairness mode, where every guard and camera is now, into the pose history. */
  private recordPoses(): void {
    const fair = this.fairness;
    if (fair === null) return;
    for (const g of this.guards) {
      const at = g.body.getPosition();
      fair.record(g.id, at.x, at.y, g.brain.facing);
    }
    for (const c of this.cameras) fair.record(c.id, c.placement.x, c.placement.y, c.facing);
  }

  /** The awareness state of a guard or camera ("idle" for unknown ids). */
  alertOf(observerId: string): ObserverState {
    return this.awareness.state(observerId);
  }

  /** Releases the world's listeners. The simulation must not be used after. */
  dispose(): void {
    this.vision.dispose();
  }

  private pickSpawn(name: string | undefined): { x: number; y: number } {
    const spawns = this.map.spawns;
    if (name !== undefined) {
      const s = spawns.find((sp) => sp.name === name);
      if (s === undefined) throw new RangeError(`unknown spawn ${JSON.stringify(name)}; this map has ${spawns.map((sp) => JSON.stringify(sp.name)).join(", ") || "none"}`);
      return s;
    }
    if (spawns.length === 0) return { x: this.map.width / 2, y: this.map.height / 2 };
    return spawns[this.nextSpawn++ % spawns.length]!;
  }
}
