import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { ViewerProbe } from "../../shared/viewer/main.js";
import { REPLAY_COLOURS } from "../../shared/viewer/spottedReplay.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ARTIFACTS, launchChromium } from "../fixtures/viewerBrowser.js";

// "Why was I spotted" on the live viewer page, in headless Chromium against a stealth server in this
// process: the page plays the arena's "front" spawn, 3 m in front of the guard Watcher, which spots it in
// about a second. The server's explanation arrives and the panel replays it: the guard's cone as it was
// and as the page was shown it, the sight ray, the page's own path, the meter filling. The check reads the
// panel's pixels for those colours (a page without the panel fails it) and keeps a screenshot.

let server: LoopbackServer;
let browser: Browser | undefined;
let setupFailure: Error | undefined;

beforeAll(async () => {
  server = await bootLoopback(createStealthServer({ room: { catalog: new MapCatalog().add(arenaMap()) } }));
  const launched = await launchChromium();
  if (launched instanceof Error) setupFailure = launched;
  else browser = launched;
}, 40_000);
afterAll(async () => {
  await browser?.close();
  await server?.shutdown();
});

const probe = <T>(page: Page, read: (p: ViewerProbe) => T): Promise<T> => page.evaluate(`(${read.toString()})(window.sightlineViewer)`) as Promise<T>;

/** Pixels of the panel's canvas within 40 (summed over the channels) of each colour. */
function countColours(page: Page, colours: Record<string, string>): Promise<Record<string, number>> {
  return page.evaluate((colours) => {
    const canvas = document.getElementById("why-view") as HTMLCanvasElement;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    const out: Record<string, number> = {};
    for (const [name, hex] of Object.entries(colours)) {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let k = 0; k < data.length; k += 4) if (Math.abs(data[k]! - r!) + Math.abs(data[k + 1]! - g!) + Math.abs(data[k + 2]! - b!) < 40) n++;
      out[name] = n;
    }
    return out;
  }, colours);
}

describe("why was I spotted, on the viewer page", () => {
  it("a player spotted by the guard in front of it gets the replay: cones, ray, path and meter, and the reasons in words", async () => {
    if (setupFailure !== undefined) throw setupFailure;
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
    await page.goto(`http://127.0.0.1:${server.port}/?map=arena&spawn=front`);
    await page.waitForFunction(() => window.sightlineViewer?.status === "connected", null, { timeout: 15_000 });
    // The panel stays hidden until the explanation arrives, watched on every frame in the page itself: on a
    // slow machine the guard may spot the player before a round trip from the test could look.
    await page.evaluate(() => {
      const w = window as unknown as { whyShownEarly: boolean };
      w.whyShownEarly = false;
      const watch = () => {
        if (window.sightlineViewer!.why() !== null) return;
        if (document.getElementById("why")!.checkVisibility()) w.whyShownEarly = true;
        requestAnimationFrame(watch);
      };
      watch();
    });
    await page.waitForFunction(() => window.sightlineViewer!.why() !== null, null, { timeout: 15_000 });
    const shownEarly = await page.evaluate(() => (window as unknown as { whyShownEarly: boolean }).whyShownEarly);
    expect(shownEarly, "the panel showed before any explanation").toBe(false);
    // Let it replay to the last step.
    await page.waitForFunction(() => {
      const w = window.sightlineViewer!.why()!;
      return w.drawnStep === w.steps - 1;
    }, null, { timeout: 10_000 });
    const why = (await probe(page, (p) => p.why()))!;
    expect(why.observer).toBe("guard:Watcher");
    expect(why.steps).toBeGreaterThan(5);
    expect(why.withShownPose).toBe(why.steps);
    expect(await page.locator("#why").isVisible()).toBe(true);
    const text = await page.locator("#why-text").textContent();
    expect(text).toMatch(/^guard:Watcher spotted you by sight: \d+ steps over [\d.]+ s; seen in \d+, as close as 3\.\d m/);
    expect(text).toMatch(/your screen showed it able to see you in all \d+/);
    const pixels = await countColours(page, { cone: REPLAY_COLOURS.present, ray: REPLAY_COLOURS.ray, path: REPLAY_COLOURS.path, meter: REPLAY_COLOURS.meter });
    expect(pixels.cone, "the guard's cone").toBeGreaterThan(100);
    expect(pixels.ray, "the sight ray").toBeGreaterThan(20);
    expect(pixels.path, "the player").toBeGreaterThan(20);
    await page.locator("#why").screenshot({ path: `${ARTIFACTS}/why-spotted.png` });
    await page.close();
  }, 60_000);
});
