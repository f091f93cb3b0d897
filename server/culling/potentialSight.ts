// The culling's potential sight, the facade over its parts: the entity slots (storage per entity), the
// teams (what each could see) and the pair verdicts (the geometry). Kept apart from the view upkeep and
// the audit, which read it: this is the one place that answers "could this team see that entity soon?".
import type { Occluders } from "../occluders/occluders.js";
import { EntitySlots } from "./entitySlots.js";
import { PairVerdicts } from "./pairVerdicts.js";
import { SightTeams } from "./sightTeams.js";

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
 * team stops testing an entity once one of its characters sees it. A change to the occluders voids only
 * the verdicts it can change (see `OccluderChanges`): a door or a smoke cloud costs a few tests, not a
 * fresh start. Allocation-free per update once the capacity has grown.
 * @internal
 */
export class PotentialSight {
  /** How far characters see, all around, meters (the culling raises it to the longest observer's range). */
  range: number;
  readonly occluders: Occluders;
  private readonly slots = new EntitySlots();
  private readonly teams = new SightTeams();
  private readonly verdicts: PairVerdicts;
  /** Some entity changed team since the last update: memories may hold new teammates, to forget. */
  private teamsChanged = false;
  private readonly teleportDistance: number;
  private readonly slotView: { list: Int32Array; count: number } = { list: new Int32Array(0), count: 0 };

  /**
   * @param range how far characters see, all around, meters (> 0, finite)
   * @param teleportDistance meters an entity may move in one update and still count as having walked
   * there rather than been put there (a respawn): see {@link teleported}
   */
  constructor(occluders: Occluders, range: number, teleportDistance: number) {
    this.occluders = occluders;
    this.range = range;
    this.teleportDistance = teleportDistance;
    this.verdicts = new PairVerdicts(occluders, this.slots, this.teams);
  }

  /** Stops following the occluders. */
  dispose(): void {
    this.verdicts.dispose();
  }

  /** Pairs in reach at the last update (each needed a verdict). */
  get pairsTested(): number {
    return this.verdicts.pairsTested;
  }

  /** Of those, the pairs whose remembered verdict had run out of travel allowance: tested against occluders. */
  get occluderTests(): number {
    return this.verdicts.occluderTests;
  }

  /**
   * Adds an entity at (x, y) with a body radius (meters), on `team` (or none). A `character` looks on
   * behalf of its team. The caller has validated the numbers and the id.
   */
  addEntity(id: string, x: number, y: number, radius: number, team: string | undefined, character: boolean): void {
    const slot = this.slots.add(id, x, y, radius, character);
    if (this.teams.capacity !== this.slots.capacity) this.teams.resize(this.slots.capacity);
    this.join(slot, team);
  }

  /** Moves an entity, meters; false (and nothing moved) for an unknown id. The caller has validated the numbers. */
  moveEntity(id: string, x: number, y: number): boolean {
    return this.slots.move(id, x, y);
  }

  /**
   * Moves an entity and declares the move a teleport (see {@link teleported}), meters; false (and nothing
   * moved) for an unknown id. The caller has validated the numbers.
   */
  placeEntity(id: string, x: number, y: number): boolean {
    return this.slots.place(id, x, y);
  }

  /** Moves an entity to another team (or none). Its slot and generation stay: views keep tracking it. */
  setTeam(id: string, team: string | undefined): void {
    const slot = this.slots.slotOf(id);
    if (slot < 0) return;
    this.leave(slot);
    this.join(slot, team);
    this.slots.regrouped[slot] = 1;
    this.teamsChanged = true;
  }

  /** Drops an entity (and its place on its team). Unknown ids are ignored. */
  removeEntity(id: string): void {
    const slot = this.slots.slotOf(id);
    if (slot < 0) return;
    this.leave(slot);
    this.teams.forget(slot);
    this.slots.release(slot);
  }

  /**
   * How far (meters) the team's characters and every entity may move before the team's clients receive
   * the result: the margin both discs are grown by. The culling sets it from the clients' round trips.
   */
  setLookahead(team: string, meters: number): void {
    this.teams.list[this.teams.ensure(team)]!.lookahead = meters;
  }

  /** Number of teams so far; team indices range over [0, teamCount). */
  get teamCount(): number {
    return this.teams.count;
  }

  /** {@link setLookahead} by team index. */
  setLookaheadOf(t: number, meters: number): void {
    this.teams.list[t]!.lookahead = meters;
  }

  /** How many entities team `t` could potentially see at the last update. */
  visibleCountOf(t: number): number {
    return this.teams.list[t]!.listCount;
  }

  lookahead(team: string): number {
    const t = this.teams.indexOf(team);
    return t < 0 ? 0 : this.teams.list[t]!.lookahead;
  }

  /** Recomputes every team's potentially visible set from the current positions and occluders. */
  update(): void {
    this.slots.advance(this.teleportDistance);
    const teamsChanged = this.teamsChanged;
    this.teamsChanged = false;
    this.verdicts.update(this.range, teamsChanged);
  }

  /** Whether `id` was potentially visible to `team` at the last update. A team's own entities are not listed. */
  sees(team: string, id: string): boolean {
    const t = this.teams.indexOf(team);
    const slot = this.slots.slotOf(id);
    return t >= 0 && slot >= 0 && this.teams.list[t]!.visible[slot] === 1;
  }

  /** Slot of an entity (a small integer, reused after removal; see {@link generationOf}), or -1. */
  slotOf(id: string): number {
    return this.slots.slotOf(id);
  }

  /** Id of the entity in a slot, or undefined for a free slot. */
  idOf(slot: number): string | undefined {
    return this.slots.ids[slot];
  }

  /**
   * Whether the entity in `slot` must leave, at once, the views it stopped qualifying for at the last
   * update: it was put somewhere (a respawn: declared, or farther than the teleport distance) rather than
   * walked there, or it changed team.
   */
  teleported(slot: number): boolean {
    return this.slots.jumped[slot] === 1;
  }

  /**
   * Whether the entity in `slot` is news since the last update that views must not wait for (declared
   * placed, moved farther than the teleport distance, or on another team): see `ViewCulling.settle`.
   */
  changedSinceUpdate(slot: number): boolean {
    return this.slots.changedSinceUpdate(slot, this.teleportDistance);
  }

  /** Whether the entity's move since the last update was declared a teleport ({@link placeEntity}). */
  isPlacing(id: string): boolean {
    const slot = this.slots.slotOf(id);
    return slot >= 0 && this.slots.placing[slot] === 1;
  }

  /**
   * Whether team `t` could potentially see the entity in `slot` where everything is now, without waiting
   * for the next update (the same test, no remembered verdict).
   */
  seesNow(t: number, slot: number): boolean {
    return this.verdicts.seesNow(t, slot, this.range);
  }

  /** Whether the entity's move before the last update was declared a teleport ({@link placeEntity}). */
  wasPlaced(id: string): boolean {
    const slot = this.slots.slotOf(id);
    return slot >= 0 && this.slots.placed[slot] === 1;
  }

  /** Changes whenever the slot is freed or given to another entity. */
  generationOf(slot: number): number {
    return this.slots.generation[slot]!;
  }

  /** Slots in use range over [0, slotCapacity). */
  get slotCapacity(): number {
    return this.slots.capacity;
  }

  /** Index of a team by name, the team made (with no entity yet) if it is new. */
  ensureTeam(team: string): number {
    return this.teams.ensure(team);
  }

  /** Index of a team by name, or -1. Stable for the life of the sight. */
  teamIndexOf(team: string | undefined): number {
    return team === undefined ? -1 : this.teams.indexOf(team);
  }

  /**
   * The slots potentially visible to team `t` at the last update: entries [0, count) of the returned
   * array (live; do not keep it past the next update). For allocation-free per-tick consumers.
   */
  visibleSlotsOf(t: number): { readonly list: Int32Array; readonly count: number } {
    const team = this.teams.list[t]!;
    this.slotView.list = team.list;
    this.slotView.count = team.listCount;
    return this.slotView;
  }

  /** Slots of every entity on team `t`, characters included (live). */
  allySlotsOf(t: number): readonly number[] {
    return this.teams.list[t]!.allies;
  }

  /** Index of the team of the entity in `slot`, or -1: no lookup, for per-tick paths. */
  teamOfSlot(slot: number): number {
    return this.slots.team[slot]!;
  }

  /** The team of an entity, or undefined for one on no team (or an unknown id). */
  teamOf(id: string): string | undefined {
    const slot = this.slots.slotOf(id);
    if (slot < 0 || this.slots.team[slot]! < 0) return undefined;
    return this.teams.list[this.slots.team[slot]!]!.name;
  }

  /** Whether the entity looks on behalf of its team. */
  isCharacter(id: string): boolean {
    const slot = this.slots.slotOf(id);
    return slot >= 0 && this.slots.looks[slot] === 1;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** Position and radius of an entity (meters), written into `out`; false for an unknown id. */
  read(id: string, out: { x: number; y: number; radius: number }): boolean {
    const slot = this.slots.slotOf(id);
    if (slot < 0) return false;
    out.x = this.slots.x[slot]!;
    out.y = this.slots.y[slot]!;
    out.radius = this.slots.radius[slot]!;
    return true;
  }

  /** Ids of every entity. */
  entityIds(): IterableIterator<string> {
    return this.slots.entityIds();
  }

  /** Names of the teams that have (or had) entities. */
  teamNames(): string[] {
    return this.teams.list.map((t) => t.name);
  }

  /** How many characters a team has (with {@link memberOf}, a walk over them that allocates nothing). */
  memberCount(team: string): number {
    const t = this.teams.indexOf(team);
    return t < 0 ? 0 : this.teams.list[t]!.members.length;
  }

  /** The `i`-th character of a team (0 <= i < {@link memberCount}). */
  memberOf(team: string, i: number): string {
    return this.slots.ids[this.teams.list[this.teams.indexOf(team)]!.members[i]!]!;
  }

  private join(slot: number, team: string | undefined): void {
    if (team === undefined) return;
    const t = this.teams.ensure(team);
    const character = this.slots.looks[slot] === 1;
    this.slots.team[slot] = t;
    this.teams.join(t, slot, character);
    if (character) this.verdicts.resetMemory(slot);
  }

  private leave(slot: number): void {
    const t = this.slots.team[slot]!;
    if (t < 0) return;
    this.teams.leave(t, slot);
    this.slots.team[slot] = -1;
  }
}
