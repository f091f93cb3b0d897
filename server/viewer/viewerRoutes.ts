import type { Application } from "express";
import { readFile } from "node:fs/promises";
import { PAGE_DIR, viewerScript } from "./pageBundle.js";

/**
 * Serves the live viewer: `GET /` the page, `GET /viewer.js` its script and `/viewer.js.map` its source
 * map (bundled at server start, see {@link viewerScript}). If the script cannot be built (say, dev
 * dependencies were not installed) the game server runs on: the viewer's routes answer 503 with the
 * reason, logged once.
 */
export function mountViewer(app: Application): void {
  const page = readFile(`${PAGE_DIR}index.html`, "utf8");
  const script = viewerScript();
  // Started now so the first visitor does not wait; a failure is reported once, here.
  Promise.all([page, script]).catch((err: Error) => console.error(`viewer page unavailable: ${err.message}`));
  const unavailable = (res: { status(code: number): { type(t: string): { send(body: string): unknown } } }, err: Error) =>
    res.status(503).type("text/plain").send(`the viewer page is unavailable: ${err.message}`);
  app.get("/", (_req, res) => {
    // A page whose script cannot be served would only fail later in the browser: say why here instead.
    Promise.all([page, script]).then(([html]) => res.type("html").set("cache-control", "no-cache").send(html), (err: Error) => unavailable(res, err));
  });
  app.get("/viewer.js", (_req, res) => {
    script.then(({ js }) => res.type("text/javascript").set("cache-control", "no-cache").send(js), (err: Error) => unavailable(res, err));
  });
  app.get("/viewer.js.map", (_req, res) => {
    script.then(({ map }) => res.type("application/json").set("cache-control", "no-cache").send(map), (err: Error) => unavailable(res, err));
  });
}
