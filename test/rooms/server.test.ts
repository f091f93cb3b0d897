import { spawn, type ChildProcess } from "node:child_process";
import { startArguments } from "../../loadtest/localServer.js";
import { afterEach, describe, expect, it } from "vitest";

/** Starts `server/index.ts` as `npm start` does, on a free loopback port; resolves with its base URL. */
function start(env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, startArguments(), { env: { ...process.env, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 15 s:\n${output}`)), 15_000);
    child.stdout!.on("data", () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m !== null && /stats: http/.test(output)) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, output: () => output });
      }
    });
    child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));
}

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill("SIGKILL");
  running = undefined;
});

describe("npm start", () => {
  it("listens on 127.0.0.1, says how to join, serves maps and stats, and stops on SIGTERM", async () => {
    const { child, url, output } = await start();
    running = child;
    expect(output()).toMatch(/joinOrCreate\("stealth"/);
    expect(output()).toMatch(/node v2[2-9]/);
    const map = await fetch(`${url}/maps/demo.tmj`);
    expect(map.status).toBe(200);
    const served = (await map.json()) as { width: number; layers: { objects?: { type?: string; polyline?: unknown }[] }[] };
    expect(served.width).toBe(40);
    // Geometry, spawns and exits, but no guard, camera or patrol route: those are culled entities.
    const objects = served.layers.flatMap((l) => l.objects ?? []);
    expect(objects.some((o) => o.type === "wall" || o.type === "spawn")).toBe(true);
    expect(objects.filter((o) => o.type === "guard" || o.type === "camera" || o.polyline !== undefined)).toEqual([]);
    expect((await fetch(`${url}/maps/..%2Fpackage.json`)).status).toBe(404);
    const stats = (await (await fetch(`${url}/stats`)).json()) as { rooms: unknown[]; creates: unknown };
    expect(stats.rooms).toEqual([]);
    expect(stats.creates).toMatchObject({ rooms: 0, maxRooms: 64, createsPerAddressPerMinute: 10 });
    expect(output()).toMatch(/limits: 64 rooms, 10 creates per client address per minute/);
    expect((await fetch(`${url}/monitor/`)).status).toBe(404); // off without MONITOR_AUTH
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
    expect(output()).toMatch(/stopped/);
  });

  it("puts the monitor behind basic auth when MONITOR_AUTH is set", async () => {
    const { child, url } = await start({ MONITOR_AUTH: "admin:s3cret" });
    running = child;
    expect((await fetch(`${url}/monitor/`)).status).toBe(401);
    const wrong = await fetch(`${url}/monitor/`, { headers: { authorization: `Basic ${Buffer.from("admin:guess").toString("base64")}` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${url}/monitor/`, { headers: { authorization: `Basic ${Buffer.from("admin:s3cret").toString("base64")}` } });
    expect(right.status).toBe(200);
  });

  it("refuses to start on a malformed MONITOR_AUTH, PORT, MAX_ROOMS or MAX_CREATES_PER_MINUTE, with a message", async () => {
    await expect(start({ MONITOR_AUTH: "nopassword" })).rejects.toThrow(/MONITOR_AUTH must be user:password/);
    await expect(start({ PORT: "http" })).rejects.toThrow(/PORT must be an integer/);
    await expect(start({ MAX_ROOMS: "0" })).rejects.toThrow(/MAX_ROOMS must be an integer in 1\.\.100000 \(got "0"\)/);
    await expect(start({ MAX_CREATES_PER_MINUTE: "ten" })).rejects.toThrow(/MAX_CREATES_PER_MINUTE must be an integer/);
  });
});
