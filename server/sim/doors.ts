import type { Body } from "planck";
import type { OccluderId, Occluders, Point, TiledDoor } from "sightline/occluders";
import { distanceToOutline } from "../../shared/outlineDistance.js";

/** A door of the simulation: the map's object, its occluder (sight) and its body (walking). */
export interface SimDoor {
  /** The Tiled object id: how clients name it (`door` messages, `state.doors` keys). */
  readonly objectId: number;
  readonly name: string;
  readonly outline: readonly Point[];
  readonly occluderId: OccluderId;
  /** Active while shut. */
  readonly body: Body;
  /** The centre of its outline's box and half its diagonal, meters: where the culling places it. */
  readonly x: number;
  readonly y: number;
  readonly radius: number;
  open: boolean;
}

/** Side of the cells doors are indexed in for `openAhead`, meters. */
const CELL = 8;

/** Who may be in a doorway: a character's centre, meters. */
export interface BodyAt {
  getPosition(): { x: number; y: number };
}

/**
 * The doors of a room: opened and shut by players (`request`) and by guards on their way (`openAhead`),
 * each change queued and applied at the start of the next step (`apply`), with the step's other inputs,
 * so sight, culling and the patch all see it in the same tick. A door is one thing to both sight and
 * bodies: its occluder blocks sight while it is shut and its body stops walkers.
 */
export class Doors {
  readonly list: readonly SimDoor[];
  private readonly byObject = new Map<number, SimDoor>();
  /** Requested states, applied by the next `apply`. */
  private readonly pending = new Map<SimDoor, boolean>();
  /**
   * Per cell of {@link CELL} meters over the doors' area, the doors within `reach` of it (cell c holds
   * `cellDoors[cellStart[c] .. cellStart[c + 1])`): every guard asks every tick, so a flat grid, not a map.
   */
  private cellStart = new Int32Array(1);
  private cellDoors: SimDoor[] = [];
  private originCX = 0;
  private originCY = 0;
  private columns = 0;
  private rows = 0;
  private cellReach = -1;

  /**
   * @param doors the map's doors, in its order
   * @param bodies one body per door, in the same order (see `buildMapWorld`)
   */
  constructor(doors: readonly TiledDoor[], bodies: readonly Body[], private readonly occluders: Occluders) {
    this.list = doors.map((d, i) => {
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (const p of d.outline) {
        minX = Math.min(minX, p.x);
        minY = Math.min(minY, p.y);
        maxX = Math.max(maxX, p.x);
        maxY = Math.max(maxY, p.y);
      }
      const door: SimDoor = {
        objectId: d.id, name: d.name, outline: d.outline, occluderId: occluders.tiledDoor(d.id)!, body: bodies[i]!,
        x: (minX + maxX) / 2, y: (minY + maxY) / 2, radius: Math.hypot(maxX - minX, maxY - minY) / 2, open: d.open,
      };
      this.byObject.set(d.id, door);
      return door;
    });
  }

  /** The door made of the Tiled object `objectId`, if any. */
  get(objectId: number): SimDoor | undefined {
    return this.byObject.get(objectId);
  }

  /**
   * A character at (x, y) asks to open or shut a door, applied at the next step. Throws a RangeError
   * saying why when it may not: no such door, out of `reach` (meters), or shutting it on someone.
   */
  request(objectId: number, open: boolean, x: number, y: number, reach: number, bodies: Iterable<BodyAt>, bodyRadius: number): void {
    const door = this.byObject.get(objectId);
    if (door === undefined) throw new RangeError(`there is no door ${objectId} on this map${this.list.length > 0 ? ` (its doors: ${this.list.map((d) => d.objectId).join(", ")})` : ""}`);
    const distance = distanceToOutline(door.outline, x, y);
    if (distance > reach) throw new RangeError(`door ${objectId} is ${distance.toFixed(1)} m away: it can be reached from ${reach} m`);
    if (!open && !this.clear(door, bodies, bodyRadius)) throw new RangeError(`door ${objectId} cannot shut: someone is in the doorway`);
    this.pending.set(door, open);
  }

  /**
   * A body at (x, y) moving with (vx, vy): the first shut door within `reach` of it, on its side of travel,
   * is opened at the next step (a guard on its patrol or chase).
   */
  openAhead(x: number, y: number, vx: number, vy: number, reach: number): void {
    if ((vx === 0 && vy === 0) || this.list.length === 0) return;
    if (reach !== this.cellReach) this.index(reach);
    const cx = Math.floor(x / CELL) - this.originCX;
    const cy = Math.floor(y / CELL) - this.originCY;
    if (cx < 0 || cy < 0 || cx >= this.columns || cy >= this.rows) return;
    const cell = cy * this.columns + cx;
    for (let i = this.cellStart[cell]!; i < this.cellStart[cell + 1]!; i++) {
      const door = this.cellDoors[i]!;
      if (door.open) continue;
      if (Math.abs(door.x - x) > reach + door.radius || Math.abs(door.y - y) > reach + door.radius) continue;
      if ((door.x - x) * vx + (door.y - y) * vy <= 0) continue;
      if (distanceToOutline(door.outline, x, y) > reach || this.pending.get(door) === true) continue;
      this.pending.set(door, true);
      return;
    }
  }

  /**
   * Applies the queued requests, at the start of a step. A shutting that someone walked into meanwhile is
   * dropped. Returns how many doors changed.
   */
  apply(bodies: Iterable<BodyAt>, bodyRadius: number): number {
    if (this.pending.size === 0) return 0;
    let changed = 0;
    for (const [door, open] of this.pending) {
      if (door.open === open) continue;
      if (!open && !this.clear(door, bodies, bodyRadius)) continue;
      door.open = open;
      this.occluders.setOpen(door.occluderId, open);
      door.body.setActive(!open);
      changed++;
    }
    this.pending.clear();
    return changed;
  }

  /** Lists, per cell, the doors within `reach` of it. */
  private index(reach: number): void {
    this.cellReach = reach;
    let c0 = Infinity;
    let r0 = Infinity;
    let c1 = -Infinity;
    let r1 = -Infinity;
    for (const door of this.list) {
      const grow = reach + door.radius;
      c0 = Math.min(c0, Math.floor((door.x - grow) / CELL));
      r0 = Math.min(r0, Math.floor((door.y - grow) / CELL));
      c1 = Math.max(c1, Math.floor((door.x + grow) / CELL));
      r1 = Math.max(r1, Math.floor((door.y + grow) / CELL));
    }
    this.originCX = c0;
    this.originCY = r0;
    this.columns = c1 - c0 + 1;
    this.rows = r1 - r0 + 1;
    const lists: SimDoor[][] = Array.from({ length: this.columns * this.rows }, () => []);
    for (const door of this.list) {
      const grow = reach + door.radius;
      for (let cy = Math.floor((door.y - grow) / CELL); cy <= Math.floor((door.y + grow) / CELL); cy++) {
        for (let cx = Math.floor((door.x - grow) / CELL); cx <= Math.floor((door.x + grow) / CELL); cx++) {
          lists[(cy - r0) * this.columns + (cx - c0)]!.push(door);
        }
      }
    }
    this.cellStart = new Int32Array(lists.length + 1);
    this.cellDoors = [];
    lists.forEach((list, c) => {
      this.cellDoors.push(...list);
      this.cellStart[c + 1] = this.cellDoors.length;
    });
  }

  /** Whether no body overlaps the door's outline. */
  private clear(door: SimDoor, bodies: Iterable<BodyAt>, bodyRadius: number): boolean {
    for (const b of bodies) {
      const at = b.getPosition();
      if (Math.abs(at.x - door.x) > door.radius + bodyRadius || Math.abs(at.y - door.y) > door.radius + bodyRadius) continue;
      if (distanceToOutline(door.outline, at.x, at.y) < bodyRadius) return false;
    }
    return true;
  }
}

