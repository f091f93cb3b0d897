import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const ENTRIES = ["server/vision/index.ts", "server/occluders/index.ts", "server/culling/index.ts", "server/colyseus/index.ts", "server/testing/index.ts", "shared/fov/index.ts"];

/** The public names an entry point exports (those marked `@internal` left out). */
function publicNames(entry: string): string[] {
  const text = readFileSync(join(ROOT, entry), "utf8");
  const names: string[] = [];
  for (const m of text.matchAll(/(\/\*\*[^]*?\*\/\s*)?export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    if (m[1]?.includes("@internal")) continue;
    for (const part of m[2]!.split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).at(-1)!.trim();
      if (name !== "") names.push(name);
    }
  }
  return names;
}

describe("the API reference", () => {
  it("documents every public name of every entry point", () => {
    const doc = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const all = ENTRIES.flatMap(publicNames);
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter((name) => !new RegExp(`\`${name}\\b`).test(doc))).toEqual([]);
  });
});
