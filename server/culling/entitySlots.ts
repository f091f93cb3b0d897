// The potential sight's per-entity storage: one slot per entity, its fields in typed arrays indexed by
// slot. Kept apart from the teams and the verdicts because it is plain storage (grown by doubling,
// recycled through a free list) that the verdicts, the view upkeep and the audit all read by slot.

/**
 * The entities of a `PotentialSight`, one slot each: position, radius, team, motion since the last update.
 * Slots are small integers reused after removal (a slot's generation changes each time it is freed or
 * given out, so a record of its previous holder can tell it is void), and each field is a typed array
 * indexed by slot, so the per-update passes read them without hashing ids or chasing objects. The
 * arrays are replaced when the capacity grows: read them through this object, not from a kept reference.
 * @internal
 */
export class EntitySlots {
  /** Slots in use range over [0, capacity). */
  capacity = 0;
  /** Id of the entity in each slot, undefined for a free slot. */
  ids: (string | undefined)[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly free: number[] = [];
  /** Position, meters. */
  x = new Float64Array(0);
  y = new Float64Array(0);
  /** Body radius, meters. */
  radius = new Float64Array(0);
  /** The largest radius ever given to an entity, meters (how far past a cell an entity's body may reach). */
  maxRadius = 0;
  /** Team index per slot, -1 for an entity on no team. */
  team = new Int32Array(0);
  /** 1 for a character: an entity that looks on behalf of its team. */
  looks = new Uint8Array(0);
  /** Scratch of the verdict pass: the stamp of the last character that considered the slot. */
  tested = new Int32Array(0);
  /** Bumped each time a slot is freed or given to an entity, so memories of its previous holder are void. */
  generation = new Int32Array(0);
  /** Where each slot was at the previous update, and how far it has travelled in all (meters). */
  lastX = new Float64Array(0);
  lastY = new Float64Array(0);
  odometer = new Float64Array(0);
  /**
   * 1 for a slot whose entity must not linger in views it no longer qualifies for, as of the last update:
   * it moved farther than `teleportDistance` (put somewhere, a respawn), or it changed team since the
   * update before (its old teammates knew where it was; they must not follow it onto the other side).
   */
  jumped = new Uint8Array(0);
  /** 1 for a slot whose entity changed team since the last update. */
  regrouped = new Uint8Array(0);
  /** 1 for a slot whose entity was declared put where it is ({@link place}) since the last update. */
  placing = new Uint8Array(0);
  /**
   * 1 for a slot whose last move was declared a teleport, as of the last update: a respawn or a portal
   * may be shorter than `teleportDistance`, yet it is no walk, and no look-ahead covers it.
   */
  placed = new Uint8Array(0);

  /**
   * Gives an entity a slot (growing the capacity when none is free), on no team yet; returns the slot.
   * The caller has validated the numbers and the id.
   */
  add(id: string, x: number, y: number, radius: number, character: boolean): number {
    if (this.free.length === 0) this.grow();
    const slot = this.free.pop()!;
    this.slotById.set(id, slot);
    this.ids[slot] = id;
    this.x[slot] = x;
    this.y[slot] = y;
    this.radius[slot] = radius;
    this.lastX[slot] = x;
    this.lastY[slot] = y;
    this.jumped[slot] = 0;
    this.regrouped[slot] = 0;
    this.placing[slot] = 0;
    this.placed[slot] = 0;
    // A new entity in a reused slot must not inherit anyone's memory of the old one.
    this.generation[slot]!++;
    if (radius > this.maxRadius) this.maxRadius = radius;
    this.team[slot] = -1;
    this.looks[slot] = character ? 1 : 0;
    return slot;
  }

  /** Moves an entity, meters; false (and nothing moved) for an unknown id. */
  move(id: string, x: number, y: number): boolean {
    return this.moveSlot(id, x, y) >= 0;
  }

  /** Moves an entity and declares the move a teleport, meters; false (and nothing moved) for an unknown id. */
  place(id: string, x: number, y: number): boolean {
    const slot = this.moveSlot(id, x, y);
    if (slot < 0) return false;
    this.placing[slot] = 1;
    return true;
  }

  /** Moves an entity, meters; returns its slot, or -1 (and nothing moved) for an unknown id. */
  private moveSlot(id: string, x: number, y: number): number {
    const slot = this.slotById.get(id);
    if (slot === undefined) return -1;
    this.x[slot] = x;
    this.y[slot] = y;
    return slot;
  }

  /**
   * Whether the entity in `slot` is news since the last update that views must not wait for: it was
   * declared put somewhere ({@link place}), moved farther than `teleportDistance` (meters) from where that
   * update left it, or changed team.
   */
  changedSinceUpdate(slot: number, teleportDistance: number): boolean {
    if (this.placing[slot] === 1 || this.regrouped[slot] === 1) return true;
    const dx = this.x[slot]! - this.lastX[slot]!;
    const dy = this.y[slot]! - this.lastY[slot]!;
    return dx * dx + dy * dy > teleportDistance * teleportDistance;
  }

  /** Frees the slot of an entity (the caller has taken it off its team). */
  release(slot: number): void {
    this.slotById.delete(this.ids[slot]!);
    this.ids[slot] = undefined;
    this.generation[slot]!++;
    this.free.push(slot);
  }

  /** Slot of an entity, or -1. */
  slotOf(id: string): number {
    return this.slotById.get(id) ?? -1;
  }

  has(id: string): boolean {
    return this.slotById.has(id);
  }

  /** Ids of every entity. */
  entityIds(): IterableIterator<string> {
    return this.slotById.keys();
  }

  /**
   * Adds each entity's step since the previous update to its odometer and flags those that must not
   * linger: a step longer than `teleportDistance` (meters) or declared a teleport, or a team change.
   */
  advance(teleportDistance: number): void {
    for (let s = 0; s < this.capacity; s++) {
      if (this.ids[s] === undefined) continue;
      const dx = this.x[s]! - this.lastX[s]!;
      const dy = this.y[s]! - this.lastY[s]!;
      const step = Math.sqrt(dx * dx + dy * dy);
      this.odometer[s]! += step;
      const placed = this.placing[s]!;
      this.placed[s] = placed;
      this.placing[s] = 0;
      this.jumped[s] = step > teleportDistance || placed === 1 || this.regrouped[s] === 1 ? 1 : 0;
      this.regrouped[s] = 0;
      this.lastX[s] = this.x[s]!;
      this.lastY[s] = this.y[s]!;
    }
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
    this.placing = resize(this.placing, (n) => new Uint8Array(n));
    this.placed = resize(this.placed, (n) => new Uint8Array(n));
    for (let s = cap - 1; s >= old; s--) this.free.push(s);
    this.ids.length = cap;
    this.capacity = cap;
  }
}
