import type { Room } from "@colyseus/sdk";
import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeardNoiseMessage } from "sightline/colyseus";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { DISTRACTION, FOOTSTEPS, TICK_SECONDS } from "../../shared/gameRules.js";
import type { ViewerProbe } from "../../shared/viewer/main.js";
import { NOISE_MARKER, NOISE_RING, type NoiseReading } from "../../shared/viewer/noiseLayer.js";
import { WALK_STICK } from "../../shared/viewer/playerControls.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { doorMap } from "../fixtures/doorMap.js";
import { ticks } from "../fixtures/roomTicks.js";
import { ARTIFACTS, launchChromium } from "../fixtures/viewerBrowser.js";

// Noises on the live viewer page, in headless Chromium against a stealth server in this process (so the
// test holds the room: its map is the two rooms of test/fixtures/doorMap.ts, door shut, no guard). The
// page plays at spawn "west" (6, 6). Two SDK clients of another team throw distractions, which the room
// turns into thuds heard through the level: one from the sealed closet behind the west wall (hidden from
// the page, so the page learns only the way and the loudness: a chevron beside its character, pointing
// there), one from the porch in the west room (in the page's view, but its stone lands away from it, so
// the page is told only the way again: seeing the thrower says nothing of where the stone fell). A
// spectator page is told both as they were: rings. Every check reads the canvas's pixels against
// a copy taken just before the noise, so a page without the noise layer fails them. Then the page's own
// keys: F throws a distraction where the mouse is, V eases the run to a walk.

const TOKEN = "listen-to-everything-1234";

/** Where the page's player stands (spawn "west"), the hidden thrower (the sealed "closet") and the seen one ("porch"). */
const WEST = { x: 6, y: 6 };
/** Where the hidden thrower's stone lands: 3 m due east of the page's player, in the open. */
const HIDDEN_THUD = { x: 9, y: 6 };
/** Where the seen thrower's stone lands: in the west room, 4.3 m from the page's player. */
const SEEN_THUD = { x: 8, y: 9.5 };
/** Where the page's player throws its own, with F. */
const OWN_THUD = { x: 8, y: 3.5 };

let server: LoopbackServer;
let browser: Browser | undefined;
let setupFailure: Error | undefined;
let base = "";

beforeAll(async () => {
  const catalog = new MapCatalog().add(doorMap({ guard: false }));
  server = await bootLoopback(createStealthServer({ room: { catalog, spectatorToken: TOKEN } }));
  base = `http://127.0.0.1:${server.port}`;
  const launched = await launchChromium();
  if (launched instanceof Error) setupFailure = launched;
  else browser = launched;
}, 40_000);
afterAll(async () => {
  await browser?.close();
  await server?.shutdown();
});

/** Runs `read` (self-contained: it is sent as source) against the page's probe. */
const probe = <T>(page: Page, read: (p: ViewerProbe) => T): Promise<T> => page.evaluate(`(${read.toString()})(window.sightlineViewer)`) as Promise<T>;

async function openViewer(query: string): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 960, height: 700 } });
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  await page.goto(`${base}/${query}`);
  await page.waitForFunction(() => window.sightlineViewer !== undefined && window.sightlineViewer.status !== "connecting", null, { timeout: 15_000 });
  expect(await probe(page, (p) => p.status)).toBe("connected");
  await page.waitForFunction(() => window.sightlineViewer!.frames() > 5);
  return page;
}

/** Waits for `count` more frames, so what arrived has been drawn. */
async function frames(page: Page, count = 2): Promise<void> {
  const from = await probe(page, (p) => p.frames());
  await page.waitForFunction((n) => window.sightlineViewer!.frames() >= n, from + count, { timeout: 5000 });
}

/** A square of the canvas, `half` meters either side of a world point, whose pixels the page keeps to compare. */
interface Square {
  key: string;
  x: number;
  y: number;
  half: number;
}

/** A changed pixel, seen from its square's centre: distance (meters) and bearing (radians). */
interface Changed {
  d: number;
  angle: number;
}

/** Keeps, in the page, the pixels of each square as drawn now (after two more frames). */
async function keep(page: Page, squares: Square[]): Promise<void> {
  await frames(page);
  await page.evaluate((squares) => {
    const v = window.sightlineViewer!;
    const canvas = document.getElementById("view") as HTMLCanvasElement;
    const scale = v.toCanvas(1, 0).x - v.toCanvas(0, 0).x;
    const kept = ((window as unknown as { keptSquares?: Record<string, unknown> }).keptSquares ??= {});
    for (const { key, x, y, half } of squares) {
      const a = v.toCanvas(x - half, y - half);
      const x0 = Math.max(0, Math.floor(a.x));
      const y0 = Math.max(0, Math.floor(a.y));
      const w = Math.min(canvas.width - x0, Math.ceil(2 * half * scale));
      const h = Math.min(canvas.height - y0, Math.ceil(2 * half * scale));
      kept[key] = { x0, y0, w, h, scale, cx: x, cy: y, data: canvas.getContext("2d")!.getImageData(x0, y0, w, h).data };
    }
  }, squares);
}

/**
 * In the page, so nothing waits on a round trip while the noise fades: waits until more than `received`
 * noises have arrived and two frames have been drawn since, then reads the noises on screen and, for each
 * kept square, the pixels that changed (by more than 40 over the three channels).
 */
function afterNoise(page: Page, received: number, keys: string[]): Promise<{ noises: NoiseReading[]; changed: Record<string, Changed[]> }> {
  return page.evaluate(async ({ received, keys }) => {
    const v = window.sightlineViewer!;
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (const until = performance.now() + 3000; v.noisesReceived() <= received; await nextFrame()) {
      if (performance.now() > until) throw new Error(`no noise arrived within 3 s (${v.noisesReceived()} received in all)`);
    }
    const f0 = v.frames();
    while (v.frames() < f0 + 2) await nextFrame();
    const ctx = (document.getElementById("view") as HTMLCanvasElement).getContext("2d")!;
    type Kept = { x0: number; y0: number; w: number; h: number; scale: number; cx: number; cy: number; data: Uint8ClampedArray };
    const kept = (window as unknown as { keptSquares: Record<string, Kept> }).keptSquares;
    const changed: Record<string, { d: number; angle: number }[]> = {};
    for (const key of keys) {
      const s = kept[key]!;
      const now = ctx.getImageData(s.x0, s.y0, s.w, s.h).data;
      const out: { d: number; angle: number }[] = (changed[key] = []);
      for (let i = 0; i < s.w * s.h; i++) {
        const k = 4 * i;
        if (Math.abs(s.data[k]! - now[k]!) + Math.abs(s.data[k + 1]! - now[k + 1]!) + Math.abs(s.data[k + 2]! - now[k + 2]!) < 40) continue;
        const x = (s.x0 + (i % s.w) + 0.5) / s.scale - s.cx;
        const y = (s.y0 + Math.floor(i / s.w) + 0.5) / s.scale - s.cy;
        out.push({ d: Math.hypot(x, y), angle: Math.atan2(y, x) });
      }
    }
    return { noises: v.noises(), changed };
  }, { received, keys });
}

/** The smallest angle between two directions, radians. */
const apart = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

/** Checks that the changed pixels draw a ring around the centre they were measured from: at one radius, all the way round. */
function expectRing(pixels: { d: number; angle: number }[], what: string): void {
  expect(pixels.length, `${what}: changed pixels`).toBeGreaterThan(30);
  const ds = pixels.map((p) => p.d).sort((a, b) => a - b);
  const radius = ds[Math.floor(ds.length / 2)]!;
  expect(radius, `${what}: ring radius`).toBeGreaterThan(NOISE_RING.from - 0.1);
  expect(radius).toBeLessThan(NOISE_RING.thud + 0.3);
  const onRing = pixels.filter((p) => Math.abs(p.d - radius) < 0.3).length;
  expect(onRing / pixels.length, `${what}: share of the changed pixels within 0.3 m of radius ${radius.toFixed(2)} m`).toBeGreaterThan(0.9);
  const octants = new Set(pixels.map((p) => Math.floor(((p.angle + Math.PI) / (2 * Math.PI)) * 8) % 8));
  expect(octants.size, `${what}: octants the ring passes through`).toBe(8);
}

/** Collects the `noise` messages an SDK client receives. */
function earOf(client: Room): HeardNoiseMessage[] {
  const heard: HeardNoiseMessage[] = [];
  client.onMessage("noise", (list: HeardNoiseMessage[]) => heard.push(...list));
  return heard;
}

/** Where a world point is on the screen of `page`, for the mouse. */
async function screenPoint(page: Page, at: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const box = (await page.locator("#view").boundingBox())!;
  const c = await page.evaluate(({ x, y }) => ({ ...window.sightlineViewer!.toCanvas(x, y), width: (document.getElementById("view") as HTMLCanvasElement).width }), at);
  return { x: box.x + (c.x * box.width) / c.width, y: box.y + (c.y * box.width) / c.width };
}

/**
 * The page's character's speed while `keys` are held on the page, m/s, once under way: read from the
 * server's own state, as meters moved per simulation step, so a loaded machine's delays do not count.
 */
async function speedWith(page: Page, room: StealthRoom, id: string, keys: string[]): Promise<number> {
  const at = () => {
    const p = room.state.players.get(id)!;
    return { x: p.x, y: p.y, tick: room.state.tick };
  };
  for (const k of keys) await page.keyboard.down(k);
  try {
    await page.waitForTimeout(300);
    const a = at();
    await page.waitForTimeout(1000);
    const b = at();
    return Math.hypot(b.x - a.x, b.y - a.y) / ((b.tick - a.tick) * TICK_SECONDS);
  } finally {
    for (const k of [...keys].reverse()) await page.keyboard.up(k);
  }
}

describe("noises on the live viewer page", () => {
  it("a thud from a hidden thrower is a chevron beside the player pointing where it came from; so is one from a thrower in view, whose landing it is not told; a spectator sees rings; F throws, V walks", async () => {
    if (setupFailure !== undefined) throw setupFailure;
    const room = await server.createRoom<StealthRoom>("stealth", { map: "rooms" });
    const page = await openViewer("?spawn=west&team=red");
    const spectator = await openViewer(`?spectate=${TOKEN}`);
    const me = await probe(page, (p) => p.sessionId);
    const self = (await probe(page, (p) => p.self()))!;
    expect(Math.hypot(self.x - WEST.x, self.y - WEST.y)).toBeLessThan(0.05);
    expect(await page.textContent("#distractions")).toContain(`${DISTRACTION.count} left`);

    // 1. The hidden thrower: in the sealed closet, out of the page's view, 7.25 m from where its stone lands.
    const hidden = await server.connectTo(room, { spawn: "closet", team: "blue" });
    // Its team hears through the seen thrower's ear later on: taken, so the SDK does not warn of a message without a handler.
    earOf(hidden);
    await ticks(room, 5);
    expect(room.plugins.sightline.has(me, hidden.sessionId)).toBe(false);
    const nearMe: Square = { key: "near me", ...WEST, half: 2 };
    const atHiddenThud: Square = { key: "hidden thud", ...HIDDEN_THUD, half: 1 };
    const truthAtHiddenThud: Square = { key: "hidden thud, truth", ...HIDDEN_THUD, half: 2.2 };
    await keep(page, [nearMe, atHiddenThud]);
    await keep(spectator, [truthAtHiddenThud]);
    hidden.send("distract", HIDDEN_THUD);
    const [heard, truthHeard] = await Promise.all([afterNoise(page, 0, [nearMe.key, atHiddenThud.key]), afterNoise(spectator, 0, [truthAtHiddenThud.key])]);

    // What the page was told: a thud, by its own ear, from due east; no emitter, no spot.
    const [told] = heard.noises;
    expect(told).toMatchObject({ kind: "thud", listener: me, drawn: true });
    expect(told!.emitter).toBeUndefined();
    expect(told!.x).toBeUndefined();
    const expectedDir = Math.atan2(HIDDEN_THUD.y - WEST.y, HIDDEN_THUD.x - WEST.x);
    expect(apart(told!.dir, expectedDir)).toBeLessThan(0.1);
    expect(told!.level).toBeGreaterThan(0.5); // 3 m of a 14 m thud
    // Drawn: the changed pixels near the player sit at the chevron's distance, all toward the thud.
    const chevronPixels = heard.changed[nearMe.key]!;
    expect(chevronPixels.length, "chevron pixels near the player").toBeGreaterThan(15);
    for (const p of chevronPixels) {
      expect(p.d, "a chevron pixel's distance from the player").toBeGreaterThan(NOISE_MARKER.distance - 0.3);
      expect(p.d).toBeLessThan(NOISE_MARKER.distance + NOISE_MARKER.tip + 0.3);
      expect(apart(p.angle, expectedDir), "a chevron pixel's bearing from the player").toBeLessThan(NOISE_MARKER.halfAngle + 0.3);
    }
    const bearing = Math.atan2(chevronPixels.reduce((s, p) => s + Math.sin(p.angle), 0), chevronPixels.reduce((s, p) => s + Math.cos(p.angle), 0));
    expect(apart(bearing, expectedDir), "the chevron's mean bearing").toBeLessThan(0.15);
    // Nothing where the stone landed: the page does not know the spot. The spectator, told it, rings it.
    expect(heard.changed[atHiddenThud.key]).toEqual([]);
    expectRing(truthHeard.changed[truthAtHiddenThud.key]!, "the spectator's ring at the hidden thud");
    expect(truthHeard.noises[0]).toMatchObject({ kind: "thud", emitter: hidden.sessionId, x: HIDDEN_THUD.x, y: HIDDEN_THUD.y, listener: "" });

    // Gone after its 1.5 s: the square around the player is as it was.
    await page.waitForFunction(() => window.sightlineViewer!.noises().length === 0, null, { timeout: 4000 });
    expect((await afterNoise(page, -1, [nearMe.key])).changed[nearMe.key]).toEqual([]);

    // 2. The seen thrower: on the porch of the west room, in the page's view.
    const seen = await server.connectTo(room, { spawn: "porch", team: "blue" });
    const seenHeard = earOf(seen);
    await page.waitForFunction((id) => window.sightlineViewer!.players().includes(id), seen.sessionId, { timeout: 5000 });
    const atSeenThud: Square = { key: "seen thud", ...SEEN_THUD, half: 2.2 };
    await keep(page, [nearMe, atSeenThud]);
    const received = await probe(page, (p) => p.noisesReceived());
    seen.send("distract", SEEN_THUD);
    const seenTold = await afterNoise(page, received, [nearMe.key, atSeenThud.key]);
    expect(room.plugins.sightline.has(me, seen.sessionId)).toBe(true);
    // The stone fell 3 m from the thrower the page sees: a level and a way, no spot, no thrower.
    expect(seenTold.noises[0]).toMatchObject({ kind: "thud", listener: me });
    expect(seenTold.noises[0]!.emitter).toBeUndefined();
    expect(seenTold.noises[0]!.x).toBeUndefined();
    const towardSeen = Math.atan2(SEEN_THUD.y - WEST.y, SEEN_THUD.x - WEST.x);
    expect(apart(seenTold.noises[0]!.dir, towardSeen)).toBeLessThan(0.1);
    const besideMe = seenTold.changed[nearMe.key]!.filter((p) => p.d < NOISE_MARKER.distance + NOISE_MARKER.tip + 0.4);
    expect(besideMe.length, "the chevron's pixels near the player").toBeGreaterThan(15);
    const seenBearing = Math.atan2(besideMe.reduce((s, p) => s + Math.sin(p.angle), 0), besideMe.reduce((s, p) => s + Math.cos(p.angle), 0));
    expect(apart(seenBearing, towardSeen), "the chevron's mean bearing").toBeLessThan(0.15);
    await page.waitForFunction(() => window.sightlineViewer!.noises().length === 0, null, { timeout: 4000 });

    // Both at once, for the picture: two chevrons on the page, two rings for the spectator.
    const both = await probe(page, (p) => p.noisesReceived());
    hidden.send("distract", HIDDEN_THUD);
    seen.send("distract", SEEN_THUD);
    await page.waitForFunction((n) => window.sightlineViewer!.noisesReceived() >= n + 2, both, { timeout: 3000 });
    await page.waitForTimeout(250);
    await composeScreenshot(page, spectator);

    // 3. F throws a distraction where the mouse is: one fewer left, and the seen thrower, who sees the
    // page's player, hears it, unnamed and without its spot. Too far, and the server refuses and the page says why.
    const aim = await screenPoint(page, OWN_THUD);
    await page.mouse.move(aim.x, aim.y);
    await page.keyboard.press("KeyF");
    await expect.poll(() => page.textContent("#distractions")).toContain(`${DISTRACTION.count - 1} left`);
    expect(await probe(page, (p) => p.self()!.distractions)).toBe(DISTRACTION.count - 1);
    await expect.poll(() => seenHeard.find((n) => n.kind === "thud")).toBeDefined();
    const mine = seenHeard.find((n) => n.kind === "thud")!;
    expect(mine.emitter).toBeUndefined();
    expect(mine.x).toBeUndefined();
    expect(mine.level).toBeGreaterThan(0);
    const far = await screenPoint(page, { x: WEST.x + DISTRACTION.throwRange + 2, y: WEST.y });
    await page.mouse.move(far.x, far.y);
    await page.keyboard.press("KeyF");
    await expect.poll(() => page.textContent("#notice")).toMatch(new RegExp(`refused: distract: a distraction reaches ${DISTRACTION.throwRange} m`));
    expect(await probe(page, (p) => p.self()!.distractions)).toBe(DISTRACTION.count - 1);

    // 4. V eases the stick to a walk: east at full speed (a run), back west with V held (a walk).
    const run = await speedWith(page, room, me, ["KeyD"]);
    const walk = await speedWith(page, room, me, ["KeyV", "KeyA"]);
    expect(run, "full speed, m/s").toBeGreaterThan(FOOTSTEPS.runFrom);
    expect(walk, "with V held, m/s").toBeLessThan(FOOTSTEPS.runFrom);
    expect(walk).toBeGreaterThan(FOOTSTEPS.stillBelow);
    expect(walk / run).toBeGreaterThan(WALK_STICK - 0.1);
    expect(walk / run).toBeLessThan(WALK_STICK + 0.1);
    await page.close();
    await spectator.close();
  }, 60_000);
});

/**
 * test-artifacts/viewer-noises.png (docs/images/viewer-noises.png is a copy): the player's page (canvas and
 * sidebar) with the spectator's canvas of the same moment set under the player's canvas, composed in
 * Chromium (a canvas `drawImage`).
 */
async function composeScreenshot(page: Page, spectator: Page): Promise<void> {
  const width = 960;
  const height = 690;
  const [player, truth] = await Promise.all([
    page.screenshot({ clip: { x: 0, y: 0, width, height } }),
    spectator.locator("#view").screenshot(),
  ]);
  const canvasBox = (await page.locator("#view").boundingBox())!;
  const composer = await browser!.newPage({ viewport: { width, height } });
  const png = await composer.evaluate(async ({ player, truth, width, height, top, left }) => {
    const load = (b64: string) => new Promise<HTMLImageElement>((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = reject;
      img.src = `data:image/png;base64,${b64}`;
    });
    const [a, b] = await Promise.all([load(player), load(truth)]);
    const c = document.createElement("canvas");
    c.width = width;
    c.height = height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(a, 0, 0);
    ctx.fillStyle = "#e6e6e6";
    ctx.font = "14px sans-serif";
    ctx.fillText("the same moment, as a spectator sees it (every noise where it was):", left, top - 8);
    ctx.drawImage(b, left, top);
    return c.toDataURL("image/png").slice("data:image/png;base64,".length);
  }, { player: player.toString("base64"), truth: truth.toString("base64"), width, height, top: Math.round(canvasBox.y + canvasBox.height + 40), left: Math.round(canvasBox.x) });
  await composer.close();
  writeFileSync(`${ARTIFACTS}/viewer-noises.png`, Buffer.from(png, "base64"));
}
