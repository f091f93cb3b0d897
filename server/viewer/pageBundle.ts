import { build } from "esbuild";
import { fileURLToPath } from "node:url";

/**
 * The viewer page's folder, `shared/viewer/`: `index.html` and the TypeScript the script is bundled from.
 * It is browser code, so it lives with the code that runs in browsers; this server only bundles and serves it.
 */
export const PAGE_DIR = fileURLToPath(new URL("../../shared/viewer/", import.meta.url));

/** The bundled script and its source map (served next to it, so the browser's tools show the TypeScript). */
export interface ViewerScript {
  js: string;
  map: string;
}

let bundled: Promise<ViewerScript> | undefined;

/**
 * The viewer page's script: `shared/viewer/main.ts` and what it imports (the @colyseus/sdk browser build from
 * node_modules, `shared/` code), bundled in memory by esbuild's JS API as one ES module. Built once per
 * process, on first call (0.3-0.4 s here); rejects with esbuild's messages if the page does not build.
 */
export function viewerScript(): Promise<ViewerScript> {
  bundled ??= build({
    entryPoints: [`${PAGE_DIR}main.ts`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: "linked",
    outfile: "viewer.js", // a name only: nothing is written
    legalComments: "none",
    logLevel: "silent",
  }).then((result) => ({
    js: result.outputFiles.find((f) => f.path.endsWith(".js"))!.text,
    map: result.outputFiles.find((f) => f.path.endsWith(".js.map"))!.text,
  }));
  return bundled;
}
