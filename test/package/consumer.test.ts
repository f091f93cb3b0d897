import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a studio gets it: built, packed, installed into a fresh project with its peers (from
 * this repository's own installed copies, packed again: no network), compiled with plain `tsc` and run
 * with plain `node`, no loader and no bundler.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const TSC = require.resolve("typescript/bin/tsc");
/** Never in a consumer's install: the demo server's, viewer's, load test's and benches' packages. */
const DEMO_ONLY = ["esbuild", "@colyseus/monitor", "@colyseus/tools", "@colyseus/ws-transport", "@colyseus/testing", "prom-client", "express", "zod", "tsx", "vitest", "rot-js", "playwright-core"];

let work = "";
let project = "";
let tarball = "";
let packedFiles: string[] = [];

function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 1 << 26, env: { ...process.env, npm_config_update_notifier: "false" } }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, out: `${stdout}${stderr}`, stdout });
    });
  });
}

/** Runs a command that must succeed; resolves with its standard output. */
async function ok(command: string, args: string[], cwd: string): Promise<string> {
  const r = await run(command, args, cwd);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${r.code}:\n${r.out}`);
  return r.stdout;
}

/** Packs an installed package of this repository into `dir`, offline; returns the tarball's path. */
async function packInstalled(name: string, dir: string): Promise<string> {
  const out = await ok("npm", ["pack", join(ROOT, "node_modules", name), "--ignore-scripts", "--pack-destination", dir, "--json"], ROOT);
  return join(dir, (JSON.parse(out.slice(out.indexOf("["))) as { filename: string }[])[0]!.filename);
}

function sizeOf(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

/** Installed packages, by name (scoped ones included), nested ones too. */
function installed(modules: string): string[] {
  const names: string[] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith(".")) continue;
    if (name.startsWith("@")) {
      for (const sub of readdirSync(join(modules, name))) names.push(`${name}/${sub}`);
    } else names.push(name);
  }
  for (const name of [...names]) {
    const nested = join(modules, name, "node_modules");
    try {
      names.push(...installed(nested));
    } catch {
      // no nested modules
    }
  }
  return names;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "sightline-consumer-"));
  await ok("npm", ["run", "build"], ROOT);
  const out = await ok("npm", ["pack", "--pack-destination", work, "--json"], ROOT);
  const packed = (JSON.parse(out.slice(out.indexOf("["))) as { filename: string; files: { path: string }[] }[])[0]!;
  tarball = join(work, packed.filename);
  packedFiles = packed.files.map((f) => f.path);
  project = join(work, "game");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "a-studio-game", version: "1.0.0", private: true, type: "module" }, null, 2));
  const peers = await Promise.all(["planck", "stage-js"].map((p) => packInstalled(p, work)));
  await ok("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball, ...peers], project);
}, 240_000);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

describe("the package a studio installs", () => {
  it("holds the built library, its licence and changelog, and nothing of the demo", () => {
    expect(packedFiles).toContain("LICENSE");
    expect(packedFiles).toContain("CHANGELOG.md");
    expect(packedFiles).toContain("dist/server/vision/index.js");
    expect(packedFiles).toContain("dist/server/vision/index.d.ts");
    const strays = packedFiles.filter((f) => !/^(dist\/(server\/(vision(\/(awareness|fairness))?|hearing|occluders|culling|colyseus|testing|planck)|shared\/(fov|math|tiled|validation))\/[^/]+\.(js|d\.ts)|LICENSE|README\.md|CHANGELOG\.md|package\.json)$/.test(f));
    expect(strays).toEqual([]);
  });

  it("installs with its peers alone: no demo, load-test or build tool comes along", () => {
    const names = installed(join(project, "node_modules"));
    expect(names.sort()).toEqual(["planck", "sightline", "stage-js"]);
    for (const name of DEMO_ONLY) expect(names).not.toContain(name);
    const mb = sizeOf(join(project, "node_modules")) / 1e6;
    // The figure docs/package.md quotes, printed so a run can be compared with it.
    console.log(`consumer install: ${names.length} packages, ${mb.toFixed(1)} MB (sightline ${(sizeOf(join(project, "node_modules/sightline")) / 1e6).toFixed(2)} MB)`);
    expect(mb).toBeLessThan(20);
  });

  it("the examples without Colyseus compile with plain tsc (NodeNext) against the installed types and run on plain node", async () => {
    const types = await Promise.all(["@types/node", "undici-types"].map((p) => packInstalled(p, work)));
    await ok("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-save", ...types], project);
    cpSync(join(ROOT, "examples/vision-and-awareness/main.ts"), join(project, "src/main.ts"));
    cpSync(join(ROOT, "examples/culling-without-colyseus/main.ts"), join(project, "src/culling.ts"));
    cpSync(join(ROOT, "examples/hearing/main.ts"), join(project, "src/hearing.ts"));
    writeFileSync(join(project, "src/entries.ts"), [
      "import { VisionSystem, AwarenessModel, DEFAULT_VISION_OPTIONS, wrapAngle, type ObserverSpec } from \"sightline\";",
      "import { Occluders, convexPieces, readTiledMap } from \"sightline/occluders\";",
      "import { ViewCulling, DEFAULT_CULLING_OPTIONS, type CullingEntity } from \"sightline/culling\";",
      "import { computeFov, OpacityGrid, TileVision } from \"sightline/fov\";",
      "const spec: ObserverSpec = { position: { x: 0, y: 0 }, facing: wrapAngle(7), range: 5, fov: 1 };",
      "const entity: CullingEntity = { x: 1, y: 2 };",
      "console.log([VisionSystem, AwarenessModel, Occluders, convexPieces, readTiledMap, ViewCulling, computeFov, OpacityGrid, TileVision].map((f) => typeof f).join(\",\"), DEFAULT_VISION_OPTIONS.raysPerTick, DEFAULT_CULLING_OPTIONS.range, spec.range, entity.x);",
    ].join("\n"));
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "dist", rootDir: "src", types: ["node"], skipLibCheck: false },
      include: ["src"],
    }, null, 2));
    const compiled = await run(process.execPath, [TSC, "-p", "tsconfig.json"], project);
    expect(compiled.out).toBe("");
    expect(compiled.code).toBe(0);
    const entries = await ok(process.execPath, ["dist/entries.js"], project);
    expect(entries.trim()).toBe("function,function,function,function,function,function,function,function,function 256 20 5 1");
    const example = await ok(process.execPath, ["dist/main.js"], project);
    expect(example).toMatch(/^tick \d+: guard noticed thief at/m);
    expect(example).toMatch(/^tick \d+: guard spotted thief at/m);
    expect(example.trim().split("\n").at(-1)).toBe("guard is alerted, awareness of the thief 1.00");
    // Culling for a server of its own: a respawn between ticks is let go before the send; a radar reveal
    // arrives at the next update and leaves after its second and the linger.
    const culling = (await ok(process.execPath, ["dist/culling.js"], project)).trim().split("\n");
    expect(culling).toEqual([
      "tick 1: west +west east +east east +scout west +scout east +west | west holds scout,west",
      "respawn, before the next tick's send: west -scout | west holds west",
      "tick 2: no change | west holds west",
      "tick 3: west +scout | west holds scout,west",
      "tick 7: east -west | west holds scout,west", // what the scout saw lingers for its team
      "tick 28: west -scout | west holds west",
    ]);
    // Hearing: footsteps behind the wall go unheard, those near the doorway are heard round it or straight
    // through it; the stone makes the guard suspicious of where it fell; the ally is never told who.
    const heard = await ok(process.execPath, ["dist/hearing.js"], project);
    expect(heard).toMatch(/^tick \d+: footstep at \(13, 16\.0\), 9\.9 m in a straight line: not heard: the way round the wall is longer than 10 m$/m);
    expect(heard).toMatch(/heard round the wall, from 11 deg \(the doorway's way\), 9\.9 m of path/);
    expect(heard).toMatch(/heard straight through the doorway, 7\.1 m of path, level 0\.29/);
    expect(heard).toMatch(/^  tick 181: guard suspicious thief by hearing, looks at \(12, 14\.0\)$/m);
    const told = heard.split("\n").filter((l) => l.includes("the ally is told")).map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, unknown>);
    expect(told.map((m) => m.kind)).toEqual(["footstep", "stone"]);
    for (const m of told) expect(Object.keys(m).sort()).toEqual(["dir", "kind", "level", "listener"]);
    expect(heard.trim().split("\n").at(-1)).toBe("guard is suspicious, awareness of the thief 0.53, thief at (13, 1.0)");
    // CommonJS code loads it too, on the Node versions that require ES modules.
    const required = await ok(process.execPath, ["-e", "const s = require('sightline'); const o = require('sightline/occluders'); console.log(typeof s.VisionSystem, typeof o.Occluders)"], project);
    expect(required.trim()).toBe("function function");
  });

  it("publint and Are the Types Wrong find no problem", async () => {
    const publint = await run(process.execPath, [join(ROOT, "node_modules/publint/src/cli.js"), "run", tarball, "--level", "suggestion"], work);
    expect(publint.out).toMatch(/All good!/);
    expect(publint.code).toBe(0);
    const attwBin = join(ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js");
    // An ES-module-only package: the profile leaves out resolutions that cannot load one (TypeScript's
    // old `node10`, and `require` as attw judges it; Node 22.12 and later do load it, see below).
    const attw = await run(process.execPath, [attwBin, tarball, "--profile", "esm-only", "--format", "json"], work);
    const report = JSON.parse(attw.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
    expect(report.analysis.problems.filter((p) => p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs")).toEqual([]);
    expect(attw.code).toBe(0);
  });
});

// Reading the changelog's statement of what semver covers, so it cannot silently go missing.
describe("release notes", () => {
  it("the changelog states the public API semver covers, and the version it describes is the package's", () => {
    const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(changelog).toContain(`## ${pkg.version}`);
    expect(changelog).toMatch(/semantic versioning/i);
  });
});
