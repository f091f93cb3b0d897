import { $changes, type Schema } from "@colyseus/schema";
import { fail } from "../../shared/validation/rangeChecks.js";
import type { Position } from "./sightlineOptions.js";

/** An entity the plugin culls. @internal */
export interface EntityRecord {
  readonly id: string;
  readonly instance: Schema;
  /** Its index in the dense array (for allocation-free updates). */
  index: number;
  /** Its next position read is a teleport (see `SightlinePlugin.teleported`). */
  teleported: boolean;
  /** Its team, as last declared (undefined: none). */
  team: string | undefined;
  /** Whether clients can play or watch it (declared with `character: true`). */
  readonly character: boolean;
  /** Declared `fixed`: its position is read only when added and after a declared teleport. */
  readonly fixed: boolean;
  /** The position last handed to the culling, meters: an unchanged one is not handed again. */
  x: number;
  y: number;
  /** How many sessions' views hold it (by the default tag). */
  holders: number;
  /** Whether its schema changes are paused because no view holds it (see `SessionViews.pauseUnheld`). */
  paused: boolean;
}

/** Where entities are moved to. @internal */
export interface EntityMover {
  moveEntity(id: string, x: number, y: number): void;
  teleportEntity(id: string, x: number, y: number): void;
}

/**
 * The entities a room declared, by id and as a dense array walked at every update, with the reader of
 * their positions. Removal swaps the last record into the gap, so the walk never allocates.
 * @internal
 */
export class EntityRegistry {
  private readonly byId = new Map<string, EntityRecord>();
  private readonly records: EntityRecord[] = [];
  /** Reused by every position read. */
  readonly at: Position = { x: 0, y: 0 };

  /** `read` for moving entities; `readFixed` for fixed ones (the same reader, or a copy of it: see `readFixedXY`). */
  constructor(public read: (instance: Schema, out: Position) => void, public readFixed: (instance: Schema, out: Position) => void = read) {}

  get size(): number {
    return this.records.length;
  }

  get(id: string): EntityRecord | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Every record, densely (do not keep it past a removal). */
  all(): readonly EntityRecord[] {
    return this.records;
  }

  /** Registers an entity whose culling position is (x, y) now. */
  add(id: string, instance: Schema, team: string | undefined, character: boolean, fixed: boolean, x: number, y: number): EntityRecord {
    const record: EntityRecord = { id, instance, index: this.records.length, teleported: false, team, character, fixed, x, y, holders: 0, paused: false };
    this.byId.set(id, record);
    this.records.push(record);
    return record;
  }

  remove(record: EntityRecord): void {
    this.byId.delete(record.id);
    const last = this.records.pop()!;
    if (last !== record) {
      this.records[record.index] = last;
      last.index = record.index;
    }
  }

  /**
   * Reads every position and hands `to` those that changed (and every declared teleport); returns the first
   * entity whose position was not finite (it stays where it was), and how many were not. Called at every
   * update and before every send between updates, where most positions have not moved: comparing is
   * cheaper than handing them on.
   */
  moveAll(to: EntityMover): { bad: EntityRecord | undefined; count: number } {
    const at = this.at;
    let bad: EntityRecord | undefined;
    let count = 0;
    for (let i = 0; i < this.records.length; i++) {
      const r = this.records[i]!;
      if (r.fixed) {
        if (!r.teleported) continue;
        this.readFixed(r.instance, at);
      } else this.read(r.instance, at);
      if (Number.isFinite(at.x) && Number.isFinite(at.y)) {
        if (r.teleported) {
          r.teleported = false;
          to.teleportEntity(r.id, at.x, at.y);
        } else if (at.x !== r.x || at.y !== r.y) to.moveEntity(r.id, at.x, at.y);
        else continue;
        r.x = at.x;
        r.y = at.y;
      } else {
        count++;
        bad ??= r;
      }
    }
    return this.result(bad, count);
  }

  private readonly outcome: { bad: EntityRecord | undefined; count: number } = { bad: undefined, count: 0 };

  private result(bad: EntityRecord | undefined, count: number): { bad: EntityRecord | undefined; count: number } {
    this.outcome.bad = bad;
    this.outcome.count = count;
    return this.outcome;
  }
}

/**
 * Whether an instance's changes have been through a patch since it was made: Colyseus ships a new instance
 * whole from what it recorded, so only an instance past that may have its recording paused.
 * @internal
 */
export function isShipped(instance: Schema): boolean {
  return (instance as unknown as { [$changes]: { isNew: boolean } })[$changes].isNew !== true;
}

/**
 * Refuses, at the call, an instance culling could not work with: one not in the room's state yet (a view
 * cannot hold it: Colyseus would throw at every update), or one outside a `.view()` collection (every
 * client receives it whatever its view holds, so culling it would do nothing). Throws a RangeError naming
 * the id and the fix.
 * @internal
 */
export function checkCullable(method: string, id: string, instance: unknown): void {
  const tree = (instance as { [$changes]?: { root?: unknown; isFiltered?: boolean } } | null)?.[$changes];
  if (typeof instance !== "object" || instance === null || tree === undefined) fail(`${method} instance`, `of ${JSON.stringify(id)} must be its schema instance (a Schema in a .view() collection of your state)`, instance);
  if (tree.root === undefined) {
    fail(`${method} instance`, `of ${JSON.stringify(id)} is not in the room's state: put it in a .view() collection of this.state first, then declare it`, instance);
  }
  if (tree.isFiltered !== true) {
    fail(`${method} instance`, `of ${JSON.stringify(id)} is not in a .view() collection, so every client receives it whatever its view holds: declare its collection with .view() (t.map(X).view(), or @view() on the field)`, instance);
  }
}
