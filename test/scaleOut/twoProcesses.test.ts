import { Client, type Room } from "@colyseus/sdk";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, type ClusterMember } from "../../loadtest/cluster/localCluster.js";
import { RedisServer } from "../../loadtest/cluster/redisServer.js";
import { hostOf as probeHost, patchesOver, tracesOf as probeTraces, until } from "../fixtures/clusterProbes.js";
import { FrameRecorder } from "sightline/testing";

/**
 * Two real server processes sharing a real redis-server, as a studio deploys them: matchmaking across
 * processes, culling in a room on the other process, a process killed outright, and one shut down.
 */
/** Every frame each SDK client received, for the byte-level checks. */
let frames: FrameRecorder;
let cluster: LocalCluster;
let redis: Redis;
let a: ClusterMember;
let b: ClusterMember;
const clients: Room[] = [];

beforeAll(async () => {
  frames = FrameRecorder.start();
  cluster = await LocalCluster.start(2, { MAX_GUARDS: "64" });
  [a, b] = cluster.members as [ClusterMember, ClusterMember];
  redis = new Redis(cluster.redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
}, 60_000);

afterAll(async () => {
  for (const room of clients) if (room.connection.isOpen) await room.leave().catch(() => undefined);
  redis?.disconnect();
  await cluster?.stop();
  frames.stop();
}, 30_000);

const hostOf = (roomId: string) => probeHost(redis, roomId);
const tracesOf = (processId: string) => probeTraces(redis, processId);

function track(room: Room): Room {
  clients.push(room);
  return room;
}

describe("scaling out over Redis", () => {
  let roomOnB: string;
  let roomOnA: string;

  it("rooms created through one process are spread over both, and a client matchmade through A plays in a room hosted on B", async () => {
    const viaA = new Client(a.endpoint);
    const first = track(await viaA.create("stealth", { map: "compound", spawn: "A" }));
    const second = track(await viaA.create("stealth", { map: "compound", spawn: "A" }));
    const hosts = [await hostOf(first.roomId), await hostOf(second.roomId)];
    expect(new Set(hosts)).toEqual(new Set([a.processId, b.processId]));
    roomOnB = hosts[0] === b.processId ? first.roomId : second.roomId;
    roomOnA = hosts[0] === a.processId ? first.roomId : second.roomId;

    // Matchmade through A, seated on B: the client connects to B's public address by itself.
    const joined = track(await viaA.joinById(roomOnB, { spawn: "H" }));
    expect(await hostOf(joined.roomId)).toBe(b.processId);
    expect(a.processId).not.toBe(b.processId);
    const stats = (await (await fetch(`http://127.0.0.1:${b.server.port}/stats`)).json()) as { rooms: { roomId: string; clients: number }[] };
    expect(stats.rooms.find((r) => r.roomId === roomOnB)?.clients).toBe(2);
  }, 30_000);

  it("culling holds in the room on the other process: a player 112 m away leaves no trace in the raw frames", async () => {
    const viaA = new Client(a.endpoint);
    const west = track(await viaA.joinById(roomOnB, { spawn: "A", team: "west" }));
    const east = track(await viaA.joinById(roomOnB, { spawn: "H", team: "east" }));
    await patchesOver(west, 1500);
    expect((west.state as { players: Map<string, unknown> }).players.has(west.sessionId)).toBe(true);
    expect(frames.received(west, west.sessionId)).toBe(true);
    expect(frames.received(west, east.sessionId)).toBe(false);
    expect(frames.received(east, west.sessionId)).toBe(false);
  }, 30_000);

  it("B killed outright: its clients are closed, A's rooms keep patching, new rooms land on A, and B is gone from Redis within 10 s", async () => {
    const onB = clients.filter((r) => r.roomId === roomOnB);
    const closed = onB.map((r) => new Promise<number>((resolve) => r.onLeave((code) => resolve(code))));
    const viaA = new Client(a.endpoint);
    const player = track(await viaA.joinById(roomOnA, { spawn: "B" }));

    b.server.killNow();
    const codes = await Promise.all(closed);
    for (const code of codes) expect(code).not.toBe(1000);
    const swept = await until("B's sweep from Redis", async () => (await tracesOf(b.processId)).length === 0, 10_000).catch(async (err: Error) => {
      throw new Error(`${err.message}; left: ${(await tracesOf(b.processId)).join(", ")}\n--- A's output ---\n${a.server.lastOutput()}`);
    });
    expect(swept).toBeLessThan(10_000);

    // A went on patching its room at the room's rate throughout (20 Hz; >= 19 with timer slack).
    expect(await patchesOver(player, 2000)).toBeGreaterThanOrEqual(38);
    const fresh = track(await viaA.create("stealth", { map: "demo", spawn: "A" }));
    expect(await hostOf(fresh.roomId)).toBe(a.processId);
  }, 40_000);

  it("A stopped (SIGTERM, then SIGTERM again when its drain would wait): its rooms are disposed, its clients told, and no key of A is left in Redis", async () => {
    const onA = clients.filter((r) => r.connection.isOpen);
    expect(onA.length).toBeGreaterThan(0);
    const closed = onA.map((r) => new Promise<number>((resolve) => r.onLeave((code) => resolve(code))));
    expect((await tracesOf(a.processId)).length).toBeGreaterThan(0);
    await a.server.stop();
    expect(a.server.exit?.code).toBe(0);
    // 4001: the server is shutting down (not 1006, a dropped connection).
    for (const code of await Promise.all(closed)) expect(code).toBe(4001);
    expect(await tracesOf(a.processId)).toEqual([]);
    expect(await redis.hlen("roomcaches")).toBe(0);
  }, 30_000);
});

describe("the Redis launcher", () => {
  it("with no redis-server on the PATH, starting one fails and says how to install it", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(RedisServer.start()).rejects.toThrow(/apt-get install -y redis-server/);
    } finally {
      process.env.PATH = path;
    }
  });
});
