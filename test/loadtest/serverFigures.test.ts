import { Client, type Room } from "@colyseus/sdk";
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { LocalServer } from "../../loadtest/localServer.js";

let server: LocalServer | undefined;
let rooms: Room[] = [];
afterEach(async () => {
  await Promise.allSettled(rooms.map((r) => r.leave()));
  rooms = [];
  await server?.stop();
  server = undefined;
});

/** `name{labels} value` lines of a Prometheus text exposition, as name -> values. */
function samples(text: string): Map<string, { labels: string; value: number }[]> {
  const out = new Map<string, { labels: string; value: number }[]>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const list = out.get(m[1]!) ?? [];
    list.push({ labels: m[2] ?? "", value: Number(m[3]) });
    out.set(m[1]!, list);
  }
  return out;
}

/** The metric names the load-testing guide (`docs/load-testing.md`, linked from the README) documents. */
async function documentedMetrics(): Promise<string[]> {
  const guide = await readFile("docs/load-testing.md", "utf8");
  const start = guide.indexOf("# Load testing");
  expect(start, "docs/load-testing.md starts with its Load testing section").toBeGreaterThanOrEqual(0);
  const section = guide.slice(start);
  return [...new Set([...section.matchAll(/`(sightline_[a-z_]+)`/g)].map((m) => m[1]!))];
}

async function joinGuardedRoom(endpoint: string, guards: number): Promise<Room> {
  const room = await new Client(endpoint).create("stealth", { guards, spawn: "A" });
  rooms.push(room);
  room.onMessage("round", () => {});
  // A few patches, so every per-room figure has moved.
  await new Promise<void>((resolve) => {
    let n = 0;
    room.onStateChange(() => {
      if (++n === 5) resolve();
    });
  });
  return room;
}

describe("server figures", () => {
  it("GET /metrics exposes every metric the load-testing guide documents, with numbers, and /stats the same figures", async () => {
    server = await LocalServer.start({ CULLING_AUDIT: "1", MAX_GUARDS: "64" });
    const http = server.endpoint.replace("ws", "http");
    const room = await joinGuardedRoom(server.endpoint, 10);

    const response = await fetch(`${http}/metrics`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const exposed = samples(await response.text());
    const documented = await documentedMetrics();
    expect(documented.length).toBeGreaterThan(25);
    for (const name of documented) {
      expect(exposed.get(name), `${name} is documented but not exposed`).toBeDefined();
      for (const s of exposed.get(name)!) expect(Number.isFinite(s.value), `${name}${s.labels} = ${s.value}`).toBe(true);
    }
    for (const name of exposed.keys()) expect(documented, `${name} is exposed but not in docs/load-testing.md`).toContain(name);

    const mine = (name: string) => exposed.get(name)!.filter((s) => s.labels.includes(`room="${room.roomId}"`));
    expect(mine("sightline_room_guards")[0]!.value).toBe(10);
    expect(mine("sightline_room_clients")[0]!.value).toBe(1);
    expect(mine("sightline_room_culling_enabled")[0]!.value).toBe(1);
    expect(mine("sightline_room_patches_total")[0]!.value).toBeGreaterThanOrEqual(4);
    expect(mine("sightline_room_ticks_total")[0]!.value).toBeGreaterThan(0);
    expect(Number.isInteger(mine("sightline_room_steps_dropped_total")[0]!.value)).toBe(true); // exposed (its value depends on the machine)
    expect(mine("sightline_room_culling_audited_client_ticks_total")[0]!.value).toBeGreaterThan(0);
    // Every series names the process, so one scrape config covers a cluster of them.
    const self = (await (await fetch(`http://127.0.0.1:${server!.port}/stats`)).json()) as { processId: string };
    expect(exposed.get("sightline_process_cpu_seconds_total")!.map((s) => s.labels).sort()).toEqual([`{mode="system",process="${self.processId}"}`, `{mode="user",process="${self.processId}"}`]);
    for (const [name, series] of exposed) for (const one of series) expect(one.labels, name).toContain(`process="${self.processId}"`);
    expect(exposed.get("sightline_event_loop_lag_seconds")!.map((s) => s.labels).sort()).toEqual(["0.5", "0.99", "1"].map((q) => `{quantile="${q}",process="${self.processId}"}`));

    const stats = (await (await fetch(`${http}/stats`)).json()) as {
      sampledAtMs: number;
      cpu: { userSeconds: number };
      memory: { heapUsed: number };
      eventLoopLagMs: { current: { samples: number } };
      rooms: { roomId: string; guards: number; cullingEnabled: boolean; cullingRange: number; patches: number; patchMs: { samples: number } }[];
    };
    expect(stats.cpu.userSeconds).toBeGreaterThan(0);
    expect(stats.memory.heapUsed).toBeGreaterThan(0);
    expect(stats.eventLoopLagMs.current.samples).toBeGreaterThan(0);
    expect(stats.rooms).toHaveLength(1);
    expect(stats.rooms[0]).toMatchObject({ roomId: room.roomId, guards: 10, cullingEnabled: true, cullingRange: 20 });
    expect(stats.rooms[0]!.patches).toBeGreaterThanOrEqual(4);
    expect(stats.rooms[0]!.patchMs.samples).toBe(stats.rooms[0]!.patches);
  });

  it("with CULLING=off every client holds every guard and camera; the guards option is refused out of range", async () => {
    server = await LocalServer.start({ CULLING: "off", MAX_GUARDS: "64" });
    const room = await joinGuardedRoom(server.endpoint, 12);
    const state = room.state as { guards: Map<string, unknown>; cameras: Map<string, unknown> };
    expect(state.guards.size).toBe(12);
    expect(state.cameras.size).toBe(2);
    const text = await (await fetch(`${server.endpoint.replace("ws", "http")}/metrics`)).text();
    expect(samples(text).get("sightline_room_culling_enabled")![0]!.value).toBe(0);

    await expect(new Client(server.endpoint).create("stealth", { guards: 3 })).rejects.toThrow(/"guards" must be an integer from 6 .* to 64 \(got 3\)/);
    await expect(new Client(server.endpoint).create("stealth", { guards: 65 })).rejects.toThrow(/got 65/);
    await expect(new Client(server.endpoint).create("stealth", { guards: "many" })).rejects.toThrow(/got "many"/);
  });
});
