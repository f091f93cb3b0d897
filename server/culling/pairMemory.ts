/**
 * What one character remembers about the entities in its reach: per entity, the occluder that last hid
 * it and the standing verdict's travel limit (see `PairVerdicts`), packed densely in the order the entities
 * came into reach.
 *
 * Why not arrays indexed by entity slot: a character has a few dozen entities in reach out of hundreds,
 * so slot-indexed memory scatters each character's pairs over many cache lines, and reading them was
 * the largest cost of a culling update. Walked in order, a dense list is read sequentially.
 * @internal
 */
export class PairMemory {
  /** Entries in use: [0, count). */
  count = 0;
  /** Entity slot of each entry. */
  entity = new Int32Array(64);
  /** The slot's generation when the entry was made: a freed or reused slot voids the entry. */
  generation = new Int32Array(64);
  /** 1 + the occluder that last hid the entity (0: none). */
  blocker = new Int32Array(64);
  /**
   * The standing verdict, as the reading of both odometers summed (meters) up to which it holds: its travel
   * allowance + both odometers when it was reached; positive for hidden by `blocker`, negative for
   * visible; 0 for none.
   */
  travelLimit = new Float64Array(64);

  /** Appends an entry with no verdict; returns its index. */
  add(entity: number, generation: number): number {
    if (this.count === this.entity.length) this.grow();
    const i = this.count++;
    this.entity[i] = entity;
    this.generation[i] = generation;
    this.blocker[i] = 0;
    this.travelLimit[i] = 0;
    return i;
  }

  /** Moves entry `from` to index `to` (< from), for in-place compaction. */
  moveDown(from: number, to: number): void {
    this.entity[to] = this.entity[from]!;
    this.generation[to] = this.generation[from]!;
    this.blocker[to] = this.blocker[from]!;
    this.travelLimit[to] = this.travelLimit[from]!;
  }

  /** Forgets every verdict (a look-ahead change voids them all), keeping the entries. */
  voidVerdicts(): void {
    this.travelLimit.fill(0, 0, this.count);
  }

  /** Forgets every verdict and every remembered piece (the occluders changed), keeping the entries. */
  voidAll(): void {
    this.travelLimit.fill(0, 0, this.count);
    this.blocker.fill(0, 0, this.count);
  }

  /** Forgets every entry (the slot was given to another character). */
  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const n = this.entity.length * 2;
    const entity = new Int32Array(n);
    entity.set(this.entity);
    const generation = new Int32Array(n);
    generation.set(this.generation);
    const blocker = new Int32Array(n);
    blocker.set(this.blocker);
    const travelLimit = new Float64Array(n);
    travelLimit.set(this.travelLimit);
    this.entity = entity;
    this.generation = generation;
    this.blocker = blocker;
    this.travelLimit = travelLimit;
  }
}
