import { Client, MatchMakeError, type Room } from "@colyseus/sdk";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, type ClusterMember } from "../../loadtest/cluster/localCluster.js";
import { RedisServer } from "../../loadtest/cluster/redisServer.js";
import { hostOf as probeHost, until } from "../fixtures/clusterProbes.js";

/**
 * Redis restarted empty under two serving processes, as after a crash without persistence: what the
 * players notice (nothing), what a new join meets while Redis is away (a quick, retryable refusal), and
 * how soon every process has put back what Redis lost (its rooms, reachable by id through the other
 * process, its room count and its load).
 */
const DOWN_MS = 10_000;
let cluster: LocalCluster;
let restarted: RedisServer | undefined;
let a: ClusterMember;
let b: ClusterMember;
const clients: Room[] = [];

beforeAll(async () => {
  cluster = await LocalCluster.start(2, { MAX_GUARDS: "8" });
  [a, b] = cluster.members as [ClusterMember, ClusterMember];
}, 60_000);

afterAll(async () => {
  for (const room of clients) if (room.connection.isOpen) await room.leave().catch(() => undefined);
  await cluster?.stop();
  await restarted?.stop();
}, 30_000);

/** Patches and drops of a client from now on: every patch's arrival time, and whether it left. */
function watch(room: Room): { times: number[]; left: number[] } {
  const seen = { times: [] as number[], left: [] as number[] };
  room.onStateChange(() => seen.times.push(performance.now()));
  room.onLeave((code) => seen.left.push(code));
  room.onDrop((code) => seen.left.push(code));
  return seen;
}

/** How a join through `endpoint` ends, and how long it took to, ms. */
async function tryJoin(join: () => Promise<Room>): Promise<{ ms: number; room?: Room; error?: MatchMakeError }> {
  const started = performance.now();
  try {
    const room = await join();
    clients.push(room);
    return { ms: performance.now() - started, room };
  } catch (err) {
    return { ms: performance.now() - started, error: err as MatchMakeError };
  }
}

describe("Redis restarted empty under load", () => {
  it("rooms play on and nobody is dropped; joins are refused at once, retryably, while it is away; within 5 s of its return joins work through both processes, rooms that were running by id too", async () => {
    const redis = new Redis(cluster.redis.url, { maxRetriesPerRequest: 1, lazyConnect: false });
    const viaA = new Client(a.endpoint);
    const viaB = new Client(b.endpoint);
    const first = await viaA.create("stealth", { map: "demo", spawn: "A" });
    const second = await viaA.create("stealth", { map: "demo", spawn: "A" });
    clients.push(first, second);
    const roomOn = new Map([[await probeHost(redis, first.roomId), first.roomId], [await probeHost(redis, second.roomId), second.roomId]]);
    expect(new Set(roomOn.keys())).toEqual(new Set([a.processId, b.processId]));
    const roomOnA = roomOn.get(a.processId)!;
    const roomOnB = roomOn.get(b.processId)!;
    // A second player in each room, each matchmade through the other process.
    clients.push(await viaB.joinById(roomOnA, { spawn: "B" }), await viaA.joinById(roomOnB, { spawn: "B" }));
    const players = clients.map(watch);
    redis.disconnect();
    const port = cluster.redis.port;

    // Redis goes away for 10 s.
    await cluster.redis.stop();
    const downAt = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    const refusedA = await tryJoin(() => viaA.joinById(roomOnB, {}));
    const refusedB = await tryJoin(() => viaB.create("stealth", { map: "demo" }));
    for (const refused of [refusedA, refusedB]) {
      expect(refused.error?.code).toBe(503);
      expect(refused.error?.message).toMatch(/cannot reach Redis; retry in a few seconds/);
      expect(refused.ms).toBeLessThan(1000);
    }
    await new Promise((r) => setTimeout(r, DOWN_MS - (performance.now() - downAt)));

    // It comes back empty, on the same port.
    restarted = await RedisServer.start(10_000, port);
    const upAt = performance.now();
    const fresh = new Redis(restarted.url, { maxRetriesPerRequest: 1 });
    const back = async (label: string, join: () => Promise<Room>) => {
      let last: unknown;
      await until(label, async () => {
        const r = await tryJoin(join);
        last = r.error?.message;
        return r.room !== undefined;
      }, 8000).catch((err: Error) => {
        throw new Error(`${err.message} (last error: ${String(last)})\n--- A ---\n${a.server.lastOutput()}\n--- B ---\n${b.server.lastOutput()}`);
      });
      return performance.now() - upAt;
    };
    const times = {
      oldRoomOnBThroughA: await back("a join by id through A of B's room from before", () => viaA.joinById(roomOnB, {})),
      oldRoomOnAThroughB: await back("a join by id through B of A's room from before", () => viaB.joinById(roomOnA, {})),
      newRoomThroughA: await back("a create through A", () => viaA.create("stealth", { map: "demo" })),
      newRoomThroughB: await back("a create through B", () => viaB.create("stealth", { map: "demo" })),
    };
    console.log(`Redis restarted empty after ${DOWN_MS / 1000} s away: back within ${JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])))} ms`);
    for (const ms of Object.values(times)) expect(ms).toBeLessThan(5000);

    // Every process is registered again, with its load, and Redis lists exactly the rooms that run.
    await until("both processes' room counts and load", async () => (await fresh.hlen("roomcount")) === 2 && (await fresh.hlen("sightline:load")) === 2, 5000);
    const listed = Object.values(await fresh.hgetall("roomcaches")).map((raw) => JSON.parse(raw) as { roomId: string; processId: string });
    const running = new Set<string>();
    for (const member of [a, b]) {
      const stats = (await (await fetch(`http://127.0.0.1:${member.server.port}/stats`)).json()) as { rooms: { roomId: string }[]; scaleOut: { redisReady: boolean; recoveries: number } };
      expect(stats.scaleOut).toMatchObject({ redisReady: true });
      expect(stats.scaleOut.recoveries).toBeGreaterThanOrEqual(1);
      for (const r of stats.rooms) running.add(r.roomId);
      expect(listed.filter((l) => l.processId === member.processId).map((l) => l.roomId).sort()).toEqual(stats.rooms.map((r) => r.roomId).sort());
    }
    expect(new Set(listed.map((l) => l.roomId))).toEqual(running);

    // The four players: never dropped, patched at the rooms' rate while Redis was away (20 Hz; >= 19).
    const window = [downAt, upAt] as const;
    for (const p of players) {
      expect(p.left).toEqual([]);
      const during = p.times.filter((t) => t >= window[0] && t < window[1]);
      const perSecond = during.length / ((window[1] - window[0]) / 1000);
      expect(perSecond).toBeGreaterThanOrEqual(19);
      const gaps = during.slice(1).map((t, i) => t - during[i]!);
      expect(Math.max(...gaps)).toBeLessThan(250);
    }
    fresh.disconnect();
  }, 60_000);
});
