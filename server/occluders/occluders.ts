import { fail, finite, object, positive } from "../../shared/validation/rangeChecks.js";
import { piecesOf } from "./convexPieces.js";
import { OccluderPiece } from "./occluderPiece.js";
import { PackedOccluders } from "./packedOccluders.js";
import type { Point } from "./point.js";
import { signedArea } from "./triangulate.js";
import { addWorldOccluders } from "./fromWorld.js";
import { EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import type { World } from "planck";
import { readTiledMap, TiledMapError, type TiledReadOptions } from "../../shared/tiled/index.js";

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

/** Receives the box (meters) where occluders appeared or vanished. @internal */
export type OccluderAreaListener = (minX: number, minY: number, maxX: number, maxY: number) => void;

/**
 * What blocks sight, without a physics engine: static walls, pillars and crates given as rectangles,
 * polygons (concave ones are split into convex pieces for you), segments and circles, in world meters.
 * Everything in it is opaque; leave glass out.
 *
 * A {@link VisionSystem} and a culling built on the same `Occluders` share it, and both follow changes:
 * `add*` and `remove` between ticks take effect at the next tick. Build one from a Tiled map with
 * {@link Occluders.fromTiled}, or from the static fixtures of a planck `World` with {@link Occluders.fromWorld}.
 *
 * ```ts
 * const occluders = new Occluders();
 * occluders.addRectangle(10, 4, 0.5, 6);                   // a wall 0.5 m thick, 6 m long
 * const pillar = occluders.addCircle(20, 8, 1);
 * occluders.addPolygon([{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 1 }, { x: 1, y: 1 }, { x: 1, y: 4 }, { x: 0, y: 4 }]); // an L
 * occluders.remove(pillar);
 * ```
 */
export class Occluders {
  private readonly cellSize: number;
  private readonly groups = new Map<OccluderId, OccluderPiece[]>();
  private nextId = 1;
  private packedCache: PackedOccluders | null = null;
  private readonly listeners: OccluderAreaListener[] = [];
  private changes = 0;

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
   * The walls and solid tiles of a Tiled map (`.tmj` JSON, see `readTiledMap` for what counts as a wall),
   * in world meters: each wall one occluder (concave ones split), the solid tiles as merged rectangles.
   * Glass is left out: it does not block sight.
   * @throws TiledMapError naming the file, layer and object of anything malformed
   */
  static fromTiled(json: unknown, options: OccludersOptions & TiledReadOptions = {}): Occluders {
    const level = readTiledMap(json, options);
    const occluders = new Occluders({ cellSize: options.cellSize });
    for (const o of level.objects) {
      if (o.kind !== "wall") continue;
      try {
        occluders.addPolygon(o.outline!);
      } catch (err) {
        throw new TiledMapError(options.file ?? "map", `a wall ${(err as Error).message.replace(/^Occluders\.addPolygon points: /, "")}`, o.layer, o.id);
      }
    }
    for (const r of level.solidTiles) occluders.addRectangle(r.x, r.y, r.width, r.height);
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
    return this.addPieces([[{ x, y }, { x: x + width, y }, { x: x + width, y: y + height }, { x, y: y + height }]], 0);
  }

  /**
   * Adds a simple polygon (its outline, meters, either winding, not closed by repeating the first point).
   * A concave one is split into convex pieces that cover exactly its area, so an L-shaped wall keeps its
   * notch open. Throws a RangeError for fewer than 3 distinct points, no area, or a self-crossing outline.
   */
  addPolygon(points: readonly Point[]): OccluderId {
    return this.addPieces(piecesOf(points, "Occluders.addPolygon points"), 0);
  }

  /** Adds a segment from (ax, ay) to (bx, by), meters: a wall with no thickness, opaque from both sides. */
  addSegment(ax: number, ay: number, bx: number, by: number): OccluderId {
    for (const [name, v] of [["ax", ax], ["ay", ay], ["bx", bx], ["by", by]] as const) finite(`Occluders.addSegment ${name}`, v);
    if (ax === bx && ay === by) fail("Occluders.addSegment", "needs two distinct end points", `(${ax}, ${ay}) twice`);
    return this.addPieces([[{ x: ax, y: ay }, { x: bx, y: by }]], 0);
  }

  /** Adds a circle of centre (x, y) and radius, meters: a pillar, a tree trunk. */
  addCircle(x: number, y: number, radius: number): OccluderId {
    finite("Occluders.addCircle x", x);
    finite("Occluders.addCircle y", y);
    positive("Occluders.addCircle radius", radius, "meters");
    return this.addPieces([[{ x, y }]], radius);
  }

  /** Removes an occluder. Returns false (and changes nothing) for an id it does not hold. */
  remove(id: OccluderId): boolean {
    const pieces = this.groups.get(id);
    if (pieces === undefined) return false;
    this.groups.delete(id);
    for (const p of pieces) p.index = -1;
    this.changed(pieces);
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

  /** Counts every `add*` and `remove` since construction: compare two readings to see whether anything changed. */
  get version(): number {
    return this.changes;
  }

  /**
   * Adds pieces already known to be convex (a planck fixture's), each kept whole. Outlines of 3 or more
   * points are polygons, 2 a segment, 1 a circle of `radius`.
   * @internal
   */
  addConvex(outlines: readonly (readonly Point[])[], radius: number): OccluderId {
    return this.addPieces(outlines, radius);
  }

  /** The pieces as flat arrays with their grid, rebuilt after a change (at most once per change). @internal */
  get packed(): PackedOccluders {
    if (this.packedCache === null) {
      const all: OccluderPiece[] = [];
      for (const pieces of this.groups.values()) for (const p of pieces) all.push(p);
      this.packedCache = new PackedOccluders(all, this.cellSize);
    }
    return this.packedCache;
  }

  /** Calls `listener` with the box of every later change; returns the function that stops it. @internal */
  onChange(listener: OccluderAreaListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private addPieces(outlines: readonly (readonly Point[])[], radius: number): OccluderId {
    const id = this.nextId++;
    const pieces = outlines.map((outline) => {
      // Polygons are kept counter-clockwise, so their edge normals point outward.
      const ordered = outline.length >= 3 && signedArea(outline) < 0 ? [...outline].reverse() : outline;
      return new OccluderPiece(id, ordered.map((p) => p.x), ordered.map((p) => p.y), radius);
    });
    this.groups.set(id, pieces);
    this.changed(pieces);
    return id;
  }

  private changed(pieces: readonly OccluderPiece[]): void {
    this.changes++;
    this.packedCache = null;
    if (this.listeners.length === 0) return;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const p of pieces) {
      for (let i = 0; i < p.xs.length; i++) {
        minX = Math.min(minX, p.xs[i]! - p.radius);
        minY = Math.min(minY, p.ys[i]! - p.radius);
        maxX = Math.max(maxX, p.xs[i]! + p.radius);
        maxY = Math.max(maxY, p.ys[i]! + p.radius);
      }
    }
    for (const listener of [...this.listeners]) listener(minX, minY, maxX, maxY);
  }
}
