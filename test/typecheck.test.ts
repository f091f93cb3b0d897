import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// vitest strips types without checking them; the strict compile is a test of its own so CI catches it.
describe("typescript", () => {
  it("the whole project compiles under strict settings (tsc --noEmit)", async () => {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, output: stdout + stderr });
      });
    });
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);
});
