/**
 * The hearing bench's reference vision room: {@link VisionHearingRoom}, the vision-scheduler's reference
 * room (1024 guards, 64 players, 1000 walls), the players' footsteps heard by the guards through `Hearing`
 * on the occluders the vision reads, and the awareness model fed what they heard.
 */
import { AwarenessModel, Hearing, VisionSystem, type Earshot, type Heard, type Noise } from "sightline";
import { Occluders } from "sightline/occluders";
import { FOOTSTEPS, TICK_SECONDS } from "../../shared/gameRules.js";
import { WALL, type BenchLevel } from "./benchLevel.js";

/** Side of the cells the vision room files its guards by, meters (about a running footstep's reach). */
const GUARD_CELL = 10;

/** The vision-scheduler's reference room: its level, range and cones. */
export const VISION_ROOM = { seed: 4242, walls: 1000, guards: 1024, players: 64, size: 200, range: 30, fov: Math.PI / 2 } as const;

/**
 * The library classes a {@link VisionHearingRoom} is built from: this checkout's unless given, so a
 * same-process A/B (`againstCheckout.ts hearing`) can run the same room on another checkout's engine.
 */
export interface HearingEngine {
  VisionSystem: typeof VisionSystem;
  AwarenessModel: typeof AwarenessModel;
  Hearing: typeof Hearing;
  Occluders: typeof Occluders;
}

const THIS_ENGINE: HearingEngine = { VisionSystem, AwarenessModel, Hearing, Occluders };

/** Cumulative counts of a {@link VisionHearingRoom}. */
export interface VisionHearingCounts {
  rays: number;
  sightings: number;
  noises: number;
  heard: number;
  events: number;
  hearingEvents: number;
}

/**
 * One engine over the reference room's level: a `VisionSystem` at its defaults (256 rays a tick) reading
 * an `Occluders` of the level's walls (as the doors bench does, so `Hearing` reads the very same
 * occluders), an `AwarenessModel`, and with hearing on, the players' footsteps by the demo's rules (a step
 * every 0.8 m, 10 m at the level's 3 m/s) heard by every guard whose way to them is short enough, but those
 * that see the walker this tick (the model keeps a pair's sighting over what its ears say). Several rooms
 * may share one level: the level moves once a tick, each room takes its poses.
 */
export class VisionHearingRoom {
  readonly occluders: Occluders;
  readonly vision: VisionSystem;
  readonly awareness: AwarenessModel;
  /** Built in both variants (so both report the same counts), asked only when {@link hears}. */
  readonly hearing: Hearing;
  readonly counts: VisionHearingCounts = { rays: 0, sightings: 0, noises: 0, heard: 0, events: 0, hearingEvents: 0 };
  private readonly sinceStep: Float64Array;
  private readonly noises: Noise[] = [];
  private readonly noisePool: Noise[] = [];
  private readonly heard: Heard[] = [];
  private readonly heardPool: Heard[] = [];
  private readonly ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  private readonly noHeard: Heard[] = [];
  /**
   * The guards filed by cell of {@link GUARD_CELL} meters, as a list per cell (`first[c]`, then `next[i]`,
   * -1 ending it), kept as they move: a guard changes cell once in many ticks, so a tick only checks.
   */
  private readonly cells: number;
  private readonly first: Int32Array;
  private readonly next: Int32Array;
  private readonly previous: Int32Array;
  private readonly guardCell: Int32Array;
  /** The guards' ids in the level's order (read once: ids do not change). */
  private readonly guardIds: readonly string[];
  /** Each guard's position as it was moved this tick, in the level's order. */
  private readonly guardX: Float64Array;
  private readonly guardY: Float64Array;

  constructor(private readonly level: BenchLevel, readonly hears: boolean, engine: HearingEngine = THIS_ENGINE) {
    this.occluders = engine.Occluders.fromWorld(level.world, { opaqueMask: WALL });
    const v = (this.vision = new engine.VisionSystem(this.occluders));
    this.awareness = new engine.AwarenessModel();
    for (const g of level.guards) v.addObserver(g.id, { position: g, facing: g.facing, range: VISION_ROOM.range, fov: VISION_ROOM.fov });
    for (const p of level.players) v.addObservable(p.id, { position: p, radius: level.playerRadius });
    this.hearing = new engine.Hearing(this.occluders);
    this.cells = Math.ceil(level.size / GUARD_CELL);
    this.first = new Int32Array(this.cells * this.cells).fill(-1);
    this.next = new Int32Array(level.guards.length).fill(-1);
    this.previous = new Int32Array(level.guards.length).fill(-1);
    this.guardCell = new Int32Array(level.guards.length).fill(-1);
    this.guardIds = level.guards.map((g) => g.id);
    this.guardX = new Float64Array(level.guards.length);
    this.guardY = new Float64Array(level.guards.length);
    // The level's players all walk at one speed from tick 0: in step with each other, every footstep would
    // fall on the same tick (64 at once, then none for four). Each starts at its own point of its stride.
    this.sinceStep = Float64Array.from(level.players, (_, i) => ((i * 0.618034) % 1) * FOOTSTEPS.stride);
  }

  /** One tick at the level's current poses (timed whole by the caller): vision, footsteps heard, awareness. */
  tick(tick: number): void {
    const level = this.level;
    const v = this.vision;
    const guards = level.guards;
    // With hearing on, each guard's place is kept as it is moved, where its position is read anyway: a
    // second pass over a thousand guard objects after the vision tick would find them all out of cache.
    if (this.hears) {
      const last = this.cells - 1;
      for (let i = 0; i < guards.length; i++) {
        const g = guards[i]!;
        const x = g.x;
        const y = g.y;
        v.moveObserver(g.id, x, y, g.facing);
        this.guardX[i] = x;
        this.guardY[i] = y;
        const cell = Math.min(last, Math.max(0, Math.floor(y / GUARD_CELL))) * this.cells + Math.min(last, Math.max(0, Math.floor(x / GUARD_CELL)));
        if (cell !== this.guardCell[i]) this.refile(i, cell);
      }
    } else for (const g of guards) v.moveObserver(g.id, g.x, g.y, g.facing);
    for (const p of level.players) v.moveObservable(p.id, p.x, p.y);
    const report = v.tick();
    const heard = this.hears ? this.listen() : this.noHeard;
    const sightings = v.sightings();
    const events = this.awareness.step(tick, TICK_SECONDS, sightings, heard);
    const c = this.counts;
    c.rays += report.rays;
    c.sightings += sightings.length;
    c.events += events.length;
    for (const e of events) if (e.sense === "hearing") c.hearingEvents++;
  }

  /** This tick's footsteps (a step every stride moved; loudness by speed) and the guards that hear them. */
  private listen(): Heard[] {
    const players = this.level.players;
    const hearing = this.hearing;
    this.noises.length = 0;
    this.heard.length = 0;
    for (let i = 0; i < players.length; i++) {
      const p = players[i]!;
      // The level moves its agents by (vx, vy) meters a tick.
      const speed = Math.hypot(p.vx, p.vy) / TICK_SECONDS;
      if (speed < FOOTSTEPS.stillBelow) continue;
      const moved = this.sinceStep[i]! + speed * TICK_SECONDS;
      if (moved < FOOTSTEPS.stride) {
        this.sinceStep[i] = moved;
        continue;
      }
      this.sinceStep[i] = moved - FOOTSTEPS.stride;
      const n = (this.noisePool[this.noises.length] ??= { x: 0, y: 0, loudness: 0, kind: "footstep", emitter: "" });
      n.x = p.x;
      n.y = p.y;
      n.loudness = speed >= FOOTSTEPS.runFrom ? FOOTSTEPS.run : FOOTSTEPS.walk;
      n.emitter = p.id;
      this.noises.push(n);
    }
    const cells = this.cells;
    const last = cells - 1;
    for (const noise of this.noises) {
      const reach = noise.loudness * noise.loudness;
      // A guard that sees the walker this tick keeps its sighting, and the model would pass the noise by:
      // it is not asked.
      const seers = this.vision.seenBy(noise.emitter);
      // The guards in the cells within earshot in a straight line: no other can hear it.
      const c0 = Math.max(0, Math.floor((noise.x - noise.loudness) / GUARD_CELL));
      const c1 = Math.min(last, Math.floor((noise.x + noise.loudness) / GUARD_CELL));
      const r0 = Math.max(0, Math.floor((noise.y - noise.loudness) / GUARD_CELL));
      const r1 = Math.min(last, Math.floor((noise.y + noise.loudness) / GUARD_CELL));
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) for (let i = this.first[r * cells + c]!; i >= 0; i = this.next[i]!) {
        const gx = this.guardX[i]!;
        const gy = this.guardY[i]!;
        const dx = gx - noise.x;
        const dy = gy - noise.y;
        if (dx * dx + dy * dy >= reach) continue;
        const id = this.guardIds[i]!;
        if (seers.size > 0 && seers.has(id)) continue;
        if (!hearing.hears(noise, gx, gy, this.ear)) continue;
        const h = (this.heardPool[this.heard.length] ??= { observerId: "", targetId: "", level: 0, position: { x: 0, y: 0 } });
        h.observerId = id;
        h.targetId = noise.emitter;
        h.level = this.ear.level;
        h.position.x = noise.x;
        h.position.y = noise.y;
        this.heard.push(h);
      }
    }
    this.counts.noises += this.noises.length;
    this.counts.heard += this.heard.length;
    return this.heard;
  }

  /** Moves guard `i` to the list of `cell` (out of its last one). */
  private refile(i: number, cell: number): void {
    const was = this.guardCell[i]!;
    if (was >= 0) {
      const before = this.previous[i]!;
      const after = this.next[i]!;
      if (before >= 0) this.next[before] = after;
      else this.first[was] = after;
      if (after >= 0) this.previous[after] = before;
    }
    const head = this.first[cell]!;
    this.next[i] = head;
    this.previous[i] = -1;
    if (head >= 0) this.previous[head] = i;
    this.first[cell] = i;
    this.guardCell[i] = cell;
  }

  dispose(): void {
    this.hearing.dispose();
    this.vision.dispose();
  }
}
