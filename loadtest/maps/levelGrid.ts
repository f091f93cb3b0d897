import { PIXELS_PER_METER } from "../../shared/gameRules.js";
import type { TiledMapJson } from "./tiledMapJson.js";

const PX = PIXELS_PER_METER;

/** Rooms are split until no side is longer than this (tiles of floor). */
const MAX_ROOM_SIDE = 14;
/** No split leaves a room narrower than this (tiles of floor). */
const MIN_ROOM_SIDE = 5;
/** Doorways are this wide (tiles): room for a player (0.7 m) and a guard's nav clearance on both sides. */
export const DOOR = 2;
/** Free tiles kept round every crate and shelf, so no furniture closes a passage. */
const FURNITURE_MARGIN = 2;

/** A rectangle of tiles, corners inclusive. */
export interface Rect { x0: number; y0: number; x1: number; y1: number }

/** A guard the level places, at the start of its route (meters; angles in degrees, as Tiled holds them). */
export interface LevelGuard {
  name: string;
  route: { x: number; y: number }[];
  loop: boolean;
  facing: number;
  fov: number;
  range: number;
}

/** A sweeping camera the level places (meters; angles in degrees, `period` in seconds). */
export interface LevelCamera {
  name: string;
  x: number;
  y: number;
  facing: number;
  fov: number;
  range: number;
  sweep: number;
  period: number;
}
/**
 * A tile grid being drawn: walls (solid tiles), glass windows (tile rectangles that become glass objects),
 * and reserved tiles (doorways, windows, spawn areas) that later walls must not end against and furniture
 * must keep clear of.
 */
export class LevelGrid {
  private readonly solid: Uint8Array;
  private readonly reserved: Uint8Array;
  private readonly glassTiles: Uint8Array;
  readonly glass: Rect[] = [];
  /** Doorways that hang a door (a Tiled `door` object, open at first), with the wall's direction. */
  readonly doors: { r: Rect; horizontal: boolean }[] = [];

  constructor(readonly columns: number, readonly rows: number, private readonly random: () => number) {
    this.solid = new Uint8Array(columns * rows);
    this.reserved = new Uint8Array(columns * rows);
    this.glassTiles = new Uint8Array(columns * rows);
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private fill(r: Rect, grid: Uint8Array, value: number): void {
    for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) grid[y * this.columns + x] = value;
  }

  private any(r: Rect, grid: Uint8Array): boolean {
    if (r.x0 < 0 || r.y0 < 0 || r.x1 >= this.columns || r.y1 >= this.rows) return true;
    for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) if (grid[y * this.columns + x]) return true;
    return false;
  }

  /** Whether any tile of `r` off the wall line `at` is solid. */
  private solidOffLine(r: Rect, horizontal: boolean, at: number): boolean {
    for (let y = r.y0; y <= r.y1; y++) {
      for (let x = r.x0; x <= r.x1; x++) {
        if ((horizontal ? y : x) === at) continue;
        if (x < 0 || y < 0 || x >= this.columns || y >= this.rows || this.solid[y * this.columns + x]) return true;
      }
    }
    return false;
  }

  outline(r: Rect): void {
    this.line(true, r.y0, r.x0, r.x1);
    this.line(true, r.y1, r.x0, r.x1);
    this.line(false, r.x0, r.y0, r.y1);
    this.line(false, r.x1, r.y0, r.y1);
  }

  /** A wall one tile thick: row `at` from column `from` to `to` (horizontal), or the transpose. */
  line(horizontal: boolean, at: number, from: number, to: number): void {
    this.fill(horizontal ? { x0: from, y0: at, x1: to, y1: at } : { x0: at, y0: from, x1: at, y1: to }, this.solid, 1);
  }

  reserve(r: Rect): void {
    this.fill({ x0: Math.max(0, r.x0), y0: Math.max(0, r.y0), x1: Math.min(this.columns - 1, r.x1), y1: Math.min(this.rows - 1, r.y1) }, this.reserved, 1);
  }

  /** Cuts a doorway (floor) or a window (glass) of `length` tiles into a wall, starting at `start`. */
  opening(horizontal: boolean, at: number, start: number, length: number, kind: "door" | "glass"): void {
    const r = horizontal ? { x0: start, y0: at, x1: start + length - 1, y1: at } : { x0: at, y0: start, x1: at, y1: start + length - 1 };
    this.fill(r, this.solid, 0);
    this.fill(r, this.reserved, 1);
    if (kind === "glass") {
      this.fill(r, this.glassTiles, 1);
      this.glass.push(r);
    }
  }

  /** Hangs a door in a doorway cut by {@link opening}. */
  hangDoor(horizontal: boolean, at: number, start: number, length: number): void {
    this.doors.push({ r: horizontal ? { x0: start, y0: at, x1: start + length - 1, y1: at } : { x0: at, y0: start, x1: at, y1: start + length - 1 }, horizontal });
  }

  /**
   * `doors` doorways and `windows` windows of `windowLength` in the wall at `at`, each somewhere in
   * [from, to] with at least two tiles of wall between any two openings; with `hung`, a door in each doorway.
   */
  openings(horizontal: boolean, at: number, from: number, to: number, doors: number, windows: number, windowLength: number, hung = false): void {
    const taken: [number, number][] = [];
    const place = (length: number, kind: "door" | "glass") => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const start = this.int(from, to - length + 1);
        if (taken.some(([a, b]) => start <= b + 2 && start + length - 1 >= a - 2)) continue;
        // Not against a wall that meets this one (it would narrow the opening to one tile, too tight to walk).
        const beside = horizontal ? { x0: start - 1, y0: at - 1, x1: start + length, y1: at + 1 } : { x0: at - 1, y0: start - 1, x1: at + 1, y1: start + length };
        if (this.solidOffLine(beside, horizontal, at)) continue;
        taken.push([start, start + length - 1]);
        this.opening(horizontal, at, start, length, kind);
        if (hung && kind === "door") this.hangDoor(horizontal, at, start, length);
        return;
      }
    };
    for (let i = 0; i < doors; i++) place(DOOR, "door");
    for (let i = 0; i < windows; i++) place(windowLength, "glass");
  }

  /**
   * Splits a floor area into rooms with walls one tile thick, each with a doorway (so the rooms form a
   * tree: every one reachable), some also with a window; a new wall never ends against an opening of the
   * walls round it. Rooms big enough get a few crates.
   */
  splitIntoRooms(r: Rect): void {
    const w = r.x1 - r.x0 + 1;
    const h = r.y1 - r.y0 + 1;
    const canSplitAcross = w >= 2 * MIN_ROOM_SIDE + 1;
    const canSplitDown = h >= 2 * MIN_ROOM_SIDE + 1;
    const wantsSplit = w > MAX_ROOM_SIDE || h > MAX_ROOM_SIDE;
    if (!wantsSplit || (!canSplitAcross && !canSplitDown)) {
      this.scatter(r, Math.floor((w * h) / 70), [[1, 1], [2, 1], [1, 2], [2, 2]]);
      return;
    }
    const vertical = canSplitAcross && (!canSplitDown || w > h || (w === h && this.chance(0.5)));
    const lo = vertical ? r.x0 : r.y0;
    const hi = vertical ? r.x1 : r.y1;
    const candidates: number[] = [];
    for (let s = lo + MIN_ROOM_SIDE; s <= hi - MIN_ROOM_SIDE; s++) {
      const ends: Rect[] = vertical
        ? [{ x0: s - 1, y0: r.y0 - 1, x1: s + 1, y1: r.y0 - 1 }, { x0: s - 1, y0: r.y1 + 1, x1: s + 1, y1: r.y1 + 1 }]
        : [{ x0: r.x0 - 1, y0: s - 1, x1: r.x0 - 1, y1: s + 1 }, { x0: r.x1 + 1, y0: s - 1, x1: r.x1 + 1, y1: s + 1 }];
      if (!ends.some((e) => this.any(e, this.reserved))) candidates.push(s);
    }
    if (candidates.length === 0) {
      this.scatter(r, Math.floor((w * h) / 70), [[1, 1], [2, 1], [1, 2], [2, 2]]);
      return;
    }
    const s = candidates[Math.floor(this.random() * candidates.length)]!;
    const from = vertical ? r.y0 : r.x0;
    const to = vertical ? r.y1 : r.x1;
    this.line(!vertical, s, from, to);
    this.openings(!vertical, s, from + 1, to - 1, 1, to - from > 10 && this.chance(0.3) ? 1 : 0, 3);
    if (vertical) {
      this.splitIntoRooms({ ...r, x1: s - 1 });
      this.splitIntoRooms({ ...r, x0: s + 1 });
    } else {
      this.splitIntoRooms({ ...r, y1: s - 1 });
      this.splitIntoRooms({ ...r, y0: s + 1 });
    }
  }

  /** Rows of shelving one tile deep with 3-tile aisles, broken every few meters for cross-aisles. */
  shelving(r: Rect): void {
    const x0 = r.x0 + FURNITURE_MARGIN + 1;
    const x1 = r.x1 - FURNITURE_MARGIN - 1;
    for (let y = r.y0 + FURNITURE_MARGIN + 1; y <= r.y1 - FURNITURE_MARGIN - 1; y += 4) {
      for (let x = x0; x <= x1; ) {
        const length = Math.min(this.int(4, 8), x1 - x + 1);
        const shelf = { x0: x, y0: y, x1: x + length - 1, y1: y };
        if (!this.any(grow(shelf, FURNITURE_MARGIN), this.reserved) && length >= 2) this.fill(shelf, this.solid, 1);
        x += length + 3;
      }
    }
  }

  /**
   * Up to `count` obstacles of the given sizes (tiles across, down) at random in `r`, each with
   * {@link FURNITURE_MARGIN} free tiles round it: so no crate closes a doorway or seals a pocket of floor.
   */
  scatter(r: Rect, count: number, sizes: [number, number][]): void {
    for (let placed = 0, attempt = 0; placed < count && attempt < count * 30; attempt++) {
      const [w, h] = sizes[Math.floor(this.random() * sizes.length)]!;
      const x = this.int(r.x0, r.x1 - w + 1);
      const y = this.int(r.y0, r.y1 - h + 1);
      const crate = { x0: x, y0: y, x1: x + w - 1, y1: y + h - 1 };
      const around = grow(crate, FURNITURE_MARGIN);
      if (this.any(around, this.solid) || this.any(around, this.reserved) || this.any(around, this.glassTiles)) continue;
      this.fill(crate, this.solid, 1);
      placed++;
    }
  }

  /** Throws unless every floor tile can be walked to from `from` (glass and walls block). */
  assertConnected(from: { x: number; y: number }): void {
    const blocked = (i: number) => this.solid[i] === 1 || this.glassTiles[i] === 1;
    const seen = new Uint8Array(this.columns * this.rows);
    const start = Math.floor(from.y) * this.columns + Math.floor(from.x);
    const queue = [start];
    seen[start] = 1;
    while (queue.length > 0) {
      const i = queue.pop()!;
      const x = i % this.columns;
      for (const j of [x > 0 ? i - 1 : -1, x < this.columns - 1 ? i + 1 : -1, i - this.columns, i + this.columns]) {
        if (j < 0 || j >= seen.length || seen[j] || blocked(j)) continue;
        seen[j] = 1;
        queue.push(j);
      }
    }
    for (let i = 0; i < seen.length; i++) {
      if (!seen[i] && !blocked(i)) throw new Error(`compound level: floor tile (${i % this.columns}, ${Math.floor(i / this.columns)}) cannot be reached from spawn A`);
    }
  }

  toTiled(
    spawns: { name: string; x: number; y: number }[],
    guards: readonly LevelGuard[],
    cameras: readonly LevelCamera[],
    exit: { x: number; y: number; width: number; height: number },
  ): TiledMapJson {
    let id = 1;
    const float = (name: string, value: number) => ({ name, type: "float", value });
    const point = (name: string, type: string, x: number, y: number, properties: unknown[]) =>
      ({ id: id++, name, type, x: x * PX, y: y * PX, width: 0, height: 0, rotation: 0, point: true, visible: true, properties });
    const windows = this.glass.map((g) => ({
      id: id++, name: "window", type: "glass", x: g.x0 * PX, y: g.y0 * PX, width: (g.x1 - g.x0 + 1) * PX, height: (g.y1 - g.y0 + 1) * PX, rotation: 0, visible: true,
    }));
    const routes = guards.map((g) => ({
      id: id++, name: `route-${g.name}`, type: "", x: 0, y: 0, width: 0, height: 0, rotation: 0, visible: true,
      [g.loop ? "polygon" : "polyline"]: g.route.map((p) => ({ x: p.x * PX, y: p.y * PX })),
    }));
    // A door is a panel a quarter of a tile thick across the middle of its doorway, open at first.
    const doorObjects = () => this.doors.map(({ r, horizontal }) => {
      const along = horizontal ? { x: r.x0, y: r.y0 + 0.375, width: r.x1 - r.x0 + 1, height: 0.25 } : { x: r.x0 + 0.375, y: r.y0, width: 0.25, height: r.y1 - r.y0 + 1 };
      return { id: id++, name: "", type: "door", x: along.x * PX, y: along.y * PX, width: along.width * PX, height: along.height * PX, rotation: 0, visible: true, properties: [{ name: "open", type: "bool", value: true }] };
    });
    const actors = [
      ...spawns.map((s) => point(s.name, "spawn", s.x, s.y, [])),
      { id: id++, name: "vault", type: "exit", x: exit.x * PX, y: exit.y * PX, width: exit.width * PX, height: exit.height * PX, rotation: 0, visible: true },
      ...guards.map((g, i) => point(g.name, "guard", g.route[0]!.x, g.route[0]!.y, [
        float("facing", g.facing), float("fov", g.fov), float("range", g.range), { name: "patrol", type: "object", value: routes[i]!.id },
      ])),
      ...cameras.map((c) => point(c.name, "camera", c.x, c.y, [
        float("facing", c.facing), float("fov", c.fov), float("range", c.range), float("sweep", c.sweep), float("period", c.period),
      ])),
    ];
    const doors = doorObjects();
    return {
      compressionlevel: -1, width: this.columns, height: this.rows, tilewidth: PX, tileheight: PX, infinite: false,
      orientation: "orthogonal", renderorder: "right-down", tiledversion: "1.11.2", type: "map", version: "1.10",
      nextlayerid: 6, nextobjectid: id,
      properties: [float("pixelsPerMeter", PX), { name: "generator", type: "string", value: "loadtest/maps/compoundLevel.ts" }],
      tilesets: [{
        firstgid: 1, name: "walls", tilewidth: PX, tileheight: PX, tilecount: 1, columns: 1, margin: 0, spacing: 0,
        image: "walls.png", imagewidth: PX, imageheight: PX, tiles: [{ id: 0, properties: [{ name: "solid", type: "bool", value: true }] }],
      }],
      layers: [
        { id: 1, name: "walls", type: "tilelayer", x: 0, y: 0, width: this.columns, height: this.rows, opacity: 1, visible: true,
          properties: [{ name: "solid", type: "bool", value: true }], data: Array.from(this.solid) },
        { id: 2, name: "windows", type: "objectgroup", draworder: "topdown", x: 0, y: 0, opacity: 1, visible: true, objects: windows },
        { id: 3, name: "routes", type: "objectgroup", draworder: "topdown", x: 0, y: 0, opacity: 1, visible: true, objects: routes },
        { id: 4, name: "actors", type: "objectgroup", draworder: "topdown", x: 0, y: 0, opacity: 1, visible: true, objects: actors },
        { id: 5, name: "doors", type: "objectgroup", draworder: "topdown", x: 0, y: 0, opacity: 1, visible: true, objects: doors },
      ],
    };
  }
}

function grow(r: Rect, by: number): Rect {
  return { x0: r.x0 - by, y0: r.y0 - by, x1: r.x1 + by, y1: r.y1 + by };
}
