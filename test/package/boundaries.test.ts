import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The library is what a studio installs; the stealth demo, the load test, the benches and the examples
 * are its users. These tests read the import graph from the sources and hold the line between them.
 */

const ROOT = resolve(import.meta.dirname, "../..");
/** Folders holding the library (everything its four entry points can reach). */
const LIBRARY = ["server/vision", "server/hearing", "server/occluders", "server/culling", "server/colyseus", "server/testing", "server/planck", "shared/fov", "shared/math", "shared/tiled", "shared/validation"];
/** The package's entry points, by the name users import. */
const ENTRIES: Record<string, string> = {
  sightline: "server/vision/index.ts",
  "sightline/occluders": "server/occluders/index.ts",
  "sightline/culling": "server/culling/index.ts",
  "sightline/colyseus": "server/colyseus/index.ts",
  "sightline/testing": "server/testing/index.ts",
  "sightline/fov": "shared/fov/index.ts",
};
/**
 * The one library folder its users may import directly: how bad input is refused (`<Owner>.<field> must
 * be <rule> (got <value>)`), so the demo refuses its settings in the library's voice. It loads nothing,
 * so importing it reaches no vision, culling or physics code.
 */
const SHARED_WITH_USERS = "shared/validation";
/** Everything else that is code: the demo, its tools, and the examples. */
const USERS = ["server", "shared", "loadtest", "examples"];

interface Import {
  file: string;
  line: number;
  specifier: string;
  /** Only types: nothing is loaded at run time. */
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: Import[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?([^;]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[4] ?? m[5]!;
    const clause = m[3] ?? "";
    // `import { type A, type B } from` is type-only too.
    const named = /^\s*\{([^}]*)\}\s+from\s+$/.exec(clause);
    const allTypes = named !== null && named[1]!.split(",").every((part) => part.trim() === "" || /^type\s/.test(part.trim()));
    out.push({ file, line: text.slice(0, m.index).split("\n").length, specifier, typeOnly: m[2] !== undefined || allTypes });
  }
  return out;
}

function inLibrary(path: string): boolean {
  return LIBRARY.some((dir) => path === dir || path.startsWith(`${dir}/`));
}

/** The repository path a relative specifier names (with `.js` mapped back to its `.ts` source), or null. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return ENTRIES[specifier] ?? null;
  return relative(ROOT, resolve(ROOT, dirname(from), specifier)).replace(/\.js$/, ".ts");
}

/** Every module reachable at run time from `entry` (type-only imports do not load anything). */
function runtimeClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const imp of importsOf(file)) {
      if (imp.typeOnly) continue;
      if (imp.specifier.startsWith(".")) stack.push(target(file, imp.specifier)!);
      else packages.add(imp.specifier);
    }
  }
  return { files, packages };
}

const userFiles = USERS.flatMap(sources).filter((f) => !inLibrary(f));
const libraryFiles = LIBRARY.flatMap(sources);

describe("the library's boundaries", () => {
  it("the demo, the load test, the benches and the examples reach the library only through its entry points", () => {
    const deep = userFiles.flatMap(importsOf).filter((imp) => {
      const to = target(imp.file, imp.specifier);
      return imp.specifier.startsWith(".") && to !== null && inLibrary(to) && !to.startsWith(`${SHARED_WITH_USERS}/`);
    });
    expect(deep.map((d) => `${d.file}:${d.line} imports ${d.specifier}`)).toEqual([]);
    // Not vacuous: they do use the library, by its public names.
    const named = userFiles.flatMap(importsOf).filter((imp) => imp.specifier in ENTRIES);
    expect(new Set(named.map((imp) => imp.specifier))).toEqual(new Set(Object.keys(ENTRIES)));
  });

  it("the input checks the demo shares with the library import nothing at all", () => {
    const files = sources(SHARED_WITH_USERS);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap(importsOf).map((d) => `${d.file}:${d.line} imports ${d.specifier}`)).toEqual([]);
  });

  it("the library imports no demo code, and nothing of its own by its public names", () => {
    const outside = libraryFiles.flatMap(importsOf).filter((imp) => {
      const to = target(imp.file, imp.specifier);
      return imp.specifier in ENTRIES || (imp.specifier.startsWith(".") && to !== null && !inLibrary(to));
    });
    expect(outside.map((d) => `${d.file}:${d.line} imports ${d.specifier}`)).toEqual([]);
  });

  it("only the Colyseus plugin and the test kit load Colyseus, only the test kit loads a Node built-in, and the tile field of view and the occluders never load planck", () => {
    const ALLOWED: Record<string, string[]> = {
      sightline: ["planck"],
      "sightline/culling": ["planck"],
      "sightline/colyseus": ["planck", "@colyseus/core", "@colyseus/schema"],
      // For a studio's tests, never its server: SDK clients and a TCP proxy.
      "sightline/testing": ["@colyseus/core", "@colyseus/schema", "@colyseus/sdk", "node:net"],
    };
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const { packages } = runtimeClosure(entry);
      expect([...packages].filter((p) => !(ALLOWED[name] ?? []).includes(p)), name).toEqual([]);
    }
  });
});
