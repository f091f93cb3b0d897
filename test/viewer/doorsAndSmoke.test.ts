import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, steer, viewerPerFile } from "../fixtures/viewerBrowser.js";
import { MAPS_DIR } from "../../server/rooms/mapCatalog.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { DOOR_REACH, SMOKE } from "../../shared/gameRules.js";
import { ConeOutline } from "../../shared/viewer/coneOutline.js";
import { LevelSight, type CloudReading, type DoorReading, type Keyed } from "../../shared/viewer/levelSight.js";
import { readTiledGeometry } from "../../shared/viewer/tiledGeometry.js";
import { MAP_COLOURS, OVERLAY_COLOURS, rgbOf, SMOKE_ALPHA, SMOKE_COLOURS } from "../../shared/viewer/palette.js";
import type { ViewerProbe } from "../../shared/viewer/main.js";

// Doors and smoke on the live viewer page, in headless Chromium (Debian's package, driven by
// playwright-core) against `npm start` on a free loopback port, as viewerPage.test.ts does: a player at
// spawn C of the demo map walks up to the door east of it (Tiled object 38, open as the map starts it),
// shuts it with E and opens it again, and throws a smoke grenade with G; the canvas shows each change at
// the door's and the cloud's pixels, and the fog of war follows them. First, without a browser, the
// page's sight (LevelSight, and the cones over it) mirroring the state's doors and clouds.

/** The demo's door between the spawn room and the bottom room: x 12.375-12.625, y 26-29 m. */
const DOOR = { id: 38, x: 12.5, y: 27.5 };
/** Where its pixel is read: in the doorway, off its middle, where an open double door's swing arcs meet. */
const DOOR_PIXEL = { x: 12.5, y: 26.75 };
/** Where the player stands to reach it (within DOOR_REACH of its outline, clear of its doorway). */
const BESIDE_DOOR = { x: 11.3, y: 27.5 };
/** Floor just past the door, which the player sees only while the door is open. */
const PAST_DOOR = { x: 14.5, y: 27.5 };
/** Where the grenade lands, in the spawn room; and floor behind the cloud from where the player stands. */
const CLOUD = { x: 6.5, y: 23.5 };
const BEHIND_CLOUD = { x: 2.5, y: 21.5 };


const rig = viewerPerFile();

type Rgb = [number, number, number];
/** Runs `read` (self-contained: it is sent as source) against the page's probe. */
const probe = <T>(page: Page, read: (p: ViewerProbe) => T): Promise<T> => page.evaluate(`(${read.toString()})(window.sightlineViewer)`) as Promise<T>;

const near = (a: Rgb, b: Rgb, tolerance = 3) => a.every((c, i) => Math.abs(c - b[i]!) <= tolerance);
/** `rgba(r, g, b, a)` of the palette as colour and alpha. */
function rgbaOf(css: string): { rgb: Rgb; alpha: number } {
  const m = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(css);
  if (m === null) throw new RangeError(`not an rgba() colour: ${css}`);
  return { rgb: [Number(m[1]), Number(m[2]), Number(m[3])], alpha: Number(m[4]) };
}
/** `top` drawn with `alpha` over `under`, as the canvas composites. */
const over = (top: Rgb, alpha: number, under: Rgb): Rgb => top.map((c, i) => c * alpha + under[i]! * (1 - alpha)) as Rgb;

const FLOOR = rgbOf(MAP_COLOURS.floor);
const DOOR_SHUT = rgbOf(MAP_COLOURS.door);
const veil = rgbaOf(OVERLAY_COLOURS.remembered);
/** A cloud at full density over the floor, in sight or under the "seen before" veil (its middle is hidden by its own rim). */
const SMOKE_OVER = [over(rgbOf(SMOKE_COLOURS.fill), SMOKE_ALPHA, FLOOR), over(rgbOf(SMOKE_COLOURS.fill), SMOKE_ALPHA, over(veil.rgb, veil.alpha, FLOOR))];

/** The colour the canvas shows at a world point (meters) now. */
function pixelAt(page: Page, at: { x: number; y: number }): Promise<Rgb> {
  return page.evaluate(({ x, y }) => {
    const c = window.sightlineViewer!.toCanvas(x, y);
    const px = (document.getElementById("view") as HTMLCanvasElement).getContext("2d")!.getImageData(Math.round(c.x), Math.round(c.y), 1, 1).data;
    return [px[0]!, px[1]!, px[2]!] as Rgb;
  }, at);
}

/** Waits for `count` more frames, so what the state says has been drawn. */
async function frames(page: Page, count = 3): Promise<void> {
  const from = await probe(page, (p) => p.frames());
  await page.waitForFunction((n) => window.sightlineViewer!.frames() >= n, from + count, { timeout: 5000 });
}

/** Whether the page draws door `id` open. */
const doorOpen = (page: Page, id: number) => page.evaluate((id) => window.sightlineViewer!.doors().find((d) => d.id === id)?.open, id);

/** Walks the own character with WASD toward `to` until it is within `tolerance` meters (or `ms` pass). */
async function walkTo(page: Page, to: { x: number; y: number }, tolerance: number, ms: number): Promise<boolean> {
  const held = new Set<string>();
  try {
    for (const until = Date.now() + ms; Date.now() < until; ) {
      const self = (await probe(page, (p) => p.self()))!;
      if (Math.hypot(to.x - self.x, to.y - self.y) < tolerance) return true;
      await steer(page, held, to.x - self.x, to.y - self.y);
      await page.waitForTimeout(50);
    }
    return false;
  } finally {
    await steer(page, held, 0, 0);
  }
}

/** A schema map as the page reads it, from plain entries. */
const keyed = <T>(entries: Record<string, T>): Keyed<T> => ({ forEach: (visit) => Object.entries(entries).forEach(([key, value]) => visit(value, key)) });
const NO_DOORS = keyed<DoorReading>({});
const NO_CLOUDS = keyed<CloudReading>({});

describe("the page's sight follows the state's doors and clouds", () => {
  const json = loadMapFile(`${MAPS_DIR}demo.tmj`).publicSource;
  const map = readTiledGeometry(json);
  /** How far east a narrow cone from beside door 38, looking through it, reaches (meters of x). */
  const reachEast = (cones: ConeOutline) => {
    const out: number[] = [];
    const n = cones.outline(BESIDE_DOOR.x, BESIDE_DOOR.y, 0, 0.2, 8, out);
    let far = -Infinity;
    for (let i = 0; i < n; i++) far = Math.max(far, out[2 * i]!);
    return far;
  };

  it("a door the state shuts is opaque in the fog's grid and stops a cone; opened, neither; out of the state it stays as last received", () => {
    const level = new LevelSight(json, map);
    const cones = new ConeOutline(map, level);
    expect(map.doors.map((d) => [d.id, d.open])).toEqual([[36, true], [37, true], [38, true]]);
    expect(level.opaqueAt(DOOR.x, DOOR.y)).toBe(false);
    expect(reachEast(cones)).toBeGreaterThan(BESIDE_DOOR.x + 7.9);

    level.sync(keyed({ "38": { open: false } }), NO_CLOUDS);
    expect(level.opaqueAt(DOOR.x, DOOR.y)).toBe(true);
    expect(reachEast(cones)).toBeCloseTo(12.375, 3);
    // The door leaves the client's view (culling): the page keeps the last news.
    level.sync(NO_DOORS, NO_CLOUDS);
    expect(level.isOpen(map.doors.findIndex((d) => d.id === DOOR.id))).toBe(false);
    expect(level.opaqueAt(DOOR.x, DOOR.y)).toBe(true);

    level.sync(keyed({ "38": { open: true } }), NO_CLOUDS);
    expect(level.opaqueAt(DOOR.x, DOOR.y)).toBe(false);
    expect(reachEast(cones)).toBeGreaterThan(BESIDE_DOOR.x + 7.9);
    level.dispose();
  });

  it("a dense cloud is mirrored at its radius as it grows, dropped once it thins or leaves the state; syncing what did not change changes nothing; an eye inside sees nothing", () => {
    const level = new LevelSight(json, map);
    const cones = new ConeOutline(map, level);
    const cloud = { x: CLOUD.x, y: CLOUD.y, radius: 1, density: 1 };
    const clouds = keyed({ "smoke:1": cloud });
    level.sync(NO_DOORS, clouds);
    expect(level.opaqueAt(CLOUD.x, CLOUD.y)).toBe(true);
    expect(level.opaqueAt(CLOUD.x + 2, CLOUD.y)).toBe(false);
    expect(level.discs).toEqual([CLOUD.x, CLOUD.y, 1]);

    cloud.radius = SMOKE.radius;
    level.sync(NO_DOORS, clouds);
    expect(level.opaqueAt(CLOUD.x + 2, CLOUD.y)).toBe(true);
    expect(level.discs).toEqual([CLOUD.x, CLOUD.y, SMOKE.radius]);
    const [gridVersion, version] = [level.grid.version, level.version];
    level.sync(NO_DOORS, clouds);
    expect([level.grid.version, level.version]).toEqual([gridVersion, version]);

    // Inside the cloud the cone collapses onto the eye; from outside it stops at the rim.
    const out: number[] = [];
    const n = cones.outline(CLOUD.x, CLOUD.y, 0, Math.PI / 2, 10, out);
    for (let i = 0; i < n; i++) expect([out[2 * i], out[2 * i + 1]]).toEqual([CLOUD.x, CLOUD.y]);
    cones.outline(CLOUD.x + 5, CLOUD.y, Math.PI, 0.05, 10, out);
    expect(Math.min(...out.filter((_, i) => i % 2 === 0))).toBeCloseTo(CLOUD.x + SMOKE.radius, 3);

    cloud.density = SMOKE.opaqueDensity - 0.01;
    level.sync(NO_DOORS, clouds);
    expect(level.opaqueAt(CLOUD.x, CLOUD.y)).toBe(false);
    expect(level.discs).toEqual([]);

    cloud.density = 1;
    level.sync(NO_DOORS, clouds);
    expect(level.opaqueAt(CLOUD.x, CLOUD.y)).toBe(true);
    level.sync(NO_DOORS, NO_CLOUDS);
    expect(level.opaqueAt(CLOUD.x, CLOUD.y)).toBe(false);
    expect(level.discs).toEqual([]);
    level.dispose();
  });
});

describe("doors and smoke on the live viewer page", () => {
  it("an open door is drawn open; shut with E it is drawn solid and hides what is past it; opened, drawn open again; a smoke grenade thrown with G is drawn as a grey cloud that hides what is behind it", async () => {
    rig();
    const page = await rig().browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
    await page.goto(`${rig().base}/?spawn=C`);
    await page.waitForFunction(() => window.sightlineViewer !== undefined && window.sightlineViewer.status !== "connecting", null, { timeout: 15_000 });
    expect(await probe(page, (p) => p.status)).toBe("connected");
    await page.waitForFunction(() => window.sightlineViewer!.frames() > 5);

    // The map's three doors are listed; door 38 is in the state (the player sees it) and open, so its doorway shows the floor.
    expect((await probe(page, (p) => p.doors())).map((d) => d.id).sort()).toEqual([36, 37, 38]);
    await page.waitForFunction((id) => window.sightlineViewer!.doors().find((d) => d.id === id)?.inState === true, DOOR.id, { timeout: 5000 });
    expect(await doorOpen(page, DOOR.id)).toBe(true);
    expect(await pixelAt(page, DOOR_PIXEL)).toEqual(FLOOR);
    expect(await pixelAt(page, PAST_DOOR)).toEqual(FLOOR);
    expect(await page.textContent("#grenades")).toContain(`${SMOKE.grenades} left`);

    // From the spawn the door is out of reach: E says so, and nothing is sent.
    await page.keyboard.press("KeyE");
    await expect.poll(() => page.textContent("#notice")).toContain(`no door within ${DOOR_REACH} m`);

    // Beside the door, E shuts it: drawn solid, its tiles opaque in the page's sight grid, and the floor
    // past it veiled as seen before (the fog follows the door).
    expect(await walkTo(page, BESIDE_DOOR, 0.3, 8000)).toBe(true);
    await page.keyboard.press("KeyE");
    await page.waitForFunction((id) => window.sightlineViewer!.doors().find((d) => d.id === id)?.open === false, DOOR.id, { timeout: 3000 });
    await frames(page);
    expect(await probe(page, (p) => p.opaqueAt(12.5, 27.5))).toBe(true);
    expect(await pixelAt(page, DOOR_PIXEL)).toEqual(DOOR_SHUT);
    const veiled = await pixelAt(page, PAST_DOOR);
    expect(Math.max(...veiled), `past the shut door: ${veiled}`).toBeLessThan(160);
    expect(Math.max(...veiled)).toBeGreaterThan(80);

    // G throws a grenade at the point under the mouse: a cloud appears in the state and grows to its
    // radius; it is drawn as a cool grey disc at full density, and the floor behind it is veiled.
    expect(await pixelAt(page, BEHIND_CLOUD)).toEqual(FLOOR);
    const box = (await page.locator("#view").boundingBox())!;
    const size = await page.evaluate(() => (document.getElementById("view") as HTMLCanvasElement).width);
    const screen = (at: { x: number; y: number }) => page.evaluate(({ x, y }) => window.sightlineViewer!.toCanvas(x, y), at).then((c) => ({ x: box.x + (c.x * box.width) / size, y: box.y + (c.y * box.width) / size }));
    const aim = await screen(CLOUD);
    await page.mouse.move(aim.x, aim.y);
    await page.keyboard.press("KeyG");
    await page.waitForFunction((r) => window.sightlineViewer!.smokes().some((c) => c.radius >= r), SMOKE.radius - 0.01, { timeout: 5000 });
    const cloud = (await probe(page, (p) => p.smokes()))[0]!;
    expect(Math.hypot(cloud.x - CLOUD.x, cloud.y - CLOUD.y)).toBeLessThan(0.1);
    expect(cloud.density).toBe(1);
    await frames(page);
    const smoky = await pixelAt(page, CLOUD);
    expect(SMOKE_OVER.some((c) => near(smoky, c, 4)), `cloud centre ${smoky}, expected one of ${JSON.stringify(SMOKE_OVER)}`).toBe(true);
    expect(await probe(page, (p) => p.opaqueAt(6.5, 23.5))).toBe(true);
    const hidden = await pixelAt(page, BEHIND_CLOUD);
    expect(Math.max(...hidden), `behind the cloud: ${hidden}`).toBeLessThan(160);
    await expect.poll(() => page.textContent("#grenades")).toContain(`${SMOKE.grenades - 1} left`);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-doors-smoke.png` });

    // A right click beyond the throw range is refused by the server, and the page shows its reason.
    const far = await screen({ x: BESIDE_DOOR.x + SMOKE.throwRange + 5, y: 23.5 });
    await page.mouse.click(far.x, far.y, { button: "right" });
    await expect.poll(() => page.textContent("#notice")).toMatch(/refused: smoke: a smoke grenade reaches 10 m/);
    expect(await probe(page, (p) => p.self()!.smokes)).toBe(SMOKE.grenades - 1);

    // E again opens the door: the doorway shows the floor and the floor past it is in sight again.
    await page.keyboard.press("KeyE");
    await page.waitForFunction((id) => window.sightlineViewer!.doors().find((d) => d.id === id)?.open === true, DOOR.id, { timeout: 3000 });
    await frames(page);
    expect(await probe(page, (p) => p.opaqueAt(12.5, 27.5))).toBe(false);
    expect(await pixelAt(page, DOOR_PIXEL)).toEqual(FLOOR);
    expect(await pixelAt(page, PAST_DOOR)).toEqual(FLOOR);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-door-open.png` });
  }, 60_000);
});
