import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoadTestSummary } from "../../loadtest/report/summary.js";

/** A load small enough for a test: 4 bots in 2 rooms for 3 s. */
const TOY_LOAD = ["--clients", "4", "--rooms", "2", "--duration", "3", "--warmup", "0.5", "--ramp", "0.5", "--decode-sample", "0.5"];

/** Runs the peers command with `args` to its end. */
async function peers(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "loadtest/peers.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

describe("npm run loadtest:peers", () => {
  it("runs ours and then the plain peer with the same bots, then ours audited, saves all three, and prints one side-by-side table with the ratio's verdict", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sightline-peers-test-"));
    try {
      const { code, stdout, stderr } = await peers("--pairs", "1", ...TOY_LOAD, "--results-dir", dir, "--audited-run", "0.5", "--max-ratio", "1000");
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stderr.indexOf("pair 1 of 1: ours (stealth)")).toBeLessThan(stderr.indexOf("pair 1 of 1: the plain peer"));
      expect(stdout).toMatch(/^server CPU per client, ms \/ s\s+\S+\s+\S+\s+\S+\s+\S+ \/ \S+ = \S+$/m);
      expect(stdout).toMatch(/^bytes \/ client \/ s received\s+\d+\s+\d+/m);
      expect(stderr.indexOf("pair 1 of 1: the plain peer")).toBeLessThan(stderr.indexOf("the audited run: ours, --audit 0.5"));
      // A toy load's ratio says nothing; --max-ratio 1000 keeps the verdict about the runs themselves.
      expect(stdout).toMatch(/^CPU per client, ours \/ plain, by pair: \d+\.\d{3} \(target at most 1000: met in 1 of 1 pairs\)$/m);
      expect(stdout).toMatch(/^audited run of ours \(--audit 0\.5\): leaks \/ pop-ins \/ misses \/ sound leaks 0 \/ 0 \/ 0 \/ 0 over [1-9]\d* client-ticks/m);
      expect(stdout.trimEnd().split("\n").at(-1)).toBe("result: ok");
      // Named <date-time>-<commit>-peers-<server>-run1.json: by server, since the two runs may straddle a minute.
      const files = (await readdir(dir)).sort((a, b) => a.replace(/^.*-peers-/, "").localeCompare(b.replace(/^.*-peers-/, "")));
      expect(files).toEqual([expect.stringMatching(/-peers-plain-run1\.json$/), expect.stringMatching(/-peers-stealth-audited-run1\.json$/), expect.stringMatching(/-peers-stealth-run1\.json$/)]);
      const plain = JSON.parse(await readFile(join(dir, files[0]!), "utf8")) as LoadTestSummary;
      const audited = JSON.parse(await readFile(join(dir, files[1]!), "utf8")) as LoadTestSummary;
      const ours = JSON.parse(await readFile(join(dir, files[2]!), "utf8")) as LoadTestSummary;
      expect(plain).toMatchObject({ ok: true, clients: { joined: 4, failed: 0 }, errors: { total: 0 }, options: { server: "plain", audit: 0 } });
      expect(plain.server).toMatchObject({ guardsPerRoom: 64, culling: null, exceptions: 0 });
      expect(plain.server!.patchRatePerRoom.min).toBeGreaterThan(5);
      // The peer broadcasts everything: each decoding bot holds every NPC (64) and every player.
      expect(plain.clientChecks.meanEntitiesHeld).toBeGreaterThanOrEqual(64);
      // The pair's run of ours is not audited (the ratio is the product's cost); the audited run is.
      expect(ours).toMatchObject({ ok: true, options: { server: "stealth", audit: 0 } });
      expect(ours.server!.culling).toMatchObject({ auditedClientTicks: 0 });
      expect(audited).toMatchObject({ ok: true, options: { server: "stealth", audit: 0.5 } });
      expect(audited.server!.culling!.auditedClientTicks).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("with --against hearing-off, runs ours with hearing on and then made deaf, doors and smoke on both, and names the deaf side in the verdict", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sightline-peers-test-"));
    try {
      const { code, stdout, stderr } = await peers("--against", "hearing-off", "--pairs", "1", ...TOY_LOAD, "--results-dir", dir, "--audited-run", "0", "--max-ratio", "1000");
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stderr.indexOf("pair 1 of 1: ours, hearing on")).toBeLessThan(stderr.indexOf("pair 1 of 1: ours, hearing off"));
      expect(stdout).toMatch(/^CPU per client, ours \/ hearing off, by pair: \d+\.\d{3} \(target at most 1000: met in 1 of 1 pairs\)$/m);
      expect(stdout.trimEnd().split("\n").at(-1)).toBe("result: ok");
      const files = (await readdir(dir)).sort((a, b) => a.replace(/^.*-peers-/, "").localeCompare(b.replace(/^.*-peers-/, "")));
      expect(files).toEqual([expect.stringMatching(/-peers-hearing-off-run1\.json$/), expect.stringMatching(/-peers-hearing-on-run1\.json$/)]);
      const off = JSON.parse(await readFile(join(dir, files[0]!), "utf8")) as LoadTestSummary;
      const on = JSON.parse(await readFile(join(dir, files[1]!), "utf8")) as LoadTestSummary;
      expect(on).toMatchObject({ ok: true, options: { server: "stealth", audit: 0, hearing: "on", levelPlay: "on" } });
      expect(off).toMatchObject({ ok: true, options: { server: "stealth", audit: 0, hearing: "off", levelPlay: "on" } });
      // Deaf rooms make no noise; the hearing ones do.
      expect(off.hearing.noisesReceived).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
