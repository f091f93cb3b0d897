/**
 * The hearing bench's compound room, buildable with hearing on or off, stepped one tick at a time by the
 * bench's interleaved loop (hearing.ts), which times it; its other room is in visionHearingRoom.ts. Kept
 * apart from the loop so the test can look at the very objects the bench measures.
 *
 * {@link CompoundRoom}: the load test's room shape on the compound map (25 players, 64 guards), a room
 * tick being what the demo room does each step without the network: the simulation step, the culling
 * update, and the noises delivered (who hears each, each client's message, encoded as the plugin encodes
 * them). The sound audit checks every delivery, timed apart.
 */
import { getMessageBytes, Protocol } from "@colyseus/core";
import { checkNoise, Hearing, type Earshot, type Noise } from "sightline";
import { madeAtEmitter, NoiseDelivery, SoundAudit, ViewCulling, type AuditCounts, type HeardNoiseMessage, type NoiseListener } from "sightline/culling";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { FOOTSTEPS, PLAYER_SIGHT_RANGE } from "../../shared/gameRules.js";
import { SERVER_MESSAGES } from "../../shared/protocol.js";
import { seededRandom } from "../../shared/seededRandom.js";

// --- the compound room ------------------------------------------------------------------------------

/**
 * The load test's compound room: 25 players, 64 guards (the map's own plus wanderers), each player a team
 * of its own by default (the load test's `--team-size 1`). `team`: the demo's own, for players all of one team.
 */
export const COMPOUND = { map: "compound", players: 25, guards: 64, teamSize: 1, team: "infiltrators" } as const;

/** Seeds: the walks, the clients' round trips. The same for both variants, so the rooms start alike. */
const WALK_SEED = 7;
const ROUND_TRIP_SEED = 11;

/** What one {@link CompoundRoom.tick} cost, ms, by part. */
export interface RoomTickMs {
  step: number;
  culling: number;
  delivery: number;
}

/** Cumulative counts of a {@link CompoundRoom}. */
export interface CompoundCounts {
  /** Noises made (footsteps and thuds), and every character's footsteps by gait (loudness). */
  noises: number;
  run: number;
  walk: number;
  crouch: number;
  /** Guards that heard a player's noise (the awareness model's `heard` entries). */
  heard: number;
  /** Detection events, and of those the ones hearing fed. */
  events: number;
  hearingEvents: number;
  /** Deliveries (one noise to one client), and those naming the emitter. */
  deliveries: number;
  named: number;
  /** Noise messages sent (one per client per tick that heard something) and their bytes. */
  messages: number;
  bytes: number;
  /** Captures and escapes (both respawn the player). */
  respawns: number;
  /**
   * Deliveries whose listener heard the noise around a wall rather than in a straight line (found by the
   * audit, untimed, asking a `Hearing` of its own): proof the bent ways reach the clients.
   */
  bentDeliveries: number;
}

/** A delivery waiting for the audit: the audit runs after the timed tick, on the same state. */
interface Delivered {
  client: string;
  noise: Noise;
  message: HeardNoiseMessage;
  holdsEmitter: boolean;
}

/**
 * The load test's room on the compound map without the network: the simulation (its `hearing` option on
 * or off), a `ViewCulling` over the simulation's occluders as the demo room's plugin keeps one (players
 * as characters, one client each; guards and cameras as entities with their sight ranges),
 * and the noise delivery as the demo room's `sendNoise` calls make the plugin do it: each noise checked,
 * copied and queued, then after the culling update, per noise, `NoiseDelivery.hear` over the characters
 * and, if any team heard it, `messageFor` per client (naming the emitter when the client's view holds it),
 * per client one array of what it heard, encoded as the plugin's `enqueueRaw` payload
 * (`getMessageBytes.raw`). As there, a noise is not told to the emitter's own team (no `toEmitterTeam`),
 * and footsteps go `whenHidden` (only to clients whose view lacks the walker): with teams of 1 (the
 * default) players are told of the guards and other players they cannot see; all of one team, only of
 * guards (hardly ever: a guard near enough to hear is nearly always in the team's view). `hear` runs for
 * every noise, as the plugin runs it. Players walk at random, every gait.
 */
export class CompoundRoom {
  readonly sim: StealthSimulation;
  readonly culling: ViewCulling;
  readonly delivery: NoiseDelivery;
  readonly players: string[] = [];
  readonly counts: CompoundCounts = { noises: 0, run: 0, walk: 0, crouch: 0, heard: 0, events: 0, hearingEvents: 0, deliveries: 0, named: 0, messages: 0, bytes: 0, respawns: 0, bentDeliveries: 0 };
  /** The sound audit's counts (`soundLeaks`, `soundsAudited`) and what it found. */
  readonly auditCounts: AuditCounts = { leaks: 0, popIns: 0, misses: 0, clientTicks: 0, excused: 0, truthChecks: 0, oracleChecks: 0, sends: 0, soundLeaks: 0, soundsAudited: 0 };
  readonly auditFailures: string[] = [];
  private readonly audit: SoundAudit;
  /** The audit's own ears: asking the room's `Hearing` would change its field cache's figures. */
  private readonly probe: Hearing;
  private readonly probeEar: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  private readonly listeners: { id: string; team: string; x: number; y: number }[] = [];
  /** Each player's team, and each team's characters (the ears the audit checks a delivery against). */
  private readonly teamOf = new Map<string, string>();
  private readonly earsOf = new Map<string, { x: number; y: number }[]>();
  private readonly teleported = new Set<string>();
  private readonly queue: Noise[] = [];
  private readonly batches = new Map<string, HeardNoiseMessage[]>();
  private readonly delivered: Delivered[] = [];
  /** Where each character is as the culling last had it: a noise's spot is told only near its emitter. */
  private readonly where = new Map<string, { x: number; y: number }>();
  private readonly walkRandom = seededRandom(WALK_SEED);

  /**
   * @param hearing the simulation's `hearing` option
   * @param teamSize players per team: 1 (the load test's free-for-all) by default; 25 or more puts them
   *   all on the demo's one team
   */
  constructor(readonly hearing: boolean, readonly teamSize: number = COMPOUND.teamSize) {
    const map = MapCatalog.bundled().get(COMPOUND.map)!;
    const sim = (this.sim = new StealthSimulation(map, { extraGuards: COMPOUND.guards - map.guards.length, hearing }));
    // As the demo room's plugin: culling over the simulation's occluders, its step, its top speed.
    this.culling = new ViewCulling({ occluders: sim.occluders, tickSeconds: sim.dt, maxSpeed: sim.topSpeed, range: PLAYER_SIGHT_RANGE });
    // The room gives its plugin the simulation's Hearing: the guards' ears and the clients' are one.
    this.delivery = new NoiseDelivery(sim.ears.hearing);
    this.audit = new SoundAudit(sim.occluders, this.auditCounts, this.auditFailures, 1);
    this.probe = new Hearing(sim.occluders);
    for (const g of sim.guards) {
      const at = g.body.getPosition();
      this.culling.addEntity(g.id, { x: at.x, y: at.y, radius: sim.characterRadius, sightRange: g.placement.range });
    }
    for (const c of sim.cameras) this.culling.addEntity(c.id, { x: c.placement.x, y: c.placement.y, radius: 0.25, sightRange: c.placement.range });
    const rtt = seededRandom(ROUND_TRIP_SEED);
    for (let i = 0; i < COMPOUND.players; i++) {
      const id = `p${i}`;
      const team = teamSize >= COMPOUND.players ? COMPOUND.team : `t${Math.floor(i / teamSize)}`;
      const p = sim.addPlayer(id, { spawn: map.spawns[i % map.spawns.length]!.name, team });
      const at = p.body.getPosition();
      this.culling.addEntity(id, { x: at.x, y: at.y, radius: sim.characterRadius, team, character: true });
      this.culling.addClient(id, id);
      this.culling.setRoundTrip(id, 20 + rtt() * 100);
      this.players.push(id);
      const listener = { id, team, x: at.x, y: at.y };
      this.listeners.push(listener);
      this.teamOf.set(id, team);
      let ears = this.earsOf.get(team);
      if (ears === undefined) this.earsOf.set(team, (ears = []));
      ears.push(listener);
    }
    sim.onTeleport = (id) => this.teleported.add(id);
  }

  /**
   * The players' inputs for step `t` (untimed): once a second of game time, each takes a new heading and
   * a gait, the same draws in every room built alike: one in ten stands still, the rest run (full stick,
   * the walking speed: a run by the footstep rules), walk (half stick) or crouch, a third each.
   */
  walk(t: number): void {
    if (t % 20 !== 0) return;
    const random = this.walkRandom;
    const { walkSpeed, crouchSpeed } = this.sim.movement;
    for (const id of this.players) {
      const a = random() * 2 * Math.PI;
      const r = random();
      const still = r < 0.1;
      const crouch = r >= 0.7;
      const speed = still ? 0 : crouch ? crouchSpeed : r < 0.4 ? walkSpeed : walkSpeed / 2;
      this.sim.setMotion(id, { vx: Math.cos(a) * speed, vy: Math.sin(a) * speed, facing: a, crouch });
    }
  }

  /** One room tick, each part timed; the deliveries are kept for {@link auditTick}. */
  tick(): RoomTickMs {
    const sim = this.sim;
    const t0 = performance.now();
    this.teleported.clear();
    const result = sim.step();
    // The room's sendNoise: each noise checked and copied into the queue (the simulation reuses its objects).
    const queue = this.queue;
    queue.length = 0;
    for (const n of result.noises) {
      checkNoise(n);
      queue.push({ x: n.x, y: n.y, loudness: n.loudness, kind: n.kind, emitter: n.emitter });
    }
    const t1 = performance.now();

    // The culling update, the bodies moved in as the plugin reads them (respawns declared).
    const culling = this.culling;
    for (let i = 0; i < this.players.length; i++) {
      const id = this.players[i]!;
      const at = sim.players.get(id)!.body.getPosition();
      if (this.teleported.has(id)) culling.teleportEntity(id, at.x, at.y);
      else culling.moveEntity(id, at.x, at.y);
      const l = this.listeners[i]!;
      l.x = at.x;
      l.y = at.y;
      this.place(id, at.x, at.y);
    }
    for (const g of sim.guards) {
      const at = g.body.getPosition();
      culling.moveEntity(g.id, at.x, at.y);
      this.place(g.id, at.x, at.y);
    }
    culling.update();
    const t2 = performance.now();

    // The noises, against the views of the coming patch: who hears each, each client's message, batched per client.
    const delivered = this.delivered;
    delivered.length = 0;
    const batches = this.batches;
    for (const noise of queue) {
      // Most footsteps reach no team: then no client is asked.
      if (!this.delivery.hear(noise, this.listeners as NoiseListener[])) continue;
      // As `sendNoise` without `toEmitterTeam`: the emitter's own team is not told.
      const skipTeam = this.teamOf.get(noise.emitter);
      // The demo's footsteps go `whenHidden`: a client that sees the walker plays its steps itself.
      const whenHidden = noise.kind === "footstep";
      // As `sendNoise` does: the spot only with a noise made where its emitter stands (not a stone's landing).
      const spotTold = madeAtEmitter(noise, this.where.get(noise.emitter));
      for (const client of this.players) {
        const team = this.teamOf.get(client)!;
        if (team === skipTeam || !this.delivery.heardBy(client, team)) continue;
        const holdsEmitter = culling.has(client, noise.emitter);
        if (holdsEmitter && whenHidden) continue;
        const message = this.delivery.messageFor(client, team, holdsEmitter && spotTold);
        if (message === undefined) continue;
        let list = batches.get(client);
        if (list === undefined) batches.set(client, (list = []));
        list.push(message);
        this.counts.deliveries++;
        if (message.emitter !== undefined) this.counts.named++;
        delivered.push({ client, noise, message, holdsEmitter });
      }
    }
    for (const list of batches.values()) {
      this.counts.bytes += getMessageBytes.raw(Protocol.ROOM_DATA, SERVER_MESSAGES.noise, list).length;
      this.counts.messages++;
    }
    batches.clear();
    const t3 = performance.now();

    const c = this.counts;
    c.noises += queue.length;
    for (const n of queue) {
      if (n.kind !== "footstep") continue;
      if (n.loudness === FOOTSTEPS.run) c.run++;
      else if (n.loudness === FOOTSTEPS.walk) c.walk++;
      else if (n.loudness === FOOTSTEPS.crouch) c.crouch++;
    }
    c.heard += sim.ears.heard.length;
    c.events += result.events.length;
    for (const e of result.events) if (e.sense === "hearing") c.hearingEvents++;
    c.respawns += this.teleported.size;
    return { step: t1 - t0, culling: t2 - t1, delivery: t3 - t2 };
  }

  private place(id: string, x: number, y: number): void {
    const at = this.where.get(id);
    if (at === undefined) this.where.set(id, { x, y });
    else {
      at.x = x;
      at.y = y;
    }
  }

  /** The sound audit of the last tick's deliveries (sample 1: every one), against its team's ears. */
  auditTick(): void {
    for (const d of this.delivered) {
      this.audit.check(d.client, d.noise, d.message, this.earsOf.get(this.teamOf.get(d.client)!)!, d.holdsEmitter, this.where.get(d.noise.emitter));
      const l = this.listeners.find((x) => x.id === d.message.listener)!;
      if (this.probe.hears(d.noise, l.x, l.y, this.probeEar) && !this.probeEar.direct) this.counts.bentDeliveries++;
    }
  }

  /** The room's one `Hearing`'s counts (queries that needed the way around, and what their searches cost). */
  get hearingCounts(): Record<string, number> {
    return this.sim.ears.hearing.counts;
  }

  dispose(): void {
    this.probe.dispose();
    this.culling.dispose();
    this.sim.dispose();
  }
}
