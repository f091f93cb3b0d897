import { seededRandom } from "../../shared/seededRandom.js";
import { DOOR, LevelGrid, type LevelCamera, type LevelGuard, type Rect } from "./levelGrid.js";
import type { TiledMapJson } from "./tiledMapJson.js";

/**
 * The compound: a 128 x 96 m stealth level sized for a full room (25 players and 64 guards), the map of
 * the capacity and soak runs. The demo map (40 x 30 m) is smaller than two culling ranges (20 m), so most
 * of it is potentially visible from anywhere and culling has little to withhold; 89 characters in it is
 * not the shape of a real 25-player level either. This one is: twelve walled blocks on a grid of 3 m
 * corridors, offices split into rooms by doorwayed walls, two warehouses of shelving, a courtyard behind
 * glass, a vault with the exit at the top, and a loading yard at the bottom where the players start. Every
 * doorway from a block onto a corridor or the yard, and the vault's, hangs a door, open at first.
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

/** Blocks' outer wall columns and rows (inclusive); the 3-tile gaps between them are the corridors. */
const BLOCK_COLUMNS: readonly [number, number][] = [[0, 30], [34, 62], [66, 94], [98, 127]];
const BLOCK_ROWS: readonly [number, number][] = [[0, 27], [31, 55], [59, 83]];
/** Corridor centre lines, meters (a corridor of tiles 31..33 is 31 m to 34 m). */
const CORRIDOR_CENTRES_X = [32.5, 64.5, 96.5];
const CORRIDOR_CENTRES_Y = [29.5, 57.5];
/** Spawn columns along the bottom of the yard, 16 m apart. */
const SPAWN_XS = [8, 24, 40, 56, 72, 88, 104, 120];

/** The vault: the top of the second block, behind a wall with one doorway and two windows. */
const VAULT_BLOCK = { column: 1, row: 0 };
const VAULT_WALL_Y = 12;
const VAULT_EXIT = { x: 45, y: 4, width: 7, height: 5 };

type BlockKind = "offices" | "warehouse" | "courtyard" | "vault";
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
    level.openings(side.horizontal, side.at, side.from + 3, side.to - 3, doors, b.kind === "courtyard" ? 2 : level.chance(0.35) ? 1 : 0, 3, true);
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
      level.hangDoor(true, VAULT_WALL_Y, 47, DOOR);
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
function corridorGuards(): LevelGuard[] {
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
const CAMERAS: readonly LevelCamera[] = [
  { name: "vault-cam", x: 36, y: 2, facing: 45, fov: 60, range: 14, sweep: 30, period: 8 },
  { name: "crossing-west-cam", x: 31.2, y: 28.2, facing: 45, fov: 70, range: 14, sweep: 45, period: 10 },
  { name: "crossing-east-cam", x: 97.8, y: 56.2, facing: 135, fov: 70, range: 14, sweep: 45, period: 10 },
  { name: "yard-cam", x: 64.5, y: 84.5, facing: 270, fov: 60, range: 12, sweep: 30, period: 12 },
];
