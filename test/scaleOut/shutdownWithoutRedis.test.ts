import { Client, type Room } from "@colyseus/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, type ClusterMember } from "../../loadtest/cluster/localCluster.js";

/**
 * Stopping a process while Redis cannot be reached. Its Redis connections wait for Redis rather than
 * fail, so the shutdown's last words to Redis (taking its room count and load out) would wait for ever;
 * the process gives up after a bounded time instead of hanging until an orchestrator kills it.
 */
let cluster: LocalCluster;
let member: ClusterMember;
const clients: Room[] = [];

beforeAll(async () => {
  cluster = await LocalCluster.start(1, { MAX_GUARDS: "8", DRAIN_SECONDS: "600" });
  member = cluster.members[0]!;
}, 60_000);

afterAll(async () => {
  for (const room of clients) if (room.connection.isOpen) await room.leave().catch(() => undefined);
  await cluster?.stop();
}, 30_000);

describe("a process stopped while Redis is away", () => {
  it("a drain cut short by a second signal exits 1 within the shutdown limit, saying why, rather than hanging", async () => {
    const room = await new Client(member.endpoint).create("stealth", { map: "demo" });
    clients.push(room);
    await cluster.redis.stop();
    member.server.signal("SIGTERM"); // drains: the game keeps it running
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(member.server.exit).toBeUndefined();
    const started = performance.now();
    member.server.signal("SIGTERM"); // stop now: the shutdown waits on Redis
    await Promise.race([member.server.exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    const seconds = (performance.now() - started) / 1000;
    expect(member.server.exit, member.server.lastOutput()).toEqual({ code: 1, signal: null });
    expect(seconds).toBeGreaterThan(9);
    expect(seconds).toBeLessThan(15);
    expect(member.server.lastOutput()).toMatch(/shutdown did not finish in 10 s \(is Redis reachable\?\): exiting now/);
  }, 40_000);
});
