/// <reference lib="dom" />
// Fog of war in the browser with `sightline/fov`: a tile level, a player moved with the arrow keys or
// WASD, the tiles in its sight lit, the tiles it saw before dimmed, the rest black. TileVision keeps both
// sets and recomputes (symmetric shadowcasting) only when the player changes tile.
// Run it: `npx tsx examples/fog-of-war/serve.ts` (port as argument or PORT, default 8080) and open the
// URL it prints. serve.ts bundles this file with esbuild; any bundler that resolves "sightline/fov" will do.
import { OpacityGrid, TileVision } from "sightline/fov";

// # wall, . floor, @ where the player starts.
const LEVEL = [
  "########################",
  "#..........#...........#",
  "#..........#...........#",
  "#..@.......#....##.....#",
  "#..........#....##.....#",
  "#......................#",
  "#..........#...........#",
  "#####.######...........#",
  "#..........#...........#",
  "#..........#######.#####",
  "#..........#...........#",
  "########################",
];
const SIGHT_TILES = 8;
const TILE_PX = 32;
// Opaque colours only, so a pixel read back from the canvas says exactly which state a tile is drawn in.
const COLOURS = {
  floor: "#d8cfb8", wall: "#7a6a52",             // in sight
  floorSeen: "#5a554a", wallSeen: "#2e2922",     // seen before
  unseen: "#000000",
  player: "#e8453c",
};

const columns = LEVEL[0]!.length;
const rows = LEVEL.length;
const grid = new OpacityGrid(columns, rows, { cells: [...LEVEL.join("")].map((c) => (c === "#" ? 1 : 0)) });
const vision = new TileVision(grid, { radius: SIGHT_TILES });
const start = LEVEL.join("").indexOf("@");
const player = { x: start % columns, y: Math.floor(start / columns) };

const canvas = document.getElementById("map") as HTMLCanvasElement;
canvas.width = columns * TILE_PX;
canvas.height = rows * TILE_PX;
const ctx = canvas.getContext("2d")!;

function draw(): void {
  vision.update(player.x, player.y); // costs a few comparisons unless the player changed tile
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const wall = grid.isOpaque(x, y);
      ctx.fillStyle = vision.isVisible(x, y) ? (wall ? COLOURS.wall : COLOURS.floor)
        : vision.isExplored(x, y) ? (wall ? COLOURS.wallSeen : COLOURS.floorSeen)
        : COLOURS.unseen;
      ctx.fillRect(x * TILE_PX, y * TILE_PX, TILE_PX, TILE_PX);
    }
  }
  ctx.fillStyle = COLOURS.player;
  ctx.beginPath();
  ctx.arc((player.x + 0.5) * TILE_PX, (player.y + 0.5) * TILE_PX, TILE_PX * 0.35, 0, 2 * Math.PI);
  ctx.fill();
}

const STEPS: Record<string, [number, number]> = {
  ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1],
  ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0],
};

addEventListener("keydown", (event) => {
  const step = STEPS[event.code];
  if (step === undefined) return;
  event.preventDefault(); // arrows would scroll the page
  const x = player.x + step[0];
  const y = player.y + step[1];
  if (grid.isOpaque(x, y)) return; // walls block walking as they block sight (and so does the map's edge)
  player.x = x;
  player.y = y;
  draw();
});
draw();

/** What the page shows, for its browser test and the console: the level, the player, the fog. */
export interface FogProbe {
  readonly level: readonly string[];
  readonly radius: number;
  readonly tilePx: number;
  readonly colours: typeof COLOURS;
  /** The player's tile (column, row). */
  readonly player: { readonly x: number; readonly y: number };
  visible(x: number, y: number): boolean;
  explored(x: number, y: number): boolean;
}

declare global {
  interface Window {
    fogProbe?: FogProbe;
  }
}

window.fogProbe = {
  level: LEVEL, radius: SIGHT_TILES, tilePx: TILE_PX, colours: COLOURS, player,
  visible: (x, y) => vision.isVisible(x, y),
  explored: (x, y) => vision.isExplored(x, y),
};
