import { fail, finite, nonNegative, object, positive } from "../../shared/validation/rangeChecks.js";
import { piecesOf } from "./convexPieces.js";
import { OccluderPiece } from "./occluderPiece.js";
import { PackedOccluders } from "./packedOccluders.js";
import type { Point } from "./point.js";
import { signedArea } from "./triangulate.js";
import { ChangeFeed, type OccluderAreaListener } from "./changeFeed.js";
import { addWorldOccluders } from "./fromWorld.js";
import { addLevelOccluders } from "./fromLevel.js";
import { EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import type { World } from "planck";
import { readTiledMap, type TiledLevel, type TiledReadOptions } from "../../shared/tiled/index.js";
import { smokeDensity, smokeLife, smokeRadius, type SmokeLife, type SmokeOptions, type SmokeState } from "./smokeCloud.js";

/** Handle of one occluder in an {@link Occluders}, returned by its `add*` methods. */
export type OccluderId = number;

/** Options of an {@link Occluders}. */
export interface OccludersOptions {
  /**
   * Side of the uniform grid cells the occluders are indexed in, meters. Around the length of a typical
   * wall works best; it grows by itself when the level is too large for a million cells. Default 4.
   */
  cellSize?: number;
}

/** Options of {@link Occluders.addDoor}. */
export interface DoorOptions {
  /** Whether it starts open (not blocking sight). @default false */
  open?: boolean;
}


/** What an `Occluders` holds for one id. */
interface OccluderRecord {
  readonly kind: "wall" | "door" | "smoke";
  readonly pieces: OccluderPiece[];
  /** A door: open now. */
  open?: boolean;
  /** A smoke cloud: its settings, age (seconds) and centre. */
  smoke?: { life: SmokeLife; age: number; x: number; y: number };
}

/** Removed pieces kept in place (so other pieces keep their index) before the set is compacted: at least this many, and half the set. */
const COMPACT_AFTER = 64;

/**
 * What blocks sight, without a physics engine, in world meters: walls, pillars and crates given as
 * rectangles, polygons (concave ones are split into convex pieces for you), segments and circles; doors
 * that open and close ({@link addDoor}); smoke clouds that grow, thin and go ({@link addSmoke}, aged by
 * {@link advance}); and anything removed for good ({@link remove}: a wall that breaks). Everything in it
 * is opaque while it blocks; leave glass out.
 *
 * This is the one place a level says what blocks sight. A `VisionSystem`, a `ViewCulling` and a tile
 * opacity grid (`OccluderOpacity` in `sightline/fov`) built on the same `Occluders` share it, and all
 * follow every change from their next tick or update: a door opened between two ticks is open for all
 * three at the next one. Opening, closing, growing and removing cost no rebuild; adding does, once.
 * Build one from a Tiled map with {@link Occluders.fromTiled}, or from the static fixtures of a planck
 * `World` with {@link Occluders.fromWorld}.
 *
 * ```ts
 * const occluders = new Occluders();
 * occluders.addRectangle(10, 4, 0.5, 6);                   // a wall 0.5 m thick, 6 m long
 * const pillar = occluders.addCircle(20, 8, 1);
 * occluders.addPolygon([{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 1 }, { x: 1, y: 1 }, { x: 1, y: 4 }, { x: 0, y: 4 }]); // an L
 * occluders.remove(pillar);
 * const door = occluders.addDoor([{ x: 10, y: 10 }, { x: 11, y: 10 }, { x: 11, y: 10.2 }, { x: 10, y: 10.2 }]);
 * occluders.setOpen(door, true);
 * occluders.addSmoke(15, 12, { radius: 3, seconds: 10 }); // then occluders.advance(dt) every tick
 * ```
 */
export class Occluders {
  private readonly cellSize: number;
  private readonly groups = new Map<OccluderId, OccluderRecord>();
  /** Every piece in packed order: pieces keep their index until a compaction drops the removed ones. */
  private order: OccluderPiece[] = [];
  private removedPieces = 0;
  private readonly smokes = new Set<OccluderId>();
  /** Tiled object id -> the door made of it (`fromTiled`, `fromLevel`). */
  private readonly tiledDoors = new Map<number, OccluderId>();
  private nextId = 1;
  private packedCache: PackedOccluders | null = null;
  private readonly feed = new ChangeFeed();
  private changes = 0;
  private compactions = 0;

  /**
   * The static occluders of a planck `World`: every fixture of its static, active bodies that blocks
   * sight (not a sensor, and a category inside `opaqueMask`), one occluder per fixture. Moving bodies are
   * left out (culling treats them as transparent: a door that opens must not hide what is behind it). A
   * snapshot: add or remove walls on the returned set afterwards, or build a new one.
   * @param options.opaqueMask collision category bits that block sight. Default 0xFFFF (every category).
   */
  static fromWorld(world: World, options: OccludersOptions & { opaqueMask?: number } = {}): Occluders {
    const occluders = new Occluders({ cellSize: options.cellSize });
    addWorldOccluders(occluders, world, options.opaqueMask ?? EVERY_CATEGORY);
    return occluders;
  }

  /**
   * What blocks sight in a Tiled map (`.tmj` JSON, see `readTiledMap` for what counts as a wall or a
   * door), in world meters: {@link fromLevel} of the map read.
   * @throws TiledMapError naming the file, layer and object of anything malformed
   */
  static fromTiled(json: unknown, options: OccludersOptions & TiledReadOptions = {}): Occluders {
    return Occluders.fromLevel(readTiledMap(json, options), options);
  }

  /**
   * What blocks sight in a level read by `readTiledMap`: each wall one occluder (concave ones split), the
   * solid tiles as merged rectangles, and each door ({@link addDoor}, open or shut as the map says; find
   * it with {@link tiledDoor}). Glass, exits and everything else are left out: they do not block sight.
   * @throws TiledMapError naming the object of a wall or door whose outline is unusable
   */
  static fromLevel(level: TiledLevel, options: OccludersOptions & { file?: string } = {}): Occluders {
    const occluders = new Occluders({ cellSize: options.cellSize });
    addLevelOccluders(occluders, level, options.file ?? "map", (objectId, door) => occluders.tiledDoors.set(objectId, door));
    return occluders;
  }

  /** @param options grid cell size; see {@link OccludersOptions}. Bad options throw a RangeError naming the field. */
  constructor(options: OccludersOptions = {}) {
    object("OccludersOptions", options);
    this.cellSize = options.cellSize === undefined ? 4 : positive("OccludersOptions.cellSize", options.cellSize, "meters");
  }

  /**
   * Adds an axis-aligned rectangle whose corner with the smallest coordinates is (x, y), meters. For a
   * rotated one, pass its four corners to {@link addPolygon}.
   */
  addRectangle(x: number, y: number, width: number, height: number): OccluderId {
    finite("Occluders.addRectangle x", x);
    finite("Occluders.addRectangle y", y);
    positive("Occluders.addRectangle width", width, "meters");
    positive("Occluders.addRectangle height", height, "meters");
    return this.addPieces([[{ x, y }, { x: x + width, y }, { x: x + width, y: y + height }, { x, y: y + height }]], 0, { kind: "wall" }, true);
  }

  /**
   * Adds a simple polygon (its outline, meters, either winding, not closed by repeating the first point).
   * A concave one is split into convex pieces that cover exactly its area, so an L-shaped wall keeps its
   * notch open. Throws a RangeError for fewer than 3 distinct points, no area, or a self-crossing outline.
   */
  addPolygon(points: readonly Point[]): OccluderId {
    return this.addPieces(piecesOf(points, "Occluders.addPolygon points"), 0, { kind: "wall" }, true);
  }

  /** Adds a segment from (ax, ay) to (bx, by), meters: a wall with no thickness, opaque from both sides. */
  addSegment(ax: number, ay: number, bx: number, by: number): OccluderId {
    for (const [name, v] of [["ax", ax], ["ay", ay], ["bx", bx], ["by", by]] as const) finite(`Occluders.addSegment ${name}`, v);
    if (ax === bx && ay === by) fail("Occluders.addSegment", "needs two distinct end points", `(${ax}, ${ay}) twice`);
    return this.addPieces([[{ x: ax, y: ay }, { x: bx, y: by }]], 0, { kind: "wall" }, true);
  }

  /** Adds a circle of centre (x, y) and radius, meters: a pillar, a tree trunk. */
  addCircle(x: number, y: number, radius: number): OccluderId {
    finite("Occluders.addCircle x", x);
    finite("Occluders.addCircle y", y);
    positive("Occluders.addCircle radius", radius, "meters");
    return this.addPieces([[{ x, y }]], radius, { kind: "wall" }, true);
  }

  /**
   * Adds a door: a polygon outline (meters, as {@link addPolygon}) that blocks sight while shut. Open and
   * shut it with {@link setOpen}, as often as you like: that costs no rebuild.
   * @throws RangeError for a bad outline or options
   */
  addDoor(outline: readonly Point[], options: DoorOptions = {}): OccluderId {
    object("DoorOptions", options, "{ open? }");
    const open = options.open ?? false;
    if (typeof open !== "boolean") fail("DoorOptions.open", "must be a boolean", open);
    const id = this.addPieces(piecesOf(outline, "Occluders.addDoor outline"), 0, { kind: "door", open }, !open);
    return id;
  }

  /**
   * Opens (`true`) or shuts a door. Returns whether it changed. Whoever reads these occluders sees it from
   * its next tick or update: what the door hid is visible then, or what it now hides is hidden.
   * @throws RangeError naming the id when it is not a door of this set
   */
  setOpen(id: OccluderId, open: boolean): boolean {
    const door = this.door("Occluders.setOpen id", id);
    if (typeof open !== "boolean") fail("Occluders.setOpen open", "must be a boolean", open);
    if (door.open === open) return false;
    door.open = open;
    this.setActive(door.pieces, !open);
    return true;
  }

  /**
   * Whether a door is open.
   * @throws RangeError naming the id when it is not a door of this set
   */
  isOpen(id: OccluderId): boolean {
    return this.door("Occluders.isOpen id", id).open === true;
  }

  /** The door a Tiled map's object became ({@link fromTiled}, {@link fromLevel}), by its object id; undefined if none. */
  tiledDoor(objectId: number): OccluderId | undefined {
    return this.tiledDoors.get(objectId);
  }

  /**
   * Adds a smoke cloud centred on (x, y), meters: a circle that grows to `radius`, blocks sight while it
   * is dense, thins over its last `fadeSeconds` and is gone after `seconds` (see {@link SmokeOptions}).
   * Unlike a solid circle, it blocks every line of sight that passes through any of it: an eye inside the
   * cloud sees nothing out of it, and nothing inside it is seen. It ages only by {@link advance}: call that
   * once per tick with the tick's seconds.
   * @throws RangeError naming the field for a bad centre or option
   */
  addSmoke(x: number, y: number, options: SmokeOptions): OccluderId {
    finite("Occluders.addSmoke x", x, "meters");
    finite("Occluders.addSmoke y", y, "meters");
    const life = smokeLife(options);
    const radius = smokeRadius(life, 0);
    const blocking = smokeDensity(life, 0) >= life.opaqueDensity;
    const id = this.addPieces([[{ x, y }]], radius, { kind: "smoke", smoke: { life, age: 0, x, y } }, blocking, life.radius);
    this.smokes.add(id);
    return id;
  }

  /**
   * Where a smoke cloud is in its life, written into `out` when given (a per-tick read need not allocate),
   * or undefined when `id` is no cloud of this set (gone ones included).
   */
  smoke(id: OccluderId, out?: SmokeState): SmokeState | undefined {
    const record = this.groups.get(id);
    const s = record?.smoke;
    if (record === undefined || s === undefined) return undefined;
    const state = out ?? { x: 0, y: 0, radius: 0, density: 0, blocking: false, ageSeconds: 0, seconds: 0 };
    state.x = s.x;
    state.y = s.y;
    state.radius = record.pieces[0]!.radius;
    state.density = smokeDensity(s.life, s.age);
    state.blocking = record.pieces[0]!.active;
    state.ageSeconds = s.age;
    state.seconds = s.life.seconds;
    return state;
  }

  /**
   * Ages every smoke cloud by `seconds`: they grow, thin, stop blocking and go as their options say.
   * Call it once per tick, before the tick's sight (the vision tick, the culling's update).
   * @throws RangeError for a negative or non-finite time
   */
  advance(seconds: number): void {
    nonNegative("Occluders.advance seconds", seconds, "seconds");
    if (!Number.isFinite(seconds)) fail("Occluders.advance seconds", "must be finite", seconds);
    if (seconds === 0 || this.smokes.size === 0) return;
    // Deleting the entry being visited is safe in a Set's iteration.
    for (const id of this.smokes) {
      const record = this.groups.get(id)!;
      const s = record.smoke!;
      s.age += seconds;
      if (s.age >= s.life.seconds) {
        this.remove(id);
        continue;
      }
      const piece = record.pieces[0]!;
      const blocking = smokeDensity(s.life, s.age) >= s.life.opaqueDensity;
      const radius = smokeRadius(s.life, s.age);
      const grew = radius !== piece.radius;
      if (grew) {
        piece.radius = radius;
        if (piece.index >= 0) this.packedCache?.setRadius(piece.index, radius);
      }
      if (blocking !== piece.active) this.setActive(record.pieces, blocking);
      else if (grew && blocking) this.changed(record.pieces, true);
      else if (grew) this.changes++;
    }
  }

  /**
   * Removes an occluder for good (a wall that breaks, a cloud cleared). Returns false (and changes nothing)
   * for an id it does not hold. Costs no rebuild: the pieces stop blocking where they are.
   */
  remove(id: OccluderId): boolean {
    const record = this.groups.get(id);
    if (record === undefined) return false;
    this.groups.delete(id);
    this.smokes.delete(id);
    const blocked = record.pieces.some((p) => p.active);
    for (const p of record.pieces) {
      p.removed = true;
      p.active = false;
      if (p.index >= 0) this.packedCache?.setActive(p.index, false);
    }
    this.removedPieces += record.pieces.length;
    if (blocked) this.changed(record.pieces, false);
    else this.changes++;
    if (this.removedPieces >= COMPACT_AFTER && 2 * this.removedPieces >= this.order.length) this.compact();
    return true;
  }

  /** Removes every occluder. */
  clear(): void {
    for (const id of [...this.groups.keys()]) this.remove(id);
  }

  /** Whether it holds the occluder `id`. */
  has(id: OccluderId): boolean {
    return this.groups.has(id);
  }

  /** How many occluders it holds (one per `add*` call, however many convex pieces each became). */
  get size(): number {
    return this.groups.size;
  }

  /** Ids of the occluders it holds, in the order they were added. */
  ids(): IterableIterator<OccluderId> {
    return this.groups.keys();
  }

  /** Counts every change since construction (adds, removals, doors, smoke): compare two readings to see whether anything changed. */
  get version(): number {
    return this.changes;
  }

  /**
   * Adds pieces already known to be convex (a planck fixture's), each kept whole. Outlines of 3 or more
   * points are polygons, 2 a segment, 1 a circle of `radius`.
   * @internal
   */
  addConvex(outlines: readonly (readonly Point[])[], radius: number): OccluderId {
    return this.addPieces(outlines, radius, { kind: "wall" }, true);
  }

  /**
   * The pieces as flat arrays with their grid, rebuilt after pieces were added (at most once per change),
   * with every earlier piece at its old index unless {@link layout} changed. @internal
   */
  get packed(): PackedOccluders {
    if (this.packedCache === null) this.packedCache = new PackedOccluders(this.order, this.cellSize);
    return this.packedCache;
  }

  /** Counts the compactions that gave pieces new indices: a remembered piece index is void once it changes. @internal */
  get layout(): number {
    return this.compactions;
  }

  /** Every piece in packed order, removed ones included until a compaction (check `removed`). @internal */
  allPieces(): readonly OccluderPiece[] {
    return this.order;
  }

  /** Calls `listener` with the box of every later change; returns the function that stops it. @internal */
  onChange(listener: OccluderAreaListener): () => void {
    return this.feed.subscribe(listener);
  }

  private door(field: string, id: OccluderId): OccluderRecord {
    const record = this.groups.get(id);
    if (record === undefined || record.kind !== "door") fail(field, record === undefined ? "must be the id of a door of this set" : `must be a door (it is a ${record.kind})`, id);
    return record;
  }

  private addPieces(outlines: readonly (readonly Point[])[], radius: number, record: Omit<OccluderRecord, "pieces">, active: boolean, maxRadius = radius): OccluderId {
    const id = this.nextId++;
    const pieces = outlines.map((outline) => {
      // Polygons are kept counter-clockwise, so their edge normals point outward.
      const ordered = outline.length >= 3 && signedArea(outline) < 0 ? [...outline].reverse() : outline;
      const piece = new OccluderPiece(id, ordered.map((p) => p.x), ordered.map((p) => p.y), radius, maxRadius);
      piece.active = active;
      piece.fog = record.kind === "smoke";
      return piece;
    });
    this.groups.set(id, { ...record, pieces });
    for (const p of pieces) this.order.push(p);
    // Appended: every earlier piece keeps its index in the rebuilt snapshot.
    this.packedCache = null;
    if (active) this.changed(pieces, true);
    else this.changes++;
    return id;
  }

  private setActive(pieces: readonly OccluderPiece[], on: boolean): void {
    for (const p of pieces) {
      p.active = on;
      if (p.index >= 0) this.packedCache?.setActive(p.index, on);
    }
    this.changed(pieces, on);
  }

  /** Drops the removed pieces from the packed order: the rest get new indices. */
  private compact(): void {
    for (const p of this.order) if (p.removed) p.index = -1;
    this.order = this.order.filter((p) => !p.removed);
    this.removedPieces = 0;
    this.compactions++;
    this.packedCache = null;
  }

  private changed(pieces: readonly OccluderPiece[], stronger: boolean): void {
    this.changes++;
    this.feed.emit(pieces, stronger);
  }
}
