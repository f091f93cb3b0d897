// The potential sight's verdicts: for every (character, entity) pair in reach, whether the entity may be
// visible to the character now or within the team's look-ahead, remembered with how far the pair may
// travel before the verdict must be reached again. Kept apart from the slots and teams it reads: this
// is the geometry and the per-update hot path, and nothing else in the sight needs the occluders.
import type { Occluders } from "../occluders/occluders.js";
import type { PackedOccluders } from "../occluders/packedOccluders.js";
import { EntityGrid } from "./entityGrid.js";
import type { EntitySlots } from "./entitySlots.js";
import { OccluderChanges } from "./occluderChanges.js";
import { PairMemory } from "./pairMemory.js";
import type { SightTeams, Team } from "./sightTeams.js";

/** Beyond rounding noise: only a clear negative margin counts as hidden, so ties go to "send it". @internal */
export const HIDDEN_MARGIN = -1e-6;

/**
 * The verdict pass of a `PotentialSight` (see there for the test): at each {@link update}, every team's
 * visible set from its characters' verdicts on the entities in their reach, found through a hash grid.
 * Allocation-free per update once the capacity has grown.
 * @internal
 */
export class PairVerdicts {
  /** What changed in the occluders since the last update: which remembered verdicts it voids. */
  private readonly changes: OccluderChanges;
  /** The occluders as of this update. */
  private packed: PackedOccluders;
  private testStamp = 0;
  /**
   * Per character slot: what it remembers of each entity in its reach (see `PairMemory`): the piece that
   * last hid it, and a standing verdict on the pair with its travel allowance: how far (meters) the two
   * centres may move, in total, before the verdict could change. Every piece's margin moves by at most
   * the distance the two centres moved (it is 1-Lipschitz in each), so while the centres have travelled
   * less than the allowance, the verdict stands and costs no test. Stored as the allowance + both
   * odometers at the time (so ticks in which the pair was not looked at still count), the pair's travel
   * limit: what is left now is |limit| minus both odometers now. Positive: hidden by the remembered
   * piece. Negative: visible (see {@link visibleAllowance}). 0: no standing verdict.
   */
  private readonly memory: (PairMemory | undefined)[] = [];
  /** Each team's look-ahead at the previous update: a change voids its members' verdicts. */
  private readonly lastLookahead: number[] = [];
  private readonly grid = new EntityGrid();
  /** Pairs in reach at the last update (each needed a verdict). */
  pairsTested = 0;
  /** Of those, the pairs whose remembered verdict had run out of travel allowance: tested against occluders. */
  occluderTests = 0;

  constructor(
    private readonly occluders: Occluders,
    private readonly slots: EntitySlots,
    private readonly teams: SightTeams,
  ) {
    this.packed = occluders.packed;
    this.changes = new OccluderChanges(occluders);
  }

  /** Stops following the occluders. */
  dispose(): void {
    this.changes.dispose();
  }

  /** The character in `slot` starts afresh: its verdicts were reached for its old team's look-ahead (or by a previous holder of the slot). */
  resetMemory(slot: number): void {
    const memory = this.memory[slot];
    if (memory === undefined) this.memory[slot] = new PairMemory();
    else memory.clear();
  }

  /**
   * Recomputes every team's visible set from the current positions and occluders, characters seeing up
   * to `range` meters. `teamsChanged`: some entity changed team since the last update.
   */
  update(range: number, teamsChanged: boolean): void {
    this.packed = this.occluders.packed;
    const changes = this.changes;
    changes.begin();
    // Renumbered pieces: no remembered piece index holds.
    if (changes.layoutChanged) for (const m of this.memory) m?.voidAll();
    else if (changes.anyStronger) this.voidVisibleAcrossStronger(range);
    if (teamsChanged) this.forgetTeammates();
    const slots = this.slots;
    this.grid.rebuild(slots.capacity, slots.ids, slots.x, slots.y, range / 2);
    this.pairsTested = 0;
    this.occluderTests = 0;
    const teams = this.teams.list;
    for (let t = 0; t < teams.length; t++) {
      const team = teams[t]!;
      if (this.lastLookahead[t] !== team.lookahead) {
        for (const c of team.members) this.memory[c]!.voidVerdicts();
        this.lastLookahead[t] = team.lookahead;
      }
      for (let i = 0; i < team.listCount; i++) team.visible[team.list[i]!] = 0;
      team.listCount = 0;
      const d = team.lookahead;
      for (const c of team.members) this.look(c, t, team, d, range);
    }
    changes.end();
  }

  /**
   * Whether a character of team `t` could potentially see the entity in slot `e` where both are now, by
   * the update's test (each disc grown by the team's look-ahead, range `range` meters, one piece at a
   * time) with no remembered verdict: for a decision that cannot wait for the next update (a teleport
   * between two updates). Reads the occluders as they are now.
   */
  seesNow(t: number, e: number, range: number): boolean {
    const team = this.teams.list[t]!;
    const slots = this.slots;
    const d = team.lookahead;
    const bx = slots.x[e]!;
    const by = slots.y[e]!;
    const rb = slots.radius[e]! + d;
    const occ = this.occluders.packed;
    for (const c of team.members) {
      if (c === e) return true;
      const ax = slots.x[c]!;
      const ay = slots.y[c]!;
      const reach = range + 2 * d + slots.radius[e]!;
      if ((bx - ax) ** 2 + (by - ay) ** 2 > reach * reach) continue;
      const ra = slots.radius[c]! + d;
      let hidden = false;
      const n = occ.gatherAlong(ax, ay, bx, by);
      const gathered = occ.gathered;
      for (let i = 0; i < n && !hidden; i++) {
        const k = gathered[i]!;
        if (occ.crosses(k, ax, ay, bx, by)) hidden = occ.clearance(k, ax, ay, ra, bx, by, rb, HIDDEN_MARGIN) < HIDDEN_MARGIN;
      }
      if (!hidden) return true;
    }
    return false;
  }

  /**
   * Voids every standing visible verdict whose centre segment, where both are now, a piece that blocks
   * more since the last update may touch: only such a piece can hide the pair within its travel allowance.
   * Every verdict, not only those this update will read: one a teammate's sight makes unneeded now stays
   * in memory for later updates.
   */
  private voidVisibleAcrossStronger(range: number): void {
    const x = this.slots.x;
    const y = this.slots.y;
    const generation = this.slots.generation;
    const changes = this.changes;
    // A pair in a character's memory is within its reach: no farther than the farthest reach of any team.
    let reach = 0;
    for (const team of this.teams.list) if (team.lookahead > reach) reach = team.lookahead;
    reach = range + 2 * reach + this.slots.maxRadius;
    for (const teamEntry of this.teams.list) {
      for (const c of teamEntry.members) {
        const memory = this.memory[c]!;
        const ax = x[c]!;
        const ay = y[c]!;
        if (!changes.strongerNear(ax, ay, reach)) continue;
        const limits = memory.travelLimit;
        for (let i = 0; i < memory.count; i++) {
          if (limits[i]! >= 0) continue;
          const e = memory.entity[i]!;
          if (memory.generation[i] !== generation[e]) continue;
          if (changes.strongerAcross(ax, ay, x[e]!, y[e]!)) limits[i] = 0;
        }
      }
    }
  }

  /** Drops, from every character's memory, the entities now on its own team (they are in its views anyway). */
  private forgetTeammates(): void {
    const teamOf = this.slots.team;
    const generation = this.slots.generation;
    const teams = this.teams.list;
    for (let t = 0; t < teams.length; t++) {
      for (const c of teams[t]!.members) {
        const memory = this.memory[c]!;
        let kept = 0;
        for (let i = 0; i < memory.count; i++) {
          if (teamOf[memory.entity[i]!] === t && memory.generation[i] === generation[memory.entity[i]!]) continue;
          if (kept !== i) memory.moveDown(i, kept);
          kept++;
        }
        memory.count = kept;
      }
    }
  }

  private look(c: number, t: number, team: Team, d: number, range: number): void {
    // The slots' arrays, read once per character: they are only replaced when an entity is added.
    const slots = this.slots;
    const x = slots.x;
    const y = slots.y;
    const radius = slots.radius;
    const odometer = slots.odometer;
    const generation = slots.generation;
    const teamOf = slots.team;
    const tested = slots.tested;
    const cx = x[c]!;
    const cy = y[c]!;
    const ra = radius[c]! + d;
    const stamp = ++this.testStamp;
    const memory = this.memory[c]!;
    const odometerC = odometer[c]!;
    const reachBase = range + 2 * d;
    // 1. The entities it already knows, in memory order (sequential reads); those gone or out of reach
    // are forgotten (those that joined its team were, at the start of the update).
    let kept = 0;
    for (let i = 0; i < memory.count; i++) {
      const e = memory.entity[i]!;
      if (memory.generation[i] !== generation[e]) continue;
      const bx = x[e]!;
      const by = y[e]!;
      const dx = bx - cx;
      const dy = by - cy;
      const reach = reachBase + radius[e]!;
      if (dx * dx + dy * dy > reach * reach) continue;
      if (kept !== i) memory.moveDown(i, kept);
      const j = kept++;
      tested[e] = stamp;
      if (team.visible[e] === 1) continue;
      this.decide(team, memory, j, e, odometerC + odometer[e]!, cx, cy, ra, bx, by, radius[e]! + d);
    }
    memory.count = kept;
    // 2. Entities that came into reach: from the hash grid.
    const reachMax = reachBase + slots.maxRadius;
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
          if (e === c || teamOf[e] === t || tested[e] === stamp) continue;
          tested[e] = stamp;
          const bx = x[e]!;
          const by = y[e]!;
          const dx = bx - cx;
          const dy = by - cy;
          const reach = reachBase + radius[e]!;
          if (dx * dx + dy * dy > reach * reach) continue;
          const j = memory.add(e, generation[e]!);
          if (team.visible[e] === 1) continue;
          this.decide(team, memory, j, e, odometerC + odometer[e]!, cx, cy, ra, bx, by, radius[e]! + d);
        }
      }
    }
  }

  /**
   * The verdict on entry `j` of a character's memory (entity `e`, in reach), added to the team's set if
   * visible. `travelled`: both odometers now, meters; the eye at (ax, ay) and the target at (bx, by), grown
   * to radii `ra` and `rb`.
   */
  private decide(team: Team, memory: PairMemory, j: number, e: number, travelled: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number): void {
    this.pairsTested++;
    if (this.hidden(memory, j, travelled, ax, ay, ra, bx, by, rb)) return;
    team.visible[e] = 1;
    team.list[team.listCount++] = e;
  }

  private hidden(memory: PairMemory, j: number, travelled: number, ax: number, ay: number, ra: number, bx: number, by: number, rb: number): boolean {
    const occ = this.packed;
    const travelLimit = memory.travelLimit;
    const limit = travelLimit[j]!;
    // Visible last time with allowance left: still visible while the centres moved less than that.
    if (limit < 0 && -limit - travelled > 0) return false;
    let last = memory.blocker[j]! - 1;
    if (last >= 0 && !occ.isActive(last)) {
      // The piece that hid it blocks nothing now (a door opened, a cloud thinned, a wall removed).
      memory.blocker[j] = 0;
      last = -1;
    }
    if (last >= 0 && limit - travelled > -HIDDEN_MARGIN) return true;
    this.occluderTests++;
    // The travel allowance a visible verdict will have: what no piece off the centre segment can take
    // away, less for each piece on it (a lower bound of its margin).
    let allowance = visibleAllowance(ra, rb);
    if (last >= 0) {
      const m = occ.margin(last, ax, ay, ra, bx, by, rb);
      if (m < HIDDEN_MARGIN) {
        travelLimit[j] = -m + travelled;
        return true;
      }
      if (m < allowance && occ.crosses(last, ax, ay, bx, by)) allowance = m;
    }
    travelLimit[j] = 0;
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
      if (m < allowance) allowance = m;
    }
    if (allowance > 0) travelLimit[j] = -(allowance + travelled);
    return false;
  }
}

/**
 * How far (meters, summed over both centres) a pair may move and stay visible, when no piece touches the
 * segment between the centres. For a piece P at distance g > 0 from that segment there is a direction u
 * with min(a.u, b.u) >= hP(u) + g, so its occlusion margin, the largest min(hA, hB) - hP over directions,
 * is at least g + min(ra, rb) > min(ra, rb); and every margin is 1-Lipschitz in the centres. No piece can
 * hide the pair before the centres have moved min(ra, rb) in total. (A touching piece gives no such
 * travel allowance: the pair is simply tested again next time.)
 */
function visibleAllowance(ra: number, rb: number): number {
  return ra < rb ? ra : rb;
}
