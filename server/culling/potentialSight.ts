import type { World } from "planck";
import { PairMemory } from "./pairMemory.js";
import { StaticOccluders } from "./staticOccluders.js";

/** Options of a {@link PotentialSight}. */
export interface PotentialSightOptions {
  /** Category bits that block sight (only static fixtures hide, see `StaticOccluders`). Default 0xFFFF. */
  opaqueMask?: number;
  /** How far characters see, all around, meters. Default 20. */
  range?: number;
  /** Cell of the occluder grid, meters. Default 4. */
  occluderCell?: number;
  /**
   * Meters an entity may move in one update and still count as having moved rather than teleported (a
   * respawn): see {@link PotentialSight.teleported}. Default Infinity (nothing teleports).
   */
  teleportDistance?: number;
}

/** What a team is: its characters and what they could see soon. */
interface Team {
  readonly name: string;
  /** Meters the eye and every target may move before the team's clients hear of it. */
  lookahead: number;
  /** Slots of its characters. */
  readonly members: number[];
  /** 1 for every slot potentially visible to the team at the last update (its own characters excluded). */
  visible: Uint8Array;
  /** The same slots as a list. */
  list: Int32Array;
  listCount: number;
}

/** Beyond rounding noise: only a clear negative margin counts as hidden, so ties go to "send it". */
export const HIDDEN_MARGIN = -1e-6;
const HASH_BUCKETS = 4096;

/**
 * "Could this team see that entity soon?" for anti-wallhack culling: for every team, the set of entities
 * any of its characters could see within its look-ahead, recomputed exactly at every {@link update}.
 *
 * The test, per (character, entity): the eye may be anywhere in the character's body grown by the team's
 * look-ahead d, the entity anywhere in its body grown by d; it is potentially visible when its centre is
 * within `range + radius + 2d` of the character and no single static occluder hides the whole grown
 * entity from the whole grown eye (`occlusionMargin`). That covers the target's motion (the DESIGN's
 * inflated radius) and the character's own motion too: a player who steps out from a corner sees far
 * targets sweep past the corner much faster than they move, so inflating the target alone would pop in.
 * Occluders are only ever trusted one at a time, so two walls that together hide something do not
 * hide it: culling errs towards sending.
 *
 * The last hiding occluder of each pair is tried first (most pairs stay hidden behind the same wall), and
 * a team stops testing an entity once one of its characters sees it. Allocation-free per update once the
 * capacity has grown. Imports no Colyseus: the room maps teams and entities to `StateView`s.
 */
export class PotentialSight {
  readonly range: number;
  readonly occluders: StaticOccluders;
  private capacity = 0;
  private ids: (string | undefined)[] = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private x = new Float64Array(0);
  private y = new Float64Array(0);
  private radius = new Float64Array(0);
  /** Team index per slot, -1 for an entity that does not look (a guard, a camera). */
  private team = new Int32Array(0);
  private tested = new Int32Array(0);
  private testStamp = 0;
  /**
   * Per character slot: what it remembers of each entity in its reach (see `PairMemory`): the occluder
   * that last hid it, and a standing verdict on the pair with how far (meters) it holds with room to
   * spare. Every occluder's margin moves by at most the distance the two centres moved (it is 1-Lipschitz
   * in each), so while the centres have travelled less than that room in total, the verdict stands and
   * costs no test. Stored as room + both odometers at the time (so ticks in which the pair was not looked
   * at still count): the room left now is |slack| minus both odometers now. Positive: hidden by the
   * remembered occluder. Negative: visible (see {@link visibleRoom}). 0: no standing verdict.
   */
  private readonly memory: (PairMemory | undefined)[] = [];
  /** Bumped each time a slot is freed or given to an entity, so memories of its previous holder are void. */
  private generation = new Int32Array(0);
  /** Where each slot was at the previous update, and how far it has travelled in all (meters). */
  private lastX = new Float64Array(0);
  private lastY = new Float64Array(0);
  private odometer = new Float64Array(0);
  /** 1 for a slot whose entity moved farther than `teleportDistance` at the last update. */
  private jumped = new Uint8Array(0);
  private readonly teleportDistance: number;
  /** Each team's look-ahead at the previous update: a change voids its members' slack. */
  private readonly lastLookahead: number[] = [];
  private readonly teams: Team[] = [];
  private readonly teamIndex = new Map<string, number>();
  private maxRadius = 0;
  private gathered = new Int32Array(0);
  // The entity hash grid, rebuilt at each update (counting sort).
  private readonly cellSize: number;
  private readonly bucketStart = new Int32Array(HASH_BUCKETS + 1);
  private bucketItems = new Int32Array(0);
  private readonly bucketFill = new Int32Array(HASH_BUCKETS);
  private liveCount = 0;
  private readonly slotView: { list: Int32Array; count: number } = { list: new Int32Array(0), count: 0 };
  /** Pairs in reach at the last update (each needed a verdict). */
  pairsTested = 0;
  /** Of those, the pairs whose remembered verdict had run out of room: they were tested against occluders. */
  occluderTests = 0;

  constructor(world: World, options: PotentialSightOptions = {}) {
    const range = options.range ?? 20;
    if (!(range > 0 && Number.isFinite(range))) throw new RangeError(`range must be a positive finite number of meters (got ${range})`);
    const mask = options.opaqueMask ?? 0xffff;
    if (!Number.isInteger(mask) || mask < 0 || mask > 0xffff) throw new RangeError(`opaqueMask must be an integer in [0, 0xFFFF] (got ${mask})`);
    this.range = range;
    this.teleportDistance = options.teleportDistance ?? Infinity;
    if (!(this.teleportDistance > 0)) throw new RangeError(`teleportDistance must be a positive number of meters (got ${options.teleportDistance})`);
    this.cellSize = range / 2;
    this.occluders = new StaticOccluders(world, mask, options.occluderCell ?? 4);
    this.gathered = new Int32Array(this.occluders.size);
  }

  /**
   * Adds an entity at (x, y) with a body radius (meters). With `team`, it is also a character that looks
   * on behalf of that team. Throws a RangeError on a duplicate id or a bad number.
   */
  addEntity(id: string, x: number, y: number, radius: number, team?: string): void {
    if (this.slots.has(id)) throw new RangeError(`entity ${JSON.stringify(id)} already exists`);
    checkPoint(x, y);
    if (!(radius >= 0 && Number.isFinite(radius))) throw new RangeError(`radius must be a finite number >= 0 (got ${radius})`);
    if (this.free.length === 0) this.grow();
    const slot = this.free.pop()!;
    this.slots.set(id, slot);
    this.ids[slot] = id;
    this.x[slot] = x;
    this.y[slot] = y;
    this.radius[slot] = radius;
    this.lastX[slot] = x;
    this.lastY[slot] = y;
    this.jumped[slot] = 0;
    // A new entity in a reused slot must not inherit anyone's memory of the old one.
    this.generation[slot]!++;
    if (radius > this.maxRadius) this.maxRadius = radius;
    this.liveCount++;
    if (team === undefined) {
      this.team[slot] = -1;
      return;
    }
    const t = this.ensureTeam(team);
    this.team[slot] = t;
    this.teams[t]!.members.push(slot);
    const memory = this.memory[slot];
    if (memory === undefined) this.memory[slot] = new PairMemory();
    else memory.clear();
  }

  /** Moves an entity, meters. Unknown ids are ignored; NaN or infinite coordinates throw a RangeError. */
  moveEntity(id: string, x: number, y: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    checkPoint(x, y);
    this.x[slot] = x;
    this.y[slot] = y;
  }

  /** Drops an entity (and, for a character, its place in its team). Unknown ids are ignored. */
  removeEntity(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const t = this.team[slot]!;
    if (t >= 0) {
      const members = this.teams[t]!.members;
      members.splice(members.indexOf(slot), 1);
    }
    for (const team of this.teams) team.visible[slot] = 0;
    this.slots.delete(id);
    this.ids[slot] = undefined;
    this.generation[slot]!++;
    this.team[slot] = -1;
    this.free.push(slot);
    this.liveCount--;
  }

  /**
   * How far (meters) the team's characters and every entity may move before the team's clients receive
   * the result: the margin both discs are grown by. The room sets it from the clients' latency. >= 0.
   */
  setLookahead(team: string, meters: number): void {
    if (!(meters >= 0 && Number.isFinite(meters))) throw new RangeError(`lookahead must be a finite number of meters >= 0 (got ${meters})`);
    this.teams[this.ensureTeam(team)]!.lookahead = meters;
  }

  lookahead(team: string): number {
    const t = this.teamIndex.get(team);
    return t === undefined ? 0 : this.teams[t]!.lookahead;
  }

  /** Recomputes every team's potentially visible set from the current positions. */
  update(): void {
    this.buildGrid();
    this.pairsTested = 0;
    this.occluderTests = 0;
    for (let s = 0; s < this.capacity; s++) {
      if (this.ids[s] === undefined) continue;
      const dx = this.x[s]! - this.lastX[s]!;
      const dy = this.y[s]! - this.lastY[s]!;
      const step = Math.sqrt(dx * dx + dy * dy);
      this.odometer[s]! += step;
      this.jumped[s] = step > this.teleportDistance ? 1 : 0;
      this.lastX[s] = this.x[s]!;
      this.lastY[s] = this.y[s]!;
    }
    for (let t = 0; t < this.teams.length; t++) {
      const team = this.teams[t]!;
      if (this.lastLookahead[t] !== team.lookahead) {
        for (const c of team.members) this.memory[c]!.voidVerdicts();
        this.lastLookahead[t] = team.lookahead;
      }
      for (let i = 0; i < team.listCount; i++) team.visible[team.list[i]!] = 0;
      team.listCount = 0;
      const d = team.lookahead;
      for (const c of team.members) this.look(c, t, team, d);
    }
  }

  /** Whether `id` was potentially visible to `team` at the last update. A team's own characters are not listed. */
  sees(team: string, id: string): boolean {
    const t = this.teamIndex.get(team);
    const slot = this.slots.get(id);
    return t !== undefined && slot !== undefined && this.teams[t]!.visible[slot] === 1;
  }

  /** Slot of an entity (a small integer, reused after removal; see {@link generationOf}), or -1. */
  slotOf(id: string): number {
    return this.slots.get(id) ?? -1;
  }

  /** Id of the entity in a slot, or undefined for a free slot. */
  idOf(slot: number): string | undefined {
    return this.ids[slot];
  }

  /**
   * Whether the entity in `slot` moved farther than `teleportDistance` at the last update: it was put
   * somewhere (a respawn) rather than walked there.
   */
  teleported(slot: number): boolean {
    return this.jumped[slot] === 1;
  }

  /** Changes whenever the slot is freed or given to another entity. */
  generationOf(slot: number): number {
    return this.generation[slot]!;
  }

  /** Slots in use range over [0, slotCapacity). */
  get slotCapacity(): number {
    return this.capacity;
  }

  /** Index of a team by name, or -1. Stable for the life of the sight. */
  teamIndexOf(team: string): number {
    return this.teamIndex.get(team) ?? -1;
  }

  /**
   * The slots potentially visible to team `t` at the last update: entries [0, count) of the returned
   * array (live; do not keep it past the next update). For allocation-free per-tick consumers.
   */
  visibleSlotsOf(t: number): { readonly list: Int32Array; readonly count: number } {
    const team = this.teams[t]!;
    this.slotView.list = team.list;
    this.slotView.count = team.listCount;
    return this.slotView;
  }

  /** Slots of team `t`'s characters (live). */
  memberSlotsOf(t: number): readonly number[] {
    return this.teams[t]!.members;
  }

  /** Calls `visit` with the id of every entity potentially visible to `team` at the last update. */
  forEachVisible(team: string, visit: (id: string) => void): void {
    const t = this.teamIndex.get(team);
    if (t === undefined) return;
    const tm = this.teams[t]!;
    for (let i = 0; i < tm.listCount; i++) visit(this.ids[tm.list[i]!]!);
  }

  /** How many entities `team` could potentially see at the last update. */
  visibleCount(team: string): number {
    const t = this.teamIndex.get(team);
    return t === undefined ? 0 : this.teams[t]!.listCount;
  }

  /** The team of a character, or undefined for an entity that does not look (or an unknown id). */
  teamOf(id: string): string | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined || this.team[slot]! < 0) return undefined;
    return this.teams[this.team[slot]!]!.name;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** Position and radius of an entity (meters), written into `out`; false for an unknown id. */
  read(id: string, out: { x: number; y: number; radius: number }): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    out.x = this.x[slot]!;
    out.y = this.y[slot]!;
    out.radius = this.radius[slot]!;
    return true;
  }

  /** Ids of every entity. */
  entityIds(): IterableIterator<string> {
    return this.slots.keys();
  }

  /** Names of the teams that have (or had) characters. */
  teamNames(): string[] {
    return this.teams.map((t) => t.name);
  }

  /** Calls `visit` with the id of each of the team's characters. */
  forEachMember(team: string, visit: (id: string) => void): void {
    const t = this.teamIndex.get(team);
    if (t === undefined) return;
    for (const s of this.teams[t]!.members) visit(this.ids[s]!);
  }

  /** Members of a team (character ids). */
  membersOf(team: string): string[] {
    const t = this.teamIndex.get(team);
    return t === undefined ? [] : this.teams[t]!.members.map((s) => this.ids[s]!);
  }

  private look(c: number, t: number, team: Team, d: number): void {
    const cx = this.x[c]!;
    const cy = this.y[c]!;
    const ra = this.radius[c]! + d;
    const stamp = ++this.testStamp;
    const memory = this.memory[c]!;
    const odometerC = this.odometer[c]!;
    // 1. The entities it already knows, in memory order (sequential reads); those gone or out of reach
    // are forgotten.
    let kept = 0;
    for (let i = 0; i < memory.count; i++) {
      const e = memory.entity[i]!;
      if (memory.generation[i] !== this.generation[e]) continue;
      const dx = this.x[e]! - cx;
      const dy = this.y[e]! - cy;
      const reach = this.range + this.radius[e]! + 2 * d;
      if (dx * dx + dy * dy > reach * reach) continue;
      if (kept !== i) memory.moveDown(i, kept);
      const j = kept++;
      this.tested[e] = stamp;
      if (team.visible[e] === 1) continue;
      this.decide(team, memory, j, odometerC, e, cx, cy, ra, d);
    }
    memory.count = kept;
    // 2. Entities that came into reach: from the hash grid.
    const reachMax = this.range + 2 * d + this.maxRadius;
    const cs = this.cellSize;
    const c0 = Math.floor((cx - reachMax) / cs);
    const c1 = Math.floor((cx + reachMax) / cs);
    const r0 = Math.floor((cy - reachMax) / cs);
    const r1 = Math.floor((cy + reachMax) / cs);
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const bucket = hashCell(col, row);
        for (let i = this.bucketStart[bucket]!; i < this.bucketStart[bucket + 1]!; i++) {
          const e = this.bucketItems[i]!;
          if (e === c || this.team[e] === t || this.tested[e] === stamp) continue;
          this.tested[e] = stamp;
          const dx = this.x[e]! - cx;
          const dy = this.y[e]! - cy;
          const reach = this.range + this.radius[e]! + 2 * d;
          if (dx * dx + dy * dy > reach * reach) continue;
          const j = memory.add(e, this.generation[e]!);
          if (team.visible[e] === 1) continue;
          this.decide(team, memory, j, odometerC, e, cx, cy, ra, d);
        }
      }
    }
  }

  /** The verdict on entry `j` of a character's memory (entity `e`, in reach), added to the team's set if visible. */
  private decide(team: Team, memory: PairMemory, j: number, odometerC: number, e: number, cx: number, cy: number, ra: number, d: number): void {
    this.pairsTested++;
    if (this.hidden(memory, j, odometerC, e, cx, cy, ra, this.radius[e]! + d)) return;
    team.visible[e] = 1;
    team.list[team.listCount++] = e;
  }

  private hidden(memory: PairMemory, j: number, odometerC: number, e: number, ax: number, ay: number, ra: number, rb: number): boolean {
    const bx = this.x[e]!;
    const by = this.y[e]!;
    const occ = this.occluders;
    const slack = memory.slack;
    const travelled = odometerC + this.odometer[e]!;
    const standing = slack[j]!;
    // Visible last time with room to spare: still visible while the centres moved less than that.
    if (standing < 0 && -standing - travelled > 0) return false;
    const last = memory.blocker[j]! - 1;
    if (last >= 0 && last < occ.size && standing - travelled > -HIDDEN_MARGIN) return true;
    this.occluderTests++;
    // The room a visible verdict will have: what no occluder off the centre segment can take away, less
    // for each occluder on it, a lower bound of its margin.
    let room = visibleRoom(ra, rb);
    if (last >= 0 && last < occ.size) {
      const m = occ.margin(last, ax, ay, ra, bx, by, rb);
      if (m < HIDDEN_MARGIN) {
        slack[j] = -m + travelled;
        return true;
      }
      if (m < room && occ.crosses(last, ax, ay, bx, by)) room = m;
    }
    slack[j] = 0;
    const n = occ.gatherAlong(ax, ay, bx, by, this.gathered);
    for (let i = 0; i < n; i++) {
      const k = this.gathered[i]!;
      if (k === last || !occ.crosses(k, ax, ay, bx, by)) continue;
      const m = occ.clearance(k, ax, ay, ra, bx, by, rb, HIDDEN_MARGIN);
      if (m < HIDDEN_MARGIN) {
        memory.blocker[j] = k + 1;
        return true;
      }
      if (m < room) room = m;
    }
    if (room > 0) slack[j] = -(room + travelled);
    return false;
  }

  private buildGrid(): void {
    const start = this.bucketStart;
    start.fill(0);
    const cs = this.cellSize;
    for (let s = 0; s < this.capacity; s++) {
      if (this.ids[s] === undefined) continue;
      start[hashCell(Math.floor(this.x[s]! / cs), Math.floor(this.y[s]! / cs)) + 1]!++;
    }
    for (let b = 0; b < HASH_BUCKETS; b++) start[b + 1]! += start[b]!;
    const fill = this.bucketFill;
    fill.set(start.subarray(0, HASH_BUCKETS));
    for (let s = 0; s < this.capacity; s++) {
      if (this.ids[s] === undefined) continue;
      this.bucketItems[fill[hashCell(Math.floor(this.x[s]! / cs), Math.floor(this.y[s]! / cs))]!++] = s;
    }
  }

  private ensureTeam(name: string): number {
    let t = this.teamIndex.get(name);
    if (t === undefined) {
      t = this.teams.length;
      this.teams.push({ name, lookahead: 0, members: [], visible: new Uint8Array(this.capacity), list: new Int32Array(this.capacity), listCount: 0 });
      this.teamIndex.set(name, t);
    }
    return t;
  }

  private grow(): void {
    const old = this.capacity;
    const cap = Math.max(16, old * 2);
    const resize = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.x = resize(this.x, (n) => new Float64Array(n));
    this.y = resize(this.y, (n) => new Float64Array(n));
    this.radius = resize(this.radius, (n) => new Float64Array(n));
    this.team = resize(this.team, (n) => new Int32Array(n));
    this.tested = resize(this.tested, (n) => new Int32Array(n));
    this.generation = resize(this.generation, (n) => new Int32Array(n));
    this.lastX = resize(this.lastX, (n) => new Float64Array(n));
    this.lastY = resize(this.lastY, (n) => new Float64Array(n));
    this.odometer = resize(this.odometer, (n) => new Float64Array(n));
    this.jumped = resize(this.jumped, (n) => new Uint8Array(n));
    this.bucketItems = new Int32Array(cap);
    for (const tm of this.teams) {
      tm.visible = resize(tm.visible, (n) => new Uint8Array(n));
      tm.list = resize(tm.list, (n) => new Int32Array(n));
    }
    for (let s = cap - 1; s >= old; s--) this.free.push(s);
    this.ids.length = cap;
    this.capacity = cap;
  }
}

/**
 * How far (meters, summed over both centres) a pair may move and stay visible, when no occluder touches
 * the segment between the centres. For an occluder P at distance g > 0 from that segment there is a
 * direction u with min(a.u, b.u) >= hP(u) + g, so its occlusion margin, the largest min(hA, hB) - hP over
 * directions, is at least g + min(ra, rb) > min(ra, rb); and every margin is 1-Lipschitz in the centres.
 * No occluder can hide the pair before the centres have moved min(ra, rb) in total. (A touching occluder
 * gives no such room: the pair is simply tested again next time.)
 */
function visibleRoom(ra: number, rb: number): number {
  return ra < rb ? ra : rb;
}

function hashCell(col: number, row: number): number {
  return (Math.imul(col, 73856093) ^ Math.imul(row, 19349663)) & (HASH_BUCKETS - 1);
}

function checkPoint(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`position must be finite meters (got ${x}, ${y})`);
}
