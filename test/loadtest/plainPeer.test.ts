import { Client, type Room } from "@colyseus/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalServer, PLAIN_SERVER_ENTRY } from "../../loadtest/localServer.js";

// The plain peer server as the load test starts it (a child process on a free loopback port, not the
// fixed test port), driven by stock SDK clients.

let server: LocalServer;
let http: string;
let rooms: Room[] = [];

beforeAll(async () => {
  server = await LocalServer.start({}, 30_000, PLAIN_SERVER_ENTRY);
  http = server.endpoint.replace("ws", "http");
}, 40_000);
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  // A client the server closed never confirms a leave: do not wait for it.
  await Promise.allSettled(rooms.map((r) => Promise.race([r.leave(), sleep(1000)])));
  rooms = [];
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tickOf = (room: Room) => (room.state as { tick: number }).tick;

/** Joins (creating the room when `roomId` is undefined) and waits for the first state. */
async function join(roomId: string | undefined, options: Record<string, unknown>): Promise<Room> {
  const client = new Client(server.endpoint);
  const room = roomId === undefined ? await client.create("stealth", options) : await client.joinById(roomId, options);
  rooms.push(room);
  room.onMessage("round", () => {});
  await new Promise<void>((resolve) => room.onStateChange.once(() => resolve()));
  return room;
}

interface Positioned {
  x: number;
  y: number;
}
/** The decoded state's collections, as plain entries. */
function entries(room: Room, key: "players" | "guards"): Map<string, Positioned> {
  const out = new Map<string, Positioned>();
  (room.state as Record<string, { forEach(f: (v: Positioned, k: string) => void): void }>)[key]!.forEach((v, k) => out.set(k, { x: v.x, y: v.y }));
  return out;
}

interface PlainStats {
  cpu: { userSeconds: number };
  memory: { rss: number; heapUsed: number };
  eventLoopLagMs: { windowSeconds: number; current: { samples: number } };
  heapAfterMajorGc: unknown;
  server: string;
  rooms: Record<string, unknown>[];
}
async function stats(): Promise<PlainStats> {
  const response = await fetch(`${http}/stats`);
  expect(response.status).toBe(200);
  return (await response.json()) as PlainStats;
}

describe("the plain peer server", () => {
  it("the plain peer room broadcasts every NPC and every player to every client, and the NPCs wander", async () => {
    const a = await join(undefined, { map: "compound", guards: 64, spawn: "A", team: "t0" });
    const b = await join(a.roomId, { spawn: "B", team: "t1" });
    await sleep(300);
    for (const room of [a, b]) {
      expect(entries(room, "guards").size).toBe(64);
      expect([...entries(room, "players").keys()].sort()).toEqual([a.sessionId, b.sessionId].sort());
    }
    const before = entries(b, "guards");
    await sleep(2500);
    const after = entries(b, "guards");
    let moved = 0;
    for (const [id, p] of before) {
      const q = after.get(id)!;
      expect(Number.isFinite(q.x) && Number.isFinite(q.y)).toBe(true);
      if (Math.hypot(q.x - p.x, q.y - p.y) > 0.5) moved++;
    }
    // At a guard's patrol speed (1.3 m/s) for 2.5 s; a few may be planning or pressed into a corner.
    expect(moved).toBeGreaterThan(48);
    // Both clients hold every NPC at the same spot once they have decoded the same tick: one broadcast.
    let same = false;
    for (let attempt = 0; attempt < 200 && !same; attempt++) {
      if (tickOf(a) === tickOf(b)) same = true;
      else await sleep(2);
    }
    expect(same).toBe(true);
    expect(entries(a, "guards")).toEqual(entries(b, "guards"));
  });

  it("moves a player from the bots' input stream, and a malformed input or message does not kill the room", async () => {
    const room = await join(undefined, { map: "compound", guards: 8, spawn: "A" });
    const input = room.input({ mode: "reliable" }) as unknown as { data: Record<string, number | boolean>; send(): void };
    const me = () => entries(room, "players").get(room.sessionId)!;
    const start = me();
    const frame = (moveX: number, moveY: number, facing: number) => {
      input.data.seq = (input.data.seq as number ?? 0) + 1;
      Object.assign(input.data, { moveX, moveY, facing, crouch: false });
      input.send();
    };
    for (let i = 0; i < 10; i++) {
      frame(1, 0, 0);
      await sleep(50);
    }
    await sleep(200);
    expect(Math.hypot(me().x - start.x, me().y - start.y)).toBeGreaterThan(0.3);

    // NaN and Infinity in the stream, an absurd move, hostile messages and a frame of garbage bytes.
    const bad: [number, number, number][] = [[Number.NaN, 0, 0], [0, Number.POSITIVE_INFINITY, 0], [0, 0, Number.NaN], [1e30, -1e30, 1e30]];
    for (const [moveX, moveY, facing] of bad) {
      frame(moveX, moveY, facing);
      await sleep(60);
    }
    room.send("respawn", { spawn: 5 });
    room.send("respawn", { spawn: "nowhere" });
    room.send("respawn", { toString: 0, spawn: { polluted: true } });
    room.send("*", { __proto__: { polluted: true } });
    room.send("no-such-type", "x".repeat(1000));
    // A frame Colyseus cannot decode closes its sender (4002), as in the stealth room; the room goes on.
    const garbler = await join(room.roomId, {});
    let closed: number | undefined;
    garbler.onLeave((code) => (closed = code));
    (garbler as unknown as { connection: { send(b: Uint8Array): void } }).connection.send(new Uint8Array([13, 0xff, 0xff, 0xff, 0xc1, 0x00]));
    await sleep(500);
    expect(closed === undefined || closed === 4002).toBe(true);

    const tick = tickOf(room);
    await sleep(300);
    expect(tickOf(room)).toBeGreaterThan(tick);
    expect(Number.isFinite(me().x) && Number.isFinite(me().y)).toBe(true);
    expect(server.exit).toBeUndefined();
    const figures = (await stats()).rooms.find((r) => r.roomId === room.roomId) as { exceptions: number; rejected: { inputsNonFinite: number; messagesInvalid: number; messagesUnknown: number } };
    expect(figures.exceptions).toBe(0);
    expect(figures.rejected.inputsNonFinite).toBeGreaterThanOrEqual(3);
    expect(figures.rejected.messagesInvalid).toBeGreaterThanOrEqual(3);
    expect(figures.rejected.messagesUnknown).toBeGreaterThanOrEqual(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses create and join options it cannot honour, and stays up", async () => {
    const client = new Client(server.endpoint);
    await expect(client.create("stealth", { guards: 5000 })).rejects.toThrow(/guards/);
    await expect(client.create("stealth", { guards: 2.5 })).rejects.toThrow(/guards/);
    await expect(client.create("stealth", { map: "../package" })).rejects.toThrow(/map/);
    await expect(client.create("stealth", { spawn: "nowhere" })).rejects.toThrow(/spawn/);
    await expect(client.create("stealth", { team: "not a team!" })).rejects.toThrow(/team/);
    const room = await join(undefined, { guards: 0 });
    expect(entries(room, "guards").size).toBe(0);
    expect(server.exit).toBeUndefined();
  });

  it("serves the public maps the bots fetch, and /stats with the figures the load test reads", async () => {
    const map = await fetch(`${http}/maps/compound.tmj`);
    expect(map.status).toBe(200);
    const objects = ((await map.json()) as { layers: { objects?: { type?: string }[] }[] }).layers.flatMap((l) => l.objects ?? []);
    expect(objects.some((o) => o.type === "spawn")).toBe(true);
    expect(objects.some((o) => o.type === "guard")).toBe(false);
    expect((await fetch(`${http}/maps/..%2Fpackage.json`)).status).toBe(404);

    const room = await join(undefined, { map: "compound", guards: 64 });
    await sleep(1200);
    const s = await stats();
    expect(s.server).toBe("plain");
    expect(s.cpu.userSeconds).toBeGreaterThan(0);
    expect(s.memory.rss).toBeGreaterThan(10e6);
    expect(s.eventLoopLagMs.windowSeconds).toBe(5);
    expect(s).toHaveProperty("heapAfterMajorGc");
    const r = s.rooms.find((x) => x.roomId === room.roomId)!;
    expect(r).toMatchObject({ map: "compound", clients: 1, guards: 64, cullingEnabled: false });
    expect(r.patches as number).toBeGreaterThan(10);
    expect(r.ticks as number).toBeGreaterThan(10);
    expect((r.joinMs as { samples: number }).samples).toBe(1);
    // Vision and culling figures are absent, not zero: the summary prints n/a instead of a clean audit.
    for (const key of ["culling", "rays", "stalenessMax", "detectionEvents"]) expect(r).not.toHaveProperty(key);
  });
});
