import { Client, type Room } from "@colyseus/sdk";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, type ClusterMember } from "../../loadtest/cluster/localCluster.js";
import { hostOf as probeHost, patchesOver, tracesOf as probeTraces, until } from "../fixtures/clusterProbes.js";

/**
 * Taking a process out of service without ending its games: SIGTERM drains it. Two real processes on a
 * real Redis; A drains while B serves.
 */
let cluster: LocalCluster;
let redis: Redis;
let a: ClusterMember;
let b: ClusterMember;
const clients: Room[] = [];

beforeAll(async () => {
  cluster = await LocalCluster.start(2, { MAX_GUARDS: "8", DRAIN_SECONDS: "30" });
  [a, b] = cluster.members as [ClusterMember, ClusterMember];
  redis = new Redis(cluster.redis.url, { maxRetriesPerRequest: 1 });
}, 60_000);

afterAll(async () => {
  for (const room of clients) if (room.connection.isOpen) await room.leave().catch(() => undefined);
  redis?.disconnect();
  await cluster?.stop();
}, 30_000);

const hostOf = (roomId: string) => probeHost(redis, roomId);
const health = async (member: ClusterMember) => {
  const res = await fetch(`http://127.0.0.1:${member.server.port}/health`);
  return { status: res.status, body: (await res.json()) as { status: string; rooms: number; clients: number; deadlineInSeconds: number } };
};

/** A room created through `via` on the process `on` (creates are retried until placement puts one there). */
async function roomOn(via: Client, on: ClusterMember): Promise<Room> {
  for (let i = 0; i < 6; i++) {
    const room = await via.create("stealth", { map: "demo", spawn: "A" });
    clients.push(room);
    if ((await hostOf(room.roomId)) === on.processId) return room;
  }
  throw new Error(`no room placed on ${on.processId}`);
}

describe("draining a process for a deploy", () => {
  it("SIGTERM: no new room or join there, its game plays on, a dropped player reconnects through it and through the other process, and once its room empties it leaves Redis clean and exits 0", async () => {
    const viaA = new Client(a.endpoint);
    const viaB = new Client(b.endpoint);
    const first = await roomOn(viaA, a);
    const mate = await viaB.joinById(first.roomId, { spawn: "B" });
    const third = await viaB.joinById(first.roomId, { spawn: "C" });
    clients.push(mate, third);
    expect((await health(a)).status).toBe(200);
    // The player who stays: the server never closes it while A drains.
    const left: number[] = [];
    first.onLeave((code) => left.push(code));

    const exited = a.server.drain();
    await until("A's drain", async () => (await health(a)).status === 503, 3000);
    // Published at once for the placement of every process to read.
    await until("A's published drain", async () => JSON.parse((await redis.hget("sightline:load", a.processId)) ?? "{}").draining === true, 1000);
    expect((await health(a)).body).toMatchObject({ status: "draining", rooms: 1, clients: 3 });

    // New rooms go to B, whichever process matchmakes them; A's room takes nobody new.
    for (const via of [viaA, viaB]) {
      const fresh = await via.create("stealth", { map: "demo" });
      clients.push(fresh);
      expect(await hostOf(fresh.roomId)).toBe(b.processId);
    }
    await expect(viaB.joinById(first.roomId, {})).rejects.toThrow(/locked/);
    await expect(viaA.joinById(first.roomId, {})).rejects.toThrow(/locked/);

    // The game plays on at its rate.
    expect(await patchesOver(first, 2000)).toBeGreaterThanOrEqual(38);

    // A player drops and comes back through A (draining), another through B.
    for (const [player, via] of [[mate, viaA], [third, viaB]] as const) {
      player.reconnection.enabled = false;
      const token = player.reconnectionToken;
      player.connection.close(3000, "network gone");
      await new Promise((r) => setTimeout(r, 300));
      const back = await via.reconnect(token);
      clients.push(back);
      expect(await patchesOver(back, 1000)).toBeGreaterThanOrEqual(15);
      await back.leave();
    }
    expect(left).toEqual([]);
    expect(a.server.exit).toBeUndefined();

    // The last player leaves: the room ends, and so does A, cleanly.
    await first.leave();
    const exit = await exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await probeTraces(redis, a.processId)).toEqual([]);
    // B was untouched.
    expect((await health(b)).status).toBe(200);
  }, 60_000);

  it("the deadline: a game still running when it comes is closed with the shutdown code, and the process exits 0", async () => {
    const c = await cluster.add({ MAX_GUARDS: "8", DRAIN_SECONDS: "2" });
    const viaC = new Client(c.endpoint);
    const player = await roomOn(viaC, c);
    const code = new Promise<number>((resolve) => player.onLeave((c) => resolve(c)));
    const started = performance.now();
    const exit = await c.server.drain();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await code).toBe(4001);
    expect(performance.now() - started).toBeGreaterThan(1800);
    expect(await probeTraces(redis, c.processId)).toEqual([]);
  }, 60_000);
});
