/**
 * The doors bench's level dressing: doors hung across the gaps of a bench level, the occluders every
 * engine of a configuration reads, and what changes them tick by tick (doors toggled at a fixed rate,
 * smoke thrown on a fixed period). Kept apart from the timing loop so the test can check, on the very
 * objects the bench uses, that the doors matter to sight.
 */
import { Occluders, type OccluderId, type Point } from "sightline/occluders";
import type { PolygonShape } from "planck";
import { seededRandom } from "../../shared/seededRandom.js";
import { WALL, type BenchLevel } from "./benchLevel.js";

/** A door of the level: its outline (meters) and whether it starts open. */
export interface DoorSpec {
  outline: Point[];
  open: boolean;
}

/** Door thickness, meters: a door, not a wall. */
const DOOR_THICKNESS = 0.2;
/** Gaps between two walls this wide (meters) get a door: a doorway to a gate, not a crack or open ground. */
const MIN_GAP = 1;
const MAX_GAP = 4;
/** How far a door reaches into the walls on either side, meters, so no sliver of sight passes at its ends. */
const DOOR_OVERLAP = 0.25;

/**
 * `count` doors, each across the gap between a wall and its nearest neighbour (a gap of 1-4 m): from the
 * nearest point of one to the nearest point of the other, reaching a little into both. A line of sight
 * passing between two convex walls crosses every segment from one to the other, so a shut door seals
 * the gap. A wall takes at most one door, so no two doors share a gap. Open or shut at random.
 * Deterministic for a level and seed.
 */
export function placeDoors(level: BenchLevel, count: number, seed: number): DoorSpec[] {
  const random = seededRandom(seed);
  const walls = wallOutlines(level);
  const centres = walls.map(centreOf);
  const used = new Uint8Array(walls.length);
  const doors: DoorSpec[] = [];
  // Bounded: a level too sparse for `count` doors gets fewer rather than a hang.
  for (let attempt = 0; attempt < 50 * count && doors.length < count; attempt++) {
    const a = Math.floor(random() * walls.length);
    if (used[a] === 1) continue;
    let best: { b: number; from: Point; to: Point; gap: number } | null = null;
    for (let b = 0; b < walls.length; b++) {
      if (b === a || used[b] === 1) continue;
      // A box's corners are at most 2.83 m from its centre (sides up to 4 m): farther centres cannot be within MAX_GAP.
      if (Math.hypot(centres[b]!.x - centres[a]!.x, centres[b]!.y - centres[a]!.y) > MAX_GAP + 6) continue;
      const n = nearestPoints(walls[a]!, walls[b]!);
      if (n.gap >= MIN_GAP && n.gap <= MAX_GAP && (best === null || n.gap < best.gap)) best = { b, ...n };
    }
    if (best === null) continue;
    used[a] = 1;
    used[best.b] = 1;
    doors.push({ outline: slab(best.from, best.to, DOOR_THICKNESS, DOOR_OVERLAP), open: random() < 0.5 });
  }
  return doors;
}

/** Every wall of the level as its world outline (the bench level's walls are one box each). */
function wallOutlines(level: BenchLevel): Point[][] {
  const out: Point[][] = [];
  for (let b = level.world.getBodyList(); b !== null; b = b.getNext()) {
    const f = b.getFixtureList();
    if (!b.isStatic() || f === null || (f.getFilterCategoryBits() & WALL) === 0) continue;
    const shape = f.getShape() as PolygonShape;
    out.push(shape.m_vertices.slice(0, shape.m_count).map((v) => {
      const w = b.getWorldPoint(v);
      return { x: w.x, y: w.y };
    }));
  }
  return out;
}

/** The closest pair of points of two disjoint convex polygons (a vertex of one, a point on an edge of the other). */
function nearestPoints(a: readonly Point[], b: readonly Point[]): { from: Point; to: Point; gap: number } {
  let best = { from: a[0]!, to: b[0]!, gap: Infinity };
  const scan = (vs: readonly Point[], poly: readonly Point[], flip: boolean) => {
    for (const v of vs) {
      for (let i = 0; i < poly.length; i++) {
        const p = closestOnSegment(v, poly[i]!, poly[(i + 1) % poly.length]!);
        const d = Math.hypot(p.x - v.x, p.y - v.y);
        if (d < best.gap) best = flip ? { from: p, to: v, gap: d } : { from: v, to: p, gap: d };
      }
    }
  };
  scan(a, b, false);
  scan(b, a, true);
  return best;
}

function closestOnSegment(p: Point, s: Point, e: Point): Point {
  const dx = e.x - s.x;
  const dy = e.y - s.y;
  const t = Math.max(0, Math.min(1, ((p.x - s.x) * dx + (p.y - s.y) * dy) / (dx * dx + dy * dy)));
  return { x: s.x + t * dx, y: s.y + t * dy };
}

/** A rectangle of the given thickness along the segment a-b, lengthened by `overlap` at both ends. */
function slab(a: Point, b: Point, thickness: number, overlap: number): Point[] {
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const nx = -uy * (thickness / 2);
  const ny = ux * (thickness / 2);
  const s = { x: a.x - ux * overlap, y: a.y - uy * overlap };
  const e = { x: b.x + ux * overlap, y: b.y + uy * overlap };
  return [
    { x: s.x + nx, y: s.y + ny },
    { x: e.x + nx, y: e.y + ny },
    { x: e.x - nx, y: e.y - ny },
    { x: s.x - nx, y: s.y - ny },
  ];
}

/** The level's walls (as the culling bench reads them) plus the doors in their starting state; the door ids in order. */
export function buildOccluders(level: BenchLevel, doors: readonly DoorSpec[]): { occluders: Occluders; doorIds: OccluderId[] } {
  const occluders = Occluders.fromWorld(level.world, { opaqueMask: WALL });
  const doorIds = doors.map((d) => occluders.addDoor(d.outline, { open: d.open }));
  return { occluders, doorIds };
}

/** What a configuration does to its occluders between ticks. */
export interface Activity {
  /** Doors toggled per second (0: they stay as they started). */
  togglesPerSecond: number;
  /** Whether smoke is thrown (one cloud every {@link SMOKE_PERIOD_S}) and aged every tick. */
  smoke: boolean;
}

export const SMOKE_PERIOD_S = 2;
export const SMOKE = { radius: 3, seconds: 12 } as const;
/** Smoke lands this far (at most) from the player it is thrown at, meters. */
const SMOKE_SCATTER = 4;

/**
 * Drives one configuration's occluders: each tick, the toggles owed at its rate (each a seeded random
 * door; the same sequence for every configuration with the same rate), a cloud every
 * {@link SMOKE_PERIOD_S} near a random player (where sight matters), and the clouds' ageing. Configurations
 * with smoke start with the clouds of the last {@link SMOKE} lifetime already thrown, so the number alive
 * is at its steady state from the first tick rather than ramping up through the measurement.
 */
export class OccluderActivity {
  toggles = 0;
  smokeThrown = 0;
  private owed = 0;
  private sinceSmoke = 0;
  /** Two streams, so adding smoke to a configuration leaves its doors toggling in the same order. */
  private readonly doorRandom: () => number;
  private readonly smokeRandom: () => number;

  constructor(
    private readonly occluders: Occluders,
    private readonly doorIds: readonly OccluderId[],
    private readonly activity: Activity,
    private readonly level: BenchLevel,
    private readonly tickSeconds: number,
    seed: number,
  ) {
    this.doorRandom = seededRandom(seed);
    this.smokeRandom = seededRandom(seed + 1);
    if (activity.smoke) {
      for (let age = SMOKE.seconds - SMOKE_PERIOD_S; age > 0; age -= SMOKE_PERIOD_S) {
        this.throwSmoke();
        occluders.advance(SMOKE_PERIOD_S);
      }
    }
  }

  /** The changes of one tick, before the tick's sight. */
  step(): void {
    const { togglesPerSecond, smoke } = this.activity;
    this.owed += togglesPerSecond * this.tickSeconds;
    while (this.owed >= 1) {
      this.owed -= 1;
      const id = this.doorIds[Math.floor(this.doorRandom() * this.doorIds.length)]!;
      this.occluders.setOpen(id, !this.occluders.isOpen(id));
      this.toggles++;
    }
    if (!smoke) return;
    this.occluders.advance(this.tickSeconds);
    this.sinceSmoke += this.tickSeconds;
    // Whole ticks: 2 s at 20 Hz must not drift to 41 ticks by rounding.
    if (this.sinceSmoke >= SMOKE_PERIOD_S - 1e-9) {
      this.sinceSmoke = 0;
      this.throwSmoke();
    }
  }

  private throwSmoke(): void {
    const { players, size } = this.level;
    const p = players[Math.floor(this.smokeRandom() * players.length)]!;
    const clamp = (v: number) => Math.min(size, Math.max(0, v));
    const angle = this.smokeRandom() * 2 * Math.PI;
    const r = this.smokeRandom() * SMOKE_SCATTER;
    this.occluders.addSmoke(clamp(p.x + Math.cos(angle) * r), clamp(p.y + Math.sin(angle) * r), SMOKE);
    this.smokeThrown++;
  }
}

/** What {@link doorsDecide} found. */
export interface DoorsDecide {
  /** (door, pair) cases asked: pairs in range of each other and of the door that see each other with it open. */
  visibleWithDoorOpen: number;
  /** Of those, the pairs that no longer see each other with that door shut. */
  hiddenWhenShut: number;
}

/**
 * Whether the doors matter to sight, where everyone stands now: for each door, the (observer, target)
 * pairs within `range` of each other and near the door that `sees` with the door open, and how many of
 * those it hides when shut. Leaves every door as it found it. Proof the doors are not decoration.
 */
export function doorsDecide(
  occluders: Occluders,
  doorIds: readonly OccluderId[],
  doors: readonly DoorSpec[],
  observers: readonly Point[],
  targets: readonly Point[],
  range: number,
  sees: (observer: number, target: number) => boolean,
): DoorsDecide {
  const out: DoorsDecide = { visibleWithDoorOpen: 0, hiddenWhenShut: 0 };
  doorIds.forEach((id, k) => {
    const outline = doors[k]!.outline;
    const c = centreOf(outline);
    const reach = range + Math.max(...outline.map((p) => Math.hypot(p.x - c.x, p.y - c.y)));
    const wasOpen = occluders.isOpen(id);
    for (let o = 0; o < observers.length; o++) {
      const a = observers[o]!;
      if (Math.hypot(a.x - c.x, a.y - c.y) > reach) continue;
      for (let t = 0; t < targets.length; t++) {
        const b = targets[t]!;
        if (Math.hypot(a.x - b.x, a.y - b.y) > range) continue;
        occluders.setOpen(id, true);
        if (!sees(o, t)) continue;
        out.visibleWithDoorOpen++;
        occluders.setOpen(id, false);
        if (!sees(o, t)) out.hiddenWhenShut++;
      }
    }
    occluders.setOpen(id, wasOpen);
  });
  return out;
}

function centreOf(outline: readonly Point[]): Point {
  let x = 0;
  let y = 0;
  for (const p of outline) {
    x += p.x;
    y += p.y;
  }
  return { x: x / outline.length, y: y / outline.length };
}
