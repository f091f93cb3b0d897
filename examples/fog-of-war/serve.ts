// Serves the fog-of-war example: `npx tsx examples/fog-of-war/serve.ts [port]` (or PORT=...; default
// 8080, 0 for any free port), then open the URL it prints. It bundles main.ts in memory with esbuild at
// start and serves it with index.html on 127.0.0.1 only, so nothing is reachable from another machine.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface FogOfWarServer {
  /** The page's address, e.g. `http://127.0.0.1:8080/`. */
  url: string;
  close(): Promise<void>;
}

/** Bundles the page and serves it; rejects with esbuild's messages if main.ts does not build. */
export async function startFogOfWarServer({ port = 8080 }: { port?: number } = {}): Promise<FogOfWarServer> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer from 0 to 65535 (got ${port})`);
  const [html, bundle] = await Promise.all([
    readFile(new URL("./index.html", import.meta.url), "utf8"),
    build({
      entryPoints: [fileURLToPath(new URL("./main.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      sourcemap: "inline", // the browser's tools then show the TypeScript
      write: false,
      logLevel: "silent",
    }),
  ]);
  const files: Record<string, [string, string]> = {
    "/": ["text/html; charset=utf-8", html],
    "/index.html": ["text/html; charset=utf-8", html],
    "/main.js": ["text/javascript; charset=utf-8", bundle.outputFiles[0]!.text],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://localhost").pathname];
    if (file === undefined || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": file[0], "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : file[1]);
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", done);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections(); // a browser's keep-alive connections would hold the port open
    }),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await startFogOfWarServer({ port });
  console.log(`fog of war: ${url} (Ctrl+C to stop)`);
}
