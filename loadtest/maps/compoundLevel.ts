import { PIXELS_PER_METER } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";

/**
 * The compound: a 128 x 96 m stealth level sized for a full room (25 players and 64 guards), the map of
 * the capacity and soak runs. The demo map (40 x 30 m) is smaller than two culling ranges (20 m), so most
 * of it is potentially visible from anywhere and culling has little to withhold; 89 characters in it is
 * not the shape of a real 25-player level either. This one is: twelve walled blocks on a grid of 3 m
 * corridors, offices split into rooms by doorwayed walls, two warehouses of shelving, a courtyard behind
 * glass, a vault with the exit at the top, and a loading yard at the bottom where the players start.
 *
 * Walls are a solid tile layer (1 m tiles, greedy-meshed into few fixtures by the map loader); windows are
 * glass objects set into gaps in the walls. Deterministic: the same seed gives the same file, and a test
 * holds `server/maps/compound.tmj` to {@link compoundLevel}`()`. Regenerate it with
 * `npx tsx loadtest/maps/writeCompoundMap.ts`.
 */
export function compoundLevel(seed = COMPOUND_SEED): TiledMapJson {
  const level = new LevelGrid(COLUMNS, ROWS, seededRandom(seed));
  level.outline({ x0: 0, y0: 0, x1: COLUMNS - 1, y1: ROWS - 1 });

  const blocks: Block[] = [];
  BLOCK_COLUMNS.forEach(([x0, x1], i) => BLOCK_ROWS.forEach(([y0, y1], j) => blocks.push({ x0, y0, x1, y1, kind: blockKind(i, j) })));
  for (const b of blocks) level.outline(b);
  // The vault's own wall before the corridor doorways, so none of them opens against its end.
  const vault = blocks.find((b) => b.kind === "vault")!;
  level.line(true, VAULT_WALL_Y, vault.x0 + 1, vault.x1 - 1);
  // Openings onto the corridors and the yard first, so the rooms inside are split around them.
  for (const b of blocks) openOntoCorridors(level, b);
  for (const b of blocks) furnish(level, b);

  const yard = { x0: 1, y0: BLOCK_ROWS.at(-1)![1] + 1, x1: COLUMNS - 2, y1: ROWS - 2 };
  const spawns = SPAWN_XS.map((x, i) => ({ name: String.fromCharCode(65 + i), x: x + 0.5, y: yard.y1 - 2 + 0.5 }));
  for (const s of spawns) level.reserve({ x0: Math.floor(s.x) - 2, y0: Math.floor(s.y) - 2, x1: Math.floor(s.x) + 2, y1: Math.floor(s.y) + 2 });
  // Shipping containers across the yard: cover for the first dash, with the corridor mouths kept open.
  for (const x of CORRIDOR_CENTRES_X) level.reserve({ x0: Math.floor(x) - 3, y0: yard.y0, x1: Math.floor(x) + 3, y1: yard.y1 });
  level.scatter({ x0: yard.x0, y0: yard.y0, x1: yard.x1, y1: yard.y0 + 5 }, 12, [[4, 2], [2, 4], [3, 2]]);

  level.assertConnected(spawns[0]!);
  return level.toTiled(spawns, corridorGuards(), CAMERAS, VAULT_EXIT);
}

/** The seed of the committed `server/maps/compound.tmj`. */
const COMPOUND_SEED = 2568;

/** Tiles across and down; a tile is 1 m (one tile's pixels per meter). */
const COLUMNS = 128;
const ROWS = 96;
const PX = PIXELS_PER_METER;

/** Blocks' outer wall columns and rows (inclusive); the 3-tile gaps between them are the corridors. */
const BLOCK_COLUMNS: readonly [number, number][] = [[0, 30], [34, 62], [66, 94], [98, 127]];
const BLOCK_ROWS: readonly [number, number][] = [[0, 27], [31, 55], [59, 83]];
/** Corridor centre lines, meters (a corridor of tiles 31..33 is 31 m to 34 m). */
const CORRIDOR_CENTRES_X = [32.5, 64.5, 96.5];
const CORRIDOR_CENTRES_Y = [29.5, 57.5];
/** Spawn columns along the bottom of the yard, 16 m apart. */
const SPAWN_XS = [8, 24, 40, 56, 72, 88, 104, 120];

/** Rooms are split until no side is longer than this (tiles of floor). */
const MAX_ROOM_SIDE = 14;
/** No split leaves a room narrower than this (tiles of floor). */
const MIN_ROOM_SIDE = 5;
/** Doorways are this wide (tiles): room for a player (0.7 m) and a guard's nav clearance on both sides. */
const DOOR = 2;
/** Free tiles kept round every crate and shelf, so no furniture closes a passage. */
const FURNITURE_MARGIN = 2;

/** The vault: the top of the second block, behind a wall with one doorway and two windows. */
const VAULT_BLOCK = { column: 1, row: 0 };
const VAULT_WALL_Y = 12;
const VAULT_EXIT = { x: 45, y: 4, width: 7, height: 5 };

type BlockKind = "offices" | "warehouse" | "courtyard" | "vault";
interface Rect { x0: number; y0: number; x1: number; y1: number }
interface Block extends Rect { kind: BlockKind }

function blockKind(column: number, row: number): BlockKind {
  if (column === VAULT_BLOCK.column && row === VAULT_BLOCK.row) return "vault";
  if ((column === 0 && row === 1) || (column === 3 && row === 2)) return "warehouse";
  if (column === 2 && row === 1) return "courtyard";
  return "offices";
}

/** Doorways (and, on some blocks, windows) in every side of a block that faces a corridor or the yard. */
function openOntoCorridors(level: LevelGrid, b: Block): void {
  const sides: { horizontal: boolean; at: number; from: number; to: number }[] = [];
  if (b.y0 > 0) sides.push({ horizontal: true, at: b.y0, from: b.x0, to: b.x1 });
  if (b.y1 < ROWS - 1) sides.push({ horizontal: true, at: b.y1, from: b.x0, to: b.x1 });
  if (b.x0 > 0) sides.push({ horizontal: false, at: b.x0, from: b.y0, to: b.y1 });
  if (b.x1 < COLUMNS - 1) sides.push({ horizontal: false, at: b.x1, from: b.y0, to: b.y1 });
  for (const side of sides) {
    // The vault room is entered only through its own doorway, from the offices below it.
    if (b.kind === "vault" && !side.horizontal) side.from = VAULT_WALL_Y;
    const doors = b.kind === "warehouse" || side.to - side.from > 26 ? 2 : 1;
    level.openings(side.horizontal, side.at, side.from + 3, side.to - 3, doors, b.kind === "courtyard" ? 2 : level.chance(0.35) ? 1 : 0, 3);
  }
}

function furnish(level: LevelGrid, b: Block): void {
  const inside = { x0: b.x0 + 1, y0: b.y0 + 1, x1: b.x1 - 1, y1: b.y1 - 1 };
  switch (b.kind) {
    case "offices":
      level.splitIntoRooms(inside);
      return;
    case "vault": {
      level.opening(true, VAULT_WALL_Y, 47, DOOR, "door");
      level.opening(true, VAULT_WALL_Y, 39, 3, "glass");
      level.opening(true, VAULT_WALL_Y, 55, 3, "glass");
      // The vault's floor round the exit is kept bare: it is the goal, not a maze.
      level.reserve({ x0: VAULT_EXIT.x - 3, y0: VAULT_EXIT.y - 2, x1: VAULT_EXIT.x + VAULT_EXIT.width + 2, y1: VAULT_WALL_Y });
      level.splitIntoRooms({ ...inside, y0: VAULT_WALL_Y + 1 });
      return;
    }
    case "warehouse":
      level.shelving(inside);
      return;
    case "courtyard":
      // Open ground behind glass: planters only, so sight crosses it (and the corridors' windows) far.
      level.scatter(inside, 6, [[2, 2], [3, 2], [2, 3]]);
      return;
  }
}

/** Six guards the map places: one walking each corridor end to end and one circling the vault's exit. */
function corridorGuards(): { name: string; route: { x: number; y: number }[]; loop: boolean; facing: number; fov: number; range: number }[] {
  const top = 2.5;
  const bottom = BLOCK_ROWS.at(-1)![1] - 0.5;
  const guards = [
    ...CORRIDOR_CENTRES_X.map((x, i) => ({ name: `corridor-${"abc"[i]}`, route: [{ x, y: top }, { x, y: bottom }], loop: false, facing: 90, fov: 90, range: 12 })),
    ...CORRIDOR_CENTRES_Y.map((y, i) => ({ name: `corridor-${"de"[i]}`, route: [{ x: 2.5, y }, { x: COLUMNS - 2.5, y }], loop: false, facing: 0, fov: 90, range: 12 })),
  ];
  const v = { x0: VAULT_EXIT.x - 2, y0: VAULT_EXIT.y - 1.5, x1: VAULT_EXIT.x + VAULT_EXIT.width + 2, y1: VAULT_EXIT.y + VAULT_EXIT.height + 1.5 };
  guards.push({ name: "vault", route: [{ x: v.x0, y: v.y0 }, { x: v.x1, y: v.y0 }, { x: v.x1, y: v.y1 }, { x: v.x0, y: v.y1 }], loop: true, facing: 0, fov: 100, range: 10 });
  return guards;
}

/** Cameras at the vault, over two corridor crossings, and up the middle corridor from the yard (not at the spawns). */
const CAMERAS = [
  { name: "vault-cam", x: 36, y: 2, facing: 45, fov: 60, range: 14, sweep: 30, period: 8 },
  { name: "crossing-west-cam", x: 31.2, y: 28.2, facing: 45, fov: 70, range: 14, sweep: 45, period: 10 },
  { name: "crossing-east-cam", x: 97.8, y: 56.2, facing: 135, fov: 70, range: 14, sweep: 45, period: 10 },
  { name: "yard-cam", x: 64.5, y: 84.5, facing: 270, fov: 60, range: 12, sweep: 30, period: 12 },
];

/** The parts of a Tiled JSON map this generator writes. */
export interface TiledMapJson {
  [key: string]: unknown;
  width: number;
  height: number;
  layers: Record<string, unknown>[];
}

/**
 * A tile grid being drawn: walls (solid tiles), glass windows (tile rectangles that become glass objects),
 * and reserved tiles (doorways, windows, spawn areas) that later walls must not end against and furniture
 * must keep clear of.
 */
class LevelGrid {
  private readonly solid: Uint8Array;
  private readonly reserved: Uint8Array;
  private readonly glassTiles: Uint8Array;
  readonly glass: Rect[] = [];

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

  /**
   * `doors` doorways and `windows` windows of `windowLength` in the wall at `at`, each somewhere in
   * [from, to] with at least two tiles of wall between any two openings.
   */
  openings(horizontal: boolean, at: number, from: number, to: number, doors: number, windows: number, windowLength: number): void {
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
    guards: ReturnType<typeof corridorGuards>,
    cameras: typeof CAMERAS,
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
    return {
      compressionlevel: -1, width: this.columns, height: this.rows, tilewidth: PX, tileheight: PX, infinite: false,
      orientation: "orthogonal", renderorder: "right-down", tiledversion: "1.11.2", type: "map", version: "1.10",
      nextlayerid: 5, nextobjectid: id,
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
      ],
    };
  }
}

function grow(r: Rect, by: number): Rect {
  return { x0: r.x0 - by, y0: r.y0 - by, x1: r.x1 + by, y1: r.y1 + by };
}

/**
 * The map as Tiled writes it, but with the tile data one map row per line, so a change to the level reads
 * as a diff of the rows it touched.
 */
export function formatTiledMap(map: TiledMapJson): string {
  const layers = map.layers.map((l) => (l.type === "tilelayer" ? { ...l, data: "@@DATA@@" } : l));
  const text = JSON.stringify({ ...map, layers }, null, 1);
  const tiles = map.layers.find((l) => l.type === "tilelayer")!;
  const data = tiles.data as number[];
  const rows: string[] = [];
  for (let r = 0; r < map.height; r++) rows.push(data.slice(r * map.width, (r + 1) * map.width).join(","));
  return `${text.replace('"@@DATA@@"', `[\n${rows.join(",\n")}]`)}\n`;
}
