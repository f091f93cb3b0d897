import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, startServer, steer, viewerPerFile } from "../fixtures/viewerBrowser.js";
import { computeFov, opacityGridFromTiled } from "../../shared/fov/index.js";
import { PLAYER_SIGHT_RANGE } from "../../shared/gameRules.js";
import { ALERT_COLOURS, CHARACTER_COLOURS, MAP_COLOURS, rgbOf } from "../../shared/viewer/palette.js";
import type { ViewerProbe } from "../../shared/viewer/main.js";

// The live viewer page in headless Chromium (Debian's package, driven by playwright-core), against
// `npm start` on a free loopback port: it connects, draws, walks with the keyboard, turns with the mouse,
// and the guard it walks in front of changes colour on the canvas.

const TOKEN = "viewer-test-token";

const rig = viewerPerFile({ SPECTATOR_TOKEN: TOKEN });

type Probe = ViewerProbe;
type Rgb = [number, number, number];
/** Runs `read` (self-contained: it is sent as source) against the page's probe. */
const probe = <T>(page: Page, read: (p: Probe) => T): Promise<T> => page.evaluate(`(${read.toString()})(window.sightlineViewer)`) as Promise<T>;

/** Opens the page and waits until it has joined and drawn. */
async function openViewer(query: string): Promise<Page> {
  const page = await rig().browser.newPage({ viewport: { width: 1400, height: 820 } });
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  await page.goto(`${rig().base}/${query}`);
  await page.waitForFunction(() => window.sightlineViewer !== undefined && window.sightlineViewer.status !== "connecting", null, { timeout: 15_000 });
  return page;
}

/** The colour the canvas shows at an observer's centre now, read in the same turn as its position. */
function observerPixel(page: Page, id: string): Promise<{ rgb: Rgb; alert: string } | null> {
  return page.evaluate((id) => {
    const v = window.sightlineViewer!;
    const o = v.observers().find((x) => x.id === id);
    if (o === undefined) return null;
    const at = v.toCanvas(o.x, o.y);
    const px = (document.getElementById("view") as HTMLCanvasElement).getContext("2d")!.getImageData(Math.round(at.x), Math.round(at.y), 1, 1).data;
    return { rgb: [px[0]!, px[1]!, px[2]!] as [number, number, number], alert: o.alert };
  }, id);
}

const near = (a: Rgb, b: Rgb, tolerance = 3) => a.every((c, i) => Math.abs(c - b[i]!) <= tolerance);
const paletteName = (rgb: Rgb) => Object.entries(ALERT_COLOURS).find(([, hex]) => near(rgb, rgbOf(hex)))?.[0];


/** Walks the own character with the keyboard until `done` says so (or `ms` pass), steering at `target` every 50 ms. */
async function walk(page: Page, target: () => Promise<{ x: number; y: number }>, done: () => Promise<boolean>, ms: number): Promise<boolean> {
  const held = new Set<string>();
  const until = Date.now() + ms;
  try {
    while (Date.now() < until) {
      if (await done()) return true;
      const self = (await probe(page, (p) => p.self()))!;
      const to = await target();
      await steer(page, held, to.x - self.x, to.y - self.y);
      await page.waitForTimeout(50);
    }
    return done();
  } finally {
    await steer(page, held, 0, 0);
  }
}

describe("the live viewer page", () => {
  it("connects, draws the map and the fog of war, walks with WASD, turns with the mouse, crouches, and the guard it walks in front of changes colour", async () => {
    rig();
    const page = await openViewer("?spawn=C");
    expect(await probe(page, (p) => p.status)).toBe("connected");
    expect(await probe(page, (p) => p.role)).toBe("player");
    await page.waitForFunction(() => window.sightlineViewer!.frames() > 5);

    // The canvas holds the map and the character: floor, walls, and the own white disc where the state says;
    // and the fog: a floor tile in sight is clear, the top-left room (never seen from here) is dark.
    const drawn = await page.evaluate(() => {
      const canvas = document.getElementById("view") as HTMLCanvasElement;
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      const colours = new Map<string, number>();
      for (let i = 0; i < data.length; i += 4) {
        const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
        colours.set(key, (colours.get(key) ?? 0) + 1);
      }
      const self = window.sightlineViewer!.self()!;
      const at = window.sightlineViewer!.toCanvas(self.x, self.y);
      const pixel = (x: number, y: number) => Array.from(canvas.getContext("2d")!.getImageData(Math.round(x), Math.round(y), 1, 1).data.subarray(0, 3));
      const inSight = window.sightlineViewer!.toCanvas(7.5, 28.5);
      const unseen = window.sightlineViewer!.toCanvas(5.5, 5.5);
      return {
        width: canvas.width, height: canvas.height, colours: [...colours.entries()], selfPixel: pixel(at.x, at.y),
        inSight: pixel(inSight.x, inSight.y), unseen: pixel(unseen.x, unseen.y),
      };
    });
    expect(drawn.width).toBe(960); // the demo map is 40 x 30 m, at 24 px per meter
    expect(drawn.height).toBe(720);
    const share = (hex: string) => drawn.colours.filter(([key]) => near(key.split(",").map(Number) as Rgb, rgbOf(hex))).reduce((n, [, count]) => n + count, 0) / (drawn.width * drawn.height);
    expect(share(MAP_COLOURS.wall)).toBeGreaterThan(0.02);
    expect(drawn.colours.length).toBeGreaterThan(20);
    expect(drawn.selfPixel).toEqual(rgbOf(CHARACTER_COLOURS.self));
    expect(drawn.inSight).toEqual(rgbOf(MAP_COLOURS.floor));
    expect(Math.max(...drawn.unseen)).toBeLessThan(60);

    // WASD: from spawn C round the end of the wall east of it, into the bottom room.
    const start = (await probe(page, (p) => p.self()))!;
    expect(start.x).toBeCloseTo(9, 0);
    const arrived = await walk(page, async () => ({ x: 13.5, y: 27.6 }), async () => {
      const s = (await probe(page, (p) => p.self()))!;
      return Math.hypot(s.x - 13.5, s.y - 27.6) < 0.5;
    }, 6000);
    expect(arrived).toBe(true);
    const moved = (await probe(page, (p) => p.self()))!;
    expect(Math.hypot(moved.x - start.x, moved.y - start.y)).toBeGreaterThan(4);

    // Fog memory: tiles the spawn saw that the wall now hides (shared/fov decides which, as the page and the
    // server do) are under the lighter veil of tiles seen before, neither clear nor dark.
    const grid = opacityGridFromTiled(await (await fetch(`${rig().base}/maps/demo.tmj`)).json());
    const sightFrom = (x: number, y: number) => {
      const seen = new Set<number>();
      const eye = grid.eyeTile(x, y, { x: 0, y: 0 });
      // The page's radius: meters over the tile size, as FogOfWar and the server's ExploredTiles take it.
      computeFov(grid, eye.x, eye.y, PLAYER_SIGHT_RANGE / Math.max(grid.tileWidth, grid.tileHeight), (tx, ty) => seen.add(ty * grid.width + tx));
      return seen;
    };
    const now = sightFrom(moved.x, moved.y);
    const hidden = [...sightFrom(start.x, start.y)].filter((i) => !now.has(i) && !grid.isOpaque(i % grid.width, Math.floor(i / grid.width)));
    expect(hidden.length).toBeGreaterThan(3);
    const veils = await page.evaluate(({ tiles, columns, tw, th }) => {
      const ctx = (document.getElementById("view") as HTMLCanvasElement).getContext("2d")!;
      return tiles.map((i) => {
        const at = window.sightlineViewer!.toCanvas(((i % columns) + 0.5) * tw, (Math.floor(i / columns) + 0.5) * th);
        return Math.max(...ctx.getImageData(Math.round(at.x), Math.round(at.y), 1, 1).data.subarray(0, 3));
      });
    }, { tiles: hidden, columns: grid.width, tw: grid.tileWidth, th: grid.tileHeight });
    for (const brightest of veils) {
      expect(brightest).toBeGreaterThan(80);
      expect(brightest).toBeLessThan(160);
    }

    // The mouse sets the facing: point left of the character.
    const box = (await page.locator("#view").boundingBox())!;
    const scale = box.width / drawn.width;
    await page.mouse.move(box.x + (moved.x - 3) * 24 * scale, box.y + moved.y * 24 * scale);
    await page.waitForFunction(() => Math.abs(Math.abs(window.sightlineViewer!.self()!.facing) - Math.PI) < 0.2, null, { timeout: 3000 });
    // C toggles crouching, Shift crouches while held.
    await page.keyboard.press("KeyC");
    await page.waitForFunction(() => window.sightlineViewer!.self()!.crouch, null, { timeout: 3000 });
    await page.keyboard.press("KeyC");
    await page.waitForFunction(() => !window.sightlineViewer!.self()!.crouch, null, { timeout: 3000 });
    await page.keyboard.down("ShiftLeft");
    await page.waitForFunction(() => window.sightlineViewer!.self()!.crouch, null, { timeout: 3000 });
    await page.keyboard.up("ShiftLeft");
    await page.waitForFunction(() => !window.sightlineViewer!.self()!.crouch, null, { timeout: 3000 });

    // Guard Ed patrols this room eastward from (15, 23), back turned. It is drawn idle; walk round it
    // into its path, 4 m ahead, until its disc changes colour.
    await page.waitForFunction(() => window.sightlineViewer!.observers().some((o) => o.id === "guard:Ed"), null, { timeout: 5000 });
    const before = (await observerPixel(page, "guard:Ed"))!;
    expect(before.alert).toBe("idle");
    expect(paletteName(before.rgb)).toBe("idle");
    let after = before;
    const changed = await walk(page, async () => {
      const ed = (await probe(page, (p) => p.observers().find((o) => o.id === "guard:Ed")))!;
      return { x: Math.min(ed.x + 4, 32), y: 23 };
    }, async () => {
      after = (await observerPixel(page, "guard:Ed")) ?? after;
      return paletteName(after.rgb) !== "idle";
    }, 15_000);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-player.png` });
    expect(changed, `guard:Ed still drawn ${JSON.stringify(after)}`).toBe(true);
    expect(["suspicious", "alerted", "searching"]).toContain(paletteName(after.rgb));
    expect(paletteName(after.rgb)).toBe(after.alert); // the colour is the state the client received
    // The page logged the detection as it arrived.
    await page.waitForFunction(() => document.querySelectorAll("#events li").length > 0, null, { timeout: 3000 });
    expect(await page.textContent("#events")).toMatch(/guard:Ed (noticed|suspicious|spotted)/);

    // A spectator sees every guard and camera and the rays; narrowed to this player, what its client received.
    const sessionId = await probe(page, (p) => p.sessionId);
    const spectator = await openViewer(`?spectate=${TOKEN}`);
    expect(await probe(spectator, (p) => p.status)).toBe("connected");
    await spectator.waitForFunction(() => window.sightlineViewer!.rayMessages() > 5, null, { timeout: 5000 });
    expect((await probe(spectator, (p) => p.observers())).map((o) => o.id).sort()).toEqual(
      ["camera:hall-cam", "camera:window-cam", "guard:Ada", "guard:Bo", "guard:Cy", "guard:Di", "guard:Ed", "guard:Flo"],
    );
    await spectator.waitForFunction((id) => window.sightlineViewer!.players().includes(id), sessionId);
    await spectator.screenshot({ path: `${ARTIFACTS}/viewer-spectator.png` });
    await spectator.selectOption("#show", sessionId);
    // Until the server's first report arrives the narrowed page shows nothing, which could pass for an
    // agreement with a player who sees no guard: wait for the report (the player always holds itself).
    await spectator.waitForFunction((id) => window.sightlineViewer!.players().includes(id), sessionId, { timeout: 5000 });
    await spectator.waitForFunction(() => window.sightlineViewer!.observers().length < 8, null, { timeout: 5000 });
    // Both pages follow the live room (the guard may be chasing the player): compare until they agree.
    const ids = async (p: Page) => (await probe(p, (v) => v.observers())).map((o) => o.id).sort().join(",");
    let narrowed = "";
    let received = "not read yet";
    for (const until = Date.now() + 5000; narrowed !== received && Date.now() < until; ) {
      [narrowed, received] = await Promise.all([ids(spectator), ids(page)]);
      if (narrowed !== received) await page.waitForTimeout(100);
    }
    expect(narrowed).toBe(received);
    expect(await probe(spectator, (p) => p.players())).toContain(sessionId);
    await spectator.screenshot({ path: `${ARTIFACTS}/viewer-spectator-narrowed.png` });

    // A wrong token is refused, and the page says why.
    const refused = await openViewer("?spectate=guess");
    expect(await probe(refused, (p) => p.status)).toBe("error");
    expect(await refused.textContent("#status")).toMatch(/wrong spectator token/);
  }, 60_000);

  it("npm start refuses a malformed SPECTATOR_TOKEN, and says why", async () => {
    await expect(startServer({ SPECTATOR_TOKEN: "two words that are long enough" })).rejects.toThrow(/SPECTATOR_TOKEN must be 16 to 256 characters, without spaces/);
    await expect(startServer({ SPECTATOR_TOKEN: "short" })).rejects.toThrow(/SPECTATOR_TOKEN must be 16 to 256 characters/);
  }, 45_000); // two starts, each allowed 20 s: one took 8.8 s in a full suite on a slow VM
});
