import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadTestSummary } from "../../loadtest/report/summary.js";
import { freePort } from "../../server/freePort.js";

/**
 * Runs the CLI as `npm run loadtest` does (tsx on this Node); resolves with its exit code and output, or
 * stops it and rejects with what it printed after `timeoutMs`. Each test allows its run that long and a
 * little more (`itFor`), so on a slow machine the run's own output explains the failure, not a bare
 * timeout that leaves the child to finish alone.
 */
const RUN_MS = 40_000;
function loadtest(args: string[], timeoutMs = RUN_MS): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "loadtest/cli.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGINT");
      reject(new Error(`loadtest ${args.join(" ")} still running after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sightline-loadtest-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A test's time: its runs' and a margin to stop a child and report. */
const itFor = (runMs: number) => runMs + 5_000;

describe("npm run loadtest", () => {
  it("runs 6 bots in 2 rooms against a server it starts, and reports a clean, sane run", async () => {
    const output = join(dir, "summary.json");
    // Half the bots decode and half are thin, so both paths carry real traffic. Six seconds: a hidden
    // walker heard by another room-mate comes a few times a second across both rooms, not in every 3 s.
    const run = await loadtest(["--local", "--clients", "6", "--rooms", "2", "--duration", "6", "--warmup", "0.5", "--decode-sample", "0.5", "--audit", "1", "--output", output]);
    expect(run.code, run.stderr).toBe(0);
    const s = JSON.parse(await readFile(output, "utf8")) as LoadTestSummary;
    expect(s.ok).toBe(true);
    expect(s.clients).toMatchObject({ target: 6, joined: 6, failed: 0, atEnd: 6, decoding: 4 });
    expect(s.rooms).toBe(2);
    expect(s.errors.total).toBe(0);
    expect(s.roundTripMs.samples).toBeGreaterThan(5);
    expect(s.roundTripMs.p50).toBeGreaterThan(0);
    expect(s.traffic.bytesPerClientPerSecond).toBeGreaterThan(100);
    expect(s.traffic.patchesPerClientPerSecond).toBeGreaterThan(5);
    expect(s.traffic.messagesPerSecondOut).toBeGreaterThan(6 * 10); // 20 inputs per bot per second, give or take
    expect(s.clientChecks.checks).toBeGreaterThan(0);
    expect(s.clientChecks.farLeaks).toBe(0);
    const server = s.server!;
    expect(server.rooms).toBe(2);
    expect(server.patchRatePerRoom.min).toBeGreaterThan(5);
    expect(server.tickMs.p50).toBeGreaterThan(0);
    expect(server.cpuPercentOfCore).toBeGreaterThan(0);
    expect(server.memoryMB.rssEnd).toBeGreaterThan(10);
    expect(server.culling).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(server.culling!.auditedClientTicks).toBeGreaterThan(0);
    expect(server.exceptions).toBe(0);
    // The rooms hear (the default): footsteps were made, told to the clients that could hear them, and
    // every telling the audit checked was one their team could hear.
    expect(s.options.hearing).toBe("on");
    expect(server.noises).toBeGreaterThan(0);
    expect(server.culling!.soundsAudited).toBeGreaterThan(0);
    expect(server.culling!.soundLeaks).toBe(0);
    expect(s.hearing.noisesReceived).toBeGreaterThan(0);
    expect(s.gaits.frames).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^leaks \/ pop-ins \/ misses \/ sound leaks\s+0 \/ 0 \/ 0 \/ 0 \(\d+ client-ticks, [1-9]\d* sounds audited\)$/m);
    expect(run.stdout).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+[1-9]\d*$/m);
    // The table says the same, and the server it started is gone (its port refuses connections).
    expect(run.stdout).toMatch(/^result\s+ok$/m);
    expect(run.stdout).toMatch(/clients connected \/ failed\s+6 \/ 0/);
    const port = Number(/server on ws:\/\/127\.0\.0\.1:(\d+)/.exec(run.stderr)![1]);
    await expect(fetch(`http://127.0.0.1:${port}/stats`)).rejects.toThrow();
  }, itFor(RUN_MS));

  it("with --hearing off, makes rooms where nobody is heard: no noise made or told, none audited, no distraction thrown", async () => {
    const output = join(dir, "deaf.json");
    const run = await loadtest(["--local", "--hearing", "off", "--clients", "4", "--rooms", "1", "--duration", "2", "--warmup", "0.5", "--ramp", "0", "--audit", "1", "--output", output]);
    expect(run.code, run.stderr).toBe(0);
    const s = JSON.parse(await readFile(output, "utf8")) as LoadTestSummary;
    expect(s.ok, s.problems.join("; ")).toBe(true);
    expect(s.options.hearing).toBe("off");
    expect(s.server!.noises).toBe(0);
    expect(s.server!.culling).toMatchObject({ soundLeaks: 0, soundsAudited: 0 });
    expect(s.server!.culling!.auditedClientTicks).toBeGreaterThan(0);
    expect(s.hearing).toEqual({ on: false, noisesReceived: 0, noiseMessages: 0 });
    expect(s.traffic.noisesPerClientPerSecond).toBe(0);
    expect(s.levelPlay).toMatchObject({ on: true, sent: { distractions: 0 }, distractionsRefused: 0 });
    // The bots still walk as they would with hearing on.
    expect(s.gaits.run).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+0 \(--hearing off\)$/m);
  }, itFor(RUN_MS));

  it("runs bots across two processes sharing a Redis it starts, and reports each process and the joins that crossed", async () => {
    const output = join(dir, "cluster.json");
    const run = await loadtest(["--local", "--processes", "2", "--clients", "12", "--rooms", "4", "--duration", "4", "--warmup", "1", "--ramp", "1", "--thin", "--audit", "1", "--join-probe", "6", "--output", output], 60_000);
    expect(run.code, run.stderr).toBe(0);
    const s = JSON.parse(await readFile(output, "utf8")) as LoadTestSummary;
    expect(s.ok, s.problems.join("; ")).toBe(true);
    expect(s.clients).toMatchObject({ joined: 12, failed: 0 });
    const processes = s.server!.processes!;
    expect(processes).toHaveLength(2);
    expect(new Set(processes.map((p) => p.processId)).size).toBe(2);
    // Four equal rooms, placed by headroom: two on each.
    expect(processes.map((p) => p.rooms)).toEqual([2, 2]);
    expect(processes.reduce((n, p) => n + p.clients, 0)).toBe(12);
    expect(s.server!.rooms).toBe(4);
    // Bots matchmake through the processes in turn, so some joins land on the other process.
    expect(s.joinRoundTripMs.crossProcess?.samples).toBeGreaterThan(0);
    expect(s.joinRoundTripMs.local?.samples).toBeGreaterThan(0);
    // The join probe, a process of its own, alternates joins on the room's own process and across.
    expect(s.joinProbeMs).toMatchObject({ perSecond: 6, failed: 0 });
    expect(s.joinProbeMs!.local?.samples).toBeGreaterThan(0);
    expect(s.joinProbeMs!.crossProcess?.samples).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^join probe p50 \/ p99 \/ max, same process/m);
    expect(run.stdout).toMatch(/^process \S+\s+2 rooms, \d+ clients/m);
  }, itFor(60_000));

  it("fails with a non-zero exit when no server answers", async () => {
    const run = await loadtest(["--endpoint", `ws://127.0.0.1:${await freePort()}`, "--clients", "2", "--duration", "2"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot fetch the map .*fetch failed/);
  }, itFor(RUN_MS));

  it("refuses bad flags with the usage and exit status 2, starting nothing", async () => {
    const run = await loadtest(["--clients", "5000"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--clients must be a number from 1 to 2000/);
    expect(run.stderr).toMatch(/usage: npm run loadtest/);
    const remote = await loadtest(["--endpoint", "ws://192.0.2.1:2567"]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/not loopback/);
  }, itFor(2 * RUN_MS));
});
