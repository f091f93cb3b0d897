import type { Occluders } from "../occluders/occluders.js";
import type { PackedOccluders } from "../occluders/packedOccluders.js";
import { EntityGrid } from "./entityGrid.js";
import { PairMemory } from "./pairMemory.js";

/** What a team is: its characters (its eyes), everything on it, and what it could see soon. */
interface Team {
  readonly name: string;
  /** Meters the eye and every target may move before the team's clients hear of it. */
  lookahead: number;
  /** Slots of its characters: the entities that look on its behalf. */
  readonly members: number[];
  /** Slots of every entity on the team, characters included: always in its clients' views. */
  readonly allies: number[];
  /** 1 for every slot potentially visible to the team at the last update (its own entities excluded). */
  visible: Uint8Array;
  /** The same slots as a list. */
  list: Int32Array;
  listCount: number;
}

/** Beyond rounding noise: only a clear negative margin counts as hidden, so ties go to "send it". */
export const HIDDEN_MARGIN = -1e-6;

/**
 * "Could this team see that entity soon?" for anti-wallhack culling: for every team, the set of entities
 * any of its characters could see within its look-ahead, recomputed exactly at every {@link update}.
 *
 * The test, per (character, entity): the eye may be anywhere in the character's body grown by the team's
 * look-ahead d, the entity anywhere in its body grown by d; it is potentially visible when its centre is
 * within `range + radius + 2d` of the character and no single occluder piece hides the whole grown
 * entity from the whole grown eye (`occlusionMargin`). That covers the target's motion and the character's
 * own motion too: a player who steps out from a corner sees far targets sweep past the corner much
 * faster than they move, so growing the target alone would pop in. Pieces are only ever trusted one at a
 * time, so two walls that together hide something do not hide it: culling errs towards sending.
 *
 * The last hiding piece of each pair is tried first (most pairs stay hidden behind the same wall), and a
 * team stops testing an entity once one of its characters sees it. Any change to the occluders voids
 * every remembered verdict. Allocation-free per update once the capacity has grown.
 * @internal
 */
export class PotentialSight {
  /** How far characters see, all around, meters (the culling raises it to the longest observer's range). */
  range: number;
  readonly occluders: Occluders;
  private occluderVersion = -1;
  /** The occluders as of this update. */
  private packed: PackedOccluders;
  private capacity = 0;
  private ids: (string | undefined)[] = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private x = new Float64Array(0);
  private y = new Float64Array(0);
  private radius = new Float64Array(0);
  /** Team index per slot, -1 for an entity on no team. */
  private team = new Int32Array(0);
  /** 1 for a character: an entity that looks on behalf of its team. */
  private looks = new Uint8Array(0);
  private tested = new Int32Array(0);
  private testStamp = 0;
  /**
   * Per character slot: what it remembers of each entity in its reach (see `PairMemory`): the piece that
   * last hid it, and a standing verdict on the pair with how far (meters) it holds with distance to
   * spare. Every piece's margin moves by at most the distance the two centres moved (it is 1-Lipschitz in
   * each), so while the centres have travelled less than that spare distance in total, the verdict stands
   * and costs no test. Stored as the spare distance + both odometers at the time (so ticks in which the
   * pair was not looked at still count): what is left now is |slack| minus both odometers now. Positive:
   * hidden by the remembered piece. Negative: visible (see {@link visibleSpare}). 0: no standing verdict.
   */
  private readonly memory: (PairMemory | undefined)[] = [];
  /** Bumped each time a slot is freed or given to an entity, so memories of its previous holder are void. */
  private generation = new Int32Array(0);
  /** Where each slot was at the previous update, and how far it has travelled in all (meters). */
  private lastX = new Float64Array(0);
  private lastY = new Float64Array(0);
  private odometer = new Float64Array(0);
  /**
   * 1 for a slot whose entity must not linger in views it no longer qualifies for, as of the last update:
   * it moved farther than `teleportDistance` (put somewhere, a respawn), or it changed team since the
   * update before (its old teammates knew where it was; they must not follow it onto the other side).
   */
  private jumped = new Uint8Array(0);
  /** 1 for a slot whose entity changed team since the last update. */
  private regrouped = new Uint8Array(0);
  /** Some entity changed team since the last update: memories may hold new teammates, to forget. */
  private teamsChanged = false;
  private readonly teleportDistance: number;
  /** Each team's look-ahead at the previous update: a change voids its members' verdicts. */
  private readonly lastLookahead: number[] = [];
  private readonly teams: Team[] = [];
  private readonly teamIndex = new Map<string, number>();
  private maxRadius = 0;
  private readonly grid = new EntityGrid();
  private readonly slotView: { list: Int32Array; count: number } = { list: new Int32Array(0), count: 0 };
  /** Pairs in reach at the last update (each needed a verdict). */
  pairsTested = 0;
  /** Of those, the pairs whose remembered verdict had run out of spare distance: tested against occluders. */
  occluderTests = 0;

  /**
   * @param range how far characters see, all around, meters (> 0, finite)
   * @param teleportDistance meters an entity may move in one update and still count as having walked
   * there rather than been put there (a respawn): see {@link teleported}
   */
  constructor(occluders: Occluders, range: number, teleportDistance: number) {
    this.occluders = occluders;
    this.packed = occluders.packed;
    this.range = range;
    this.teleportDistance = teleportDistance;
  }

  /**
   * Adds an entity at (x, y) with a body radius (meters), on `team` (or none). A `character` looks on
   * behalf of its team. The caller has validated the numbers and the id.
   */
  addEntity(id: string, x: number, y: number, radius: number, team: string | undefined, character: boolean): void {
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
    this.regrouped[slot] = 0;
    // A new entity in a reused slot must not inherit anyone's memory of the old one.
    this.generation[slot]!++;
    if (radius > this.maxRadius) this.maxRadius = radius;
    this.team[slot] = -1;
    this.looks[slot] = character ? 1 : 0;
    this.join(slot, team);
  }

  /** Moves an entity, meters; false (and nothing moved) for an unknown id. The caller has validated the numbers. */
  moveEntity(id: string, x: number, y: number): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    this.x[slot] = x;
    this.y[slot] = y;
    return true;
  }

  /** Moves an entity to another team (or none). Its slot and generation stay: views keep tracking it. */
  setTeam(id: string, team: string | undefined): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.leave(slot);
    this.join(slot, team);
    this.regrouped[slot] = 1;
    this.teamsChanged = true;
  }

  /** Drops an entity (and its place on its team). Unknown ids are ignored. */
  removeEntity(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.leave(slot);
    for (const team of this.teams) team.visible[slot] = 0;
    this.slots.delete(id);
    this.ids[slot] = undefined;
    this.generation[slot]!++;
    this.free.push(slot);
  }

  /**
   * How far (meters) the team's characters and every entity may move before the team's clients receive
   * the result: the margin both discs are grown by. The culling sets it from the clients' round trips.
   */
  setLookahead(team: string, meters: number): void {
    this.teams[this.ensureTeam(team)]!.lookahead = meters;
  }

  /** Number of teams so far; team indices range over [0, teamCount). */
  get teamCount(): number {
    return this.teams.length;
  }

  /** {@link setLookahead} by team index. */
  setLookaheadOf(t: number, meters: number): void {
    this.teams[t]!.lookahead = meters;
  }

  /** How many entities team `t` could potentially see at the last update. */
  visibleCountOf(t: number): number {
    return this.teams[t]!.listCount;
  }

  lookahead(team: string): number {
    const t = this.teamIndex.get(team);
    return t === undefined ? 0 : this.teams[t]!.lookahead;
  }

  /** Recomputes every team's potentially visible set from the current positions and occluders. */
  update(): void {
    this.packed = this.occluders.packed;
    if (this.occluders.version !== this.occluderVersion) {
      // Piece indices and every verdict's spare distance assumed the old set: a new wall must hide at once.
      for (const m of this.memory) m?.voidAll();
      this.occluderVersion = this.occluders.version;
    }
    if (this.teamsChanged) this.forgetTeammates();
    this.grid.rebuild(this.capacity, this.ids, this.x, this.y, this.range / 2);
    this.pairsTested = 0;
    this.occluderTests = 0;
    for (let s = 0; s < this.capacity; s++) {
      if (this.ids[s] === undefined) continue;
      const dx = this.x[s]! - this.lastX[s]!;
      const dy = this.y[s]! - this.lastY[s]!;
      const step = Math.sqrt(dx * dx + dy * dy);
      this.odometer[s]! += step;
      this.jumped[s] = step > this.teleportDistance || this.regrouped[s] === 1 ? 1 : 0;
      this.regrouped[s] = 0;
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

  /** Whether `id` was potentially visible to `team` at the last update. A team's own entities are not listed. */
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
   * Whether the entity in `slot` must leave, at once, the views it stopped qualifying for at the last
   * update: it was put somewhere (a respawn) rather than walked there, or it changed team.
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
  teamIndexOf(team: string | undefined): number {
    return team === undefined ? -1 : this.teamIndex.get(team) ?? -1;
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

  /** Slots of every entity on team `t`, characters included (live). */
  allySlotsOf(t: number): readonly number[] {
    return this.teams[t]!.allies;
  }

  /** Index of the team of the entity in `slot`, or -1: no lookup, for per-tick paths. */
  teamOfSlot(slot: number): number {
    return this.team[slot]!;
  }

  /** The team of an entity, or undefined for one on no team (or an unknown id). */
  teamOf(id: string): string | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined || this.team[slot]! < 0) return undefined;
    return this.teams[this.team[slot]!]!.name;
  }

  /** Whether the entity looks on behalf of its team. */
  isCharacter(id: string): boolean {
    const slot = this.slots.get(id);
    return slot !== undefined && this.looks[slot] === 1;
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

  /** Names of the teams that have (or had) entities. */
  teamNames(): string[] {
    return this.teams.map((t) => t.name);
  }

  /** How many characters a team has (with {@link memberOf}, a walk over them that allocates nothing). */
  memberCount(team: string): number {
    const t = this.teamIndex.get(team);
    return t === undefined ? 0 : this.teams[t]!.members.length;
  }

  /** The `i`-th character of a team (0 <= i < {@link memberCount}). */
  memberOf(team: string, i: number): string {
    return this.ids[this.teams[this.teamIndex.get(team)!]!.members[i]!]!;
  }

  private join(slot: number, team: string | undefined): void {
    if (team === undefined) return;
    const t = this.ensureTeam(team);
    const tm = this.teams[t]!;
    this.team[slot] = t;
    tm.visible[slot] = 0;
    tm.allies.push(slot);
    if (this.looks[slot] !== 1) return;
    tm.members.push(slot);
    // Its verdicts were reached with its old team's look-ahead (or by a previous holder of the slot).
    const memory = this.memory[slot];
    if (memory === undefined) this.memory[slot] = new PairMemory();
    else memory.clear();
  }

  private leave(slot: number): void {
    const t = this.team[slot]!;
    if (t < 0) return;
    const tm = this.teams[t]!;
    tm.allies.splice(tm.allies.indexOf(slot), 1);
    const m = tm.members.indexOf(slot);
    if (m >= 0) tm.members.splice(m, 1);
    this.team[slot] = -1;
  }

  /** Drops, from every character's memory, the entities now on its own team (they are in its views anyway). */
  private forgetTeammates(): void {
    this.teamsChanged = false;
    for (let t = 0; t < this.teams.length; t++) {
      for (const c of this.teams[t]!.members) {
        const memory = this.memory[c]!;
        let kept = 0;
        for (let i = 0; i < memory.count; i++) {
          if (this.team[memory.entity[i]!] === t && memory.generation[i] === this.generation[memory.entity[i]!]) continue;
          if (kept !== i) memory.moveDown(i, kept);
          kept++;
        }
        memory.count = kept;
      }
    }
  }

  private look(c: number, t: number, team: Team, d: number): void {
    const cx = this.x[c]!;
    const cy = this.y[c]!;
    const ra = this.radius[c]! + d;
    const stamp = ++this.testStamp;
    const memory = this.memory[c]!;
    const odometerC = this.odometer[c]!;
    const reachBase = this.range + 2 * d;
    // 1. The entities it already knows, in memory order (sequential reads); those gone or out of reach
    // are forgotten (those that joined its team were, at the start of the update).
    let kept = 0;
    for (let i = 0; i < memory.count; i++) {
      const e = memory.entity[i]!;
      if (memory.generation[i] !== this.generation[e]) continue;
      const dx = this.x[e]! - cx;
      const dy = this.y[e]! - cy;
      const reach = reachBase + this.radius[e]!;
      if (dx * dx + dy * dy > reach * reach) continue;
      if (kept !== i) memory.moveDown(i, kept);
      const j = kept++;
      this.tested[e] = stamp;
      if (team.visible[e] === 1) continue;
      this.decide(team, memory, j, odometerC, e, cx, cy, ra, d);
    }
    memory.count = kept;
    // 2. Entities that came into reach: from the hash grid.
    const reachMax = reachBase + this.maxRadius;
    const grid = this.grid;
    const start = grid.start;
    const items = grid.items;
    const cs = grid.cellSize;
    const c0 = Math.floor((cx - reachMax) / cs);
    const c1 = Math.floor((cx + reachMax) / cs);
    const r0 = Math.floor((cy - reachMax) / cs);
    const r1 = Math.floor((cy + reachMax) / cs);
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const bucket = grid.bucket(col, row);
        const end = start[bucket + 1]!;
        for (let i = start[bucket]!; i < end; i++) {
          const e = items[i]!;
          if (e === c || this.team[e] === t || this.tested[e] === stamp) continue;
          this.tested[e] = stamp;
          const dx = this.x[e]! - cx;
          const dy = this.y[e]! - cy;
          const reach = reachBase + this.radius[e]!;
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
    const occ = this.packed;
    const bx = this.x[e]!;
    const by = this.y[e]!;
    const slack = memory.slack;
    const travelled = odometerC + this.odometer[e]!;
    const standing = slack[j]!;
    // Visible last time with distance to spare: still visible while the centres moved less than that.
    if (standing < 0 && -standing - travelled > 0) return false;
    const last = memory.blocker[j]! - 1;
    if (last >= 0 && standing - travelled > -HIDDEN_MARGIN) return true;
    this.occluderTests++;
    // The spare distance a visible verdict will have: what no piece off the centre segment can take away,
    // less for each piece on it (a lower bound of its margin).
    let spare = visibleSpare(ra, rb);
    if (last >= 0) {
      const m = occ.margin(last, ax, ay, ra, bx, by, rb);
      if (m < HIDDEN_MARGIN) {
        slack[j] = -m + travelled;
        return true;
      }
      if (m < spare && occ.crosses(last, ax, ay, bx, by)) spare = m;
    }
    slack[j] = 0;
    const n = occ.gatherAlong(ax, ay, bx, by);
    const gathered = occ.gathered;
    for (let i = 0; i < n; i++) {
      const k = gathered[i]!;
      if (k === last || !occ.crosses(k, ax, ay, bx, by)) continue;
      const m = occ.clearance(k, ax, ay, ra, bx, by, rb, HIDDEN_MARGIN);
      if (m < HIDDEN_MARGIN) {
        memory.blocker[j] = k + 1;
        return true;
      }
      if (m < spare) spare = m;
    }
    if (spare > 0) slack[j] = -(spare + travelled);
    return false;
  }

  private ensureTeam(name: string): number {
    let t = this.teamIndex.get(name);
    if (t === undefined) {
      t = this.teams.length;
      this.teams.push({ name, lookahead: 0, members: [], allies: [], visible: new Uint8Array(this.capacity), list: new Int32Array(this.capacity), listCount: 0 });
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
    this.looks = resize(this.looks, (n) => new Uint8Array(n));
    this.tested = resize(this.tested, (n) => new Int32Array(n));
    this.generation = resize(this.generation, (n) => new Int32Array(n));
    this.lastX = resize(this.lastX, (n) => new Float64Array(n));
    this.lastY = resize(this.lastY, (n) => new Float64Array(n));
    this.odometer = resize(this.odometer, (n) => new Float64Array(n));
    this.jumped = resize(this.jumped, (n) => new Uint8Array(n));
    this.regrouped = resize(this.regrouped, (n) => new Uint8Array(n));
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
 * How far (meters, summed over both centres) a pair may move and stay visible, when no piece touches the
 * segment between the centres. For a piece P at distance g > 0 from that segment there is a direction u
 * with min(a.u, b.u) >= hP(u) + g, so its occlusion margin, the largest min(hA, hB) - hP over directions,
 * is at least g + min(ra, rb) > min(ra, rb); and every margin is 1-Lipschitz in the centres. No piece can
 * hide the pair before the centres have moved min(ra, rb) in total. (A touching piece gives no such
 * spare distance: the pair is simply tested again next time.)
 */
function visibleSpare(ra: number, rb: number): number {
  return ra < rb ? ra : rb;
}
