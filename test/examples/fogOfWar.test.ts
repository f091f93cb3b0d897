import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { computeFov, OpacityGrid } from "sightline/fov";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FogProbe } from "../../examples/fog-of-war/main.js";
import { startFogOfWarServer, type FogOfWarServer } from "../../examples/fog-of-war/serve.js";

// The fog-of-war example as a player meets it: its own server (esbuild bundle, node:http), the page in
// headless Chromium (Debian's package, driven by playwright-core), moved with the keyboard. What it
// lights and remembers is held against computeFov run here in Node, and read back from the canvas.

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling Google's hosts, which this closed network refuses.
const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server: FogOfWarServer | undefined;
let browser: Browser | undefined;
/** Why the browser or the server could not start: each test fails with it (never a skip). */
let setupFailure: Error | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    setupFailure = new Error(
      `Chromium is not installed at ${CHROMIUM}, and the fog-of-war example's test needs it. Install Debian's package ` +
        "(apt-get update && apt-get install -y chromium) or point CHROMIUM_PATH at a Chromium binary.",
    );
    return;
  }
  const launched = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 20_000 }).then((b) => (browser = b));
  const started = startFogOfWarServer({ port: 0 }).then((s) => (server = s));
  // Both settle before the verdict, so afterAll stops whichever did start.
  const [b, s] = await Promise.allSettled([launched, started]);
  for (const r of [b, s]) if (r.status === "rejected") setupFailure ??= r.reason as Error;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Rgb = [number, number, number];
type Shown = "lit floor" | "lit wall" | "dimmed floor" | "dimmed wall" | "black" | "player" | "unknown colour";

interface Snapshot {
  player: { x: number; y: number };
  /** Tile indices (y * columns + x) the page reports. */
  visible: number[];
  explored: number[];
  /** The canvas pixel at the centre of each tile, by tile index. */
  pixels: Rgb[];
}

/** The probe's data, as it crosses into Node (its functions do not). */
type ProbeData = Omit<FogProbe, "visible" | "explored">;

async function openPage(): Promise<{ page: Page; probe: ProbeData; grid: OpacityGrid }> {
  if (setupFailure !== undefined) throw setupFailure;
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(server!.url);
  await page.waitForFunction(() => window.fogProbe !== undefined, null, { timeout: 5000 });
  expect(errors).toEqual([]);
  const probe: ProbeData = await page.evaluate(() => {
    const { level, radius, tilePx, colours, player } = window.fogProbe!;
    return { level, radius, tilePx, colours, player: { ...player } };
  });
  // The grid is rebuilt here from the level's text, not taken from the page, so a page that read its own
  // level wrong would disagree with it.
  const grid = new OpacityGrid(probe.level[0]!.length, probe.level.length, { cells: [...probe.level.join("")].map((c) => (c === "#" ? 1 : 0)) });
  return { page, probe, grid };
}

function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const p = window.fogProbe!;
    const columns = p.level[0]!.length;
    const canvas = document.getElementById("map") as HTMLCanvasElement;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    const out = { player: { x: p.player.x, y: p.player.y }, visible: [] as number[], explored: [] as number[], pixels: [] as [number, number, number][] };
    for (let y = 0; y < p.level.length; y++) {
      for (let x = 0; x < columns; x++) {
        if (p.visible(x, y)) out.visible.push(y * columns + x);
        if (p.explored(x, y)) out.explored.push(y * columns + x);
        const at = 4 * ((y * p.tilePx + p.tilePx / 2) * canvas.width + x * p.tilePx + p.tilePx / 2);
        out.pixels.push([data[at]!, data[at + 1]!, data[at + 2]!]);
      }
    }
    return out;
  });
}

/** Presses `key` and waits until the player has left the tile it stood on. */
async function step(page: Page, key: string): Promise<void> {
  const from = await page.evaluate(() => ({ ...window.fogProbe!.player }));
  await page.keyboard.press(key);
  await page.waitForFunction((from) => window.fogProbe!.player.x !== from.x || window.fogProbe!.player.y !== from.y, from, { timeout: 2000 });
}

/** The tiles computeFov sees from (x, y) over the grid, as the page's TileVision should. */
function seenFrom(grid: OpacityGrid, radius: number, x: number, y: number): Set<number> {
  const seen = new Set<number>();
  computeFov(grid, x, y, radius, (tx, ty) => seen.add(ty * grid.width + tx));
  return seen;
}

const sorted = (tiles: Iterable<number>) => [...tiles].sort((a, b) => a - b);
const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/** What each tile should look like on the canvas, given what the player sees and remembers. */
function expectedLook(grid: OpacityGrid, player: { x: number; y: number }, visible: Set<number>, explored: Set<number>): Shown[] {
  return Array.from({ length: grid.width * grid.height }, (_, i): Shown => {
    const x = i % grid.width;
    const y = (i - x) / grid.width;
    if (x === player.x && y === player.y) return "player";
    const kind = grid.isOpaque(x, y) ? "wall" : "floor";
    return visible.has(i) ? `lit ${kind}` : explored.has(i) ? `dimmed ${kind}` : "black";
  });
}

/** What each tile looks like on the canvas, named by the page's palette. */
function shownLook(probe: ProbeData, pixels: Rgb[]): Shown[] {
  const c = probe.colours;
  const names: [Shown, string][] = [["lit floor", c.floor], ["lit wall", c.wall], ["dimmed floor", c.floorSeen], ["dimmed wall", c.wallSeen], ["black", c.unseen], ["player", c.player]];
  return pixels.map((px) => names.find(([, hex]) => rgbOf(hex).every((v, k) => v === px[k]))?.[0] ?? "unknown colour");
}

describe("example: fog of war in the browser from sightline/fov", () => {
  it("at the start the player's tile and its open neighbours are lit, a tile behind a wall is dark, and the lit tiles are exactly what computeFov sees", async () => {
    const { page, probe, grid } = await openPage();
    const { player, visible, explored } = await snapshot(page);
    const at = (x: number, y: number) => y * grid.width + x;
    expect(probe.level.join("").indexOf("@")).toBe(at(player.x, player.y));

    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!grid.isOpaque(player.x + dx, player.y + dy)) expect(visible, `(${dx}, ${dy}) from the player`).toContain(at(player.x + dx, player.y + dy));
      }
    }
    // In the room below, within the sight radius, but the wall between the rooms hides it.
    const behindWall = at(1, 9);
    expect((1 - player.x) ** 2 + (9 - player.y) ** 2).toBeLessThanOrEqual(probe.radius ** 2);
    expect(grid.isOpaque(1, 9)).toBe(false);
    expect(visible).not.toContain(behindWall);
    expect(explored).not.toContain(behindWall);

    const fov = seenFrom(grid, probe.radius, player.x, player.y);
    expect(visible).toEqual(sorted(fov));
    expect(explored).toEqual(sorted(fov)); // nothing remembered yet beyond what is in sight
    await page.close();
  });

  it("walls stop the player: walking into one leaves it where it stands", async () => {
    const { page, grid } = await openPage();
    const start = (await snapshot(page)).player;
    await step(page, "ArrowUp");
    await step(page, "KeyW");
    expect((await snapshot(page)).player).toEqual({ x: start.x, y: 1 });
    expect(grid.isOpaque(start.x, 0)).toBe(true);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("KeyW");
    // Keys are handled in order: once this step has landed, the two into the wall were handled too.
    await step(page, "ArrowRight");
    expect((await snapshot(page)).player).toEqual({ x: start.x + 1, y: 1 });
    await page.close();
  });

  it("after walking into the room below, tiles seen on the way stay explored but no longer visible, and the canvas draws them dimmed", async () => {
    const { page, probe, grid } = await openPage();
    let s = await snapshot(page);
    const path = [s.player];
    // Right to the doorway's column, then down through it into the room below; arrows and WASD alike.
    for (const key of ["ArrowRight", "KeyD", "ArrowDown", "KeyS", "ArrowDown", "KeyS", "ArrowDown", "ArrowDown", "KeyS"]) {
      await step(page, key);
      s = await snapshot(page);
      path.push(s.player);
    }
    expect(s.player).toEqual({ x: 5, y: 10 });

    const now = seenFrom(grid, probe.radius, s.player.x, s.player.y);
    const ever = new Set(path.flatMap((p) => [...seenFrom(grid, probe.radius, p.x, p.y)]));
    expect(s.visible).toEqual(sorted(now));
    expect(s.explored).toEqual(sorted(ever));
    // The start room's corner: seen from the start, out of sight from here.
    const corner = 1 * grid.width + 1;
    expect(s.explored).toContain(corner);
    expect(s.visible).not.toContain(corner);

    // The drawing: every tile's centre in the colour of its state, and all three states on screen.
    const shown = shownLook(probe, s.pixels);
    const expected = expectedLook(grid, s.player, now, ever);
    const wrong = shown.flatMap((look, i) => (look === expected[i] ? [] : [`(${i % grid.width}, ${Math.floor(i / grid.width)}) drawn ${look}, expected ${expected[i]}`]));
    expect(wrong).toEqual([]);
    expect(shown[corner]).toBe("dimmed floor");
    expect(shown[s.player.y * grid.width + s.player.x + 1]).toBe("lit floor");
    expect(shown[2 * grid.width + 20]).toBe("black"); // the east room: never in sight
    expect(rgbOf(probe.colours.unseen)).toEqual([0, 0, 0]);
    expect(Math.max(...rgbOf(probe.colours.floorSeen))).toBeLessThan(Math.max(...rgbOf(probe.colours.floor)));
    await page.close();
  });
});
