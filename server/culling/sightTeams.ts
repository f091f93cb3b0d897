// The potential sight's teams: who looks for each team, who is on it, and what it could see at the last
// update. Kept apart from the entity slots (storage per entity) and the verdicts (the geometry): a team is
// the unit the verdicts are pooled over and the views are read by.

/** What a team is: its characters (its eyes), everything on it, and what it could see soon. @internal */
export interface Team {
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

/**
 * The teams of a `PotentialSight`, by index (stable for the life of the sight) and by name. Each team's
 * visible set is kept per entity slot, so it grows with the slots' capacity ({@link resize}).
 * @internal
 */
export class SightTeams {
  readonly list: Team[] = [];
  private readonly byName = new Map<string, number>();
  /** Length of every team's per-slot arrays (set by {@link resize}): the entity slots' capacity. */
  capacity = 0;

  /** Number of teams so far; team indices range over [0, count). */
  get count(): number {
    return this.list.length;
  }

  /** Index of a team by name, or -1. */
  indexOf(name: string): number {
    return this.byName.get(name) ?? -1;
  }

  /** Index of a team by name, the team made (with no look-ahead yet) if it is new. */
  ensure(name: string): number {
    let t = this.byName.get(name);
    if (t === undefined) {
      t = this.list.length;
      this.list.push({ name, lookahead: 0, members: [], allies: [], visible: new Uint8Array(this.capacity), list: new Int32Array(this.capacity), listCount: 0 });
      this.byName.set(name, t);
    }
    return t;
  }

  /** Puts the entity in `slot` on team `t`: among its allies, and among its members if it is a `character`. */
  join(t: number, slot: number, character: boolean): void {
    const tm = this.list[t]!;
    tm.visible[slot] = 0;
    tm.allies.push(slot);
    if (character) tm.members.push(slot);
  }

  /** Takes the entity in `slot` off team `t`. */
  leave(t: number, slot: number): void {
    const tm = this.list[t]!;
    tm.allies.splice(tm.allies.indexOf(slot), 1);
    const m = tm.members.indexOf(slot);
    if (m >= 0) tm.members.splice(m, 1);
  }

  /** No team sees the entity in `slot` any more (it is leaving the sight). */
  forget(slot: number): void {
    for (const team of this.list) team.visible[slot] = 0;
  }

  /** Grows every team's per-slot arrays to the slots' new capacity. */
  resize(capacity: number): void {
    for (const tm of this.list) {
      const visible = new Uint8Array(capacity);
      visible.set(tm.visible);
      tm.visible = visible;
      const list = new Int32Array(capacity);
      list.set(tm.list);
      tm.list = list;
    }
    this.capacity = capacity;
  }
}
