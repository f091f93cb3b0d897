import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MAPS_DIR, MapCatalog } from "../../server/rooms/mapCatalog.js";
import { MAX_ANSWER_CHARS } from "../../server/rooms/refusal.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { nextMessage } from "../fixtures/roomClients.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";

// Regressions for two ways a client used to reach past the room's checks: a message typed "*" (its payload
// took the place of the type, whose rendering threw), and a refusal that quoted an option of any size (a
// matchmaking answer over the response's high-water mark never completed; see docs/upstream/).
// The body cap is raised here so that a huge option reaches the room at all.

let colyseus: LoopbackServer;
const catalog = new MapCatalog().load(MAPS_DIR).add(arenaMap());
const HUGE = "x".repeat(1024 * 1024);

beforeAll(async () => {
  colyseus = await bootLoopback(createStealthServer({ room: { catalog }, maxBodyBytes: 4 * 1024 * 1024, createsPerAddressPerMinute: 1000 }));
});
afterAll(async () => {
  await colyseus.shutdown();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

/** The matchmaking call's outcome and how long it took to arrive. */
async function timed<T>(call: Promise<T>): Promise<{ ms: number; error: any; value: T | undefined }> {
  const started = performance.now();
  try {
    const value = await call;
    return { ms: performance.now() - started, error: undefined, value };
  } catch (error) {
    return { ms: performance.now() - started, error, value: undefined };
  }
}

describe("hostile messages typed \"*\"", () => {
  it("a message typed \"*\" with a hostile payload is answered with an error and throws nothing", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const bystander = await colyseus.connectTo(room, { spawn: "far" });
    const payloads = [{ toString: 0 }, { toString: 0, valueOf: 0, toJSON: 0 }, JSON.parse(`{"__proto__": {"toString": 0}, "constructor": 1}`), "x".repeat(3000)];
    // One client per payload: errors are throttled to one per code per client per second.
    for (const payload of payloads) {
      const client = await colyseus.connectTo(room, { spawn: "behind" });
      const error = nextMessage(client, "error", 1000);
      client.send("*" as never, payload as never);
      expect(await error).toMatchObject({ code: "message.unknown", message: expect.stringMatching(/^message type (an object|"x+…) is not handled/) });
    }
    await ticks(room, 2);
    expect(room.stats.exceptions).toBe(0);
    expect(room.stats.messagesUnknown).toBe(payloads.length);
    expect(room.clients.length).toBe(payloads.length + 1);
    const tick = (bystander.state as any).tick;
    await bystander.waitForNextPatch();
    expect((bystander.state as any).tick).toBeGreaterThan(tick);
  });

  it("a request typed \"*\" with a hostile payload gets a reply and an error message, and throws nothing", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await client.waitForNextPatch();
    const error = nextMessage(client, "error", 1000);
    const reply = await timed(client.request("*", { toString: 0 }, { timeout: 1000 }));
    expect(reply.error).toBeUndefined();
    expect(reply.ms).toBeLessThan(1000);
    expect(await error).toMatchObject({ code: "message.unknown" });
    await ticks(room, 2);
    expect(room.stats.exceptions).toBe(0);
    const tick = (client.state as any).tick;
    await client.waitForNextPatch();
    expect((client.state as any).tick).toBeGreaterThan(tick);
  });
});

describe("huge options", () => {
  /** A refusal that arrived promptly and quotes at most a bounded share of what was sent. */
  function expectBoundedRefusal(outcome: { ms: number; error: any }, mentions: RegExp): void {
    expect(outcome.error, "the call should have been refused").toBeDefined();
    expect(outcome.ms).toBeLessThan(1000);
    expect(String(outcome.error.message)).toMatch(mentions);
    expect(String(outcome.error.message).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  }

  it("a create with a 1 MB option is refused within a second, with a bounded message", async () => {
    expectBoundedRefusal(await timed(colyseus.sdk.create("stealth", { guards: HUGE })), /option "guards" must be an integer/);
    expectBoundedRefusal(await timed(colyseus.sdk.create("stealth", { map: HUGE })), /option "map" must be a map name/);
    expectBoundedRefusal(await timed(colyseus.sdk.create("stealth", { map: `a${HUGE.slice(1, 60)}` })), /unknown map "a/);
    expectBoundedRefusal(await timed(colyseus.sdk.joinOrCreate("stealth", { guards: [HUGE, HUGE] })), /option "guards"/);
    expectBoundedRefusal(await timed(colyseus.sdk.create("stealth", { doors: HUGE })), /option "doors" must be a boolean/);
  });

  it("a raw matchmaking request with a 1 MB option is answered in full within a second", async () => {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${colyseus.port}/matchmake/create/stealth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ guards: HUGE }),
      signal: AbortSignal.timeout(2000),
    });
    const body = await res.text(); // the whole body: a response that never ends would time out here
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(526);
    expect(body.length).toBeLessThan(MAX_ANSWER_CHARS + 100);
  });

  it("a join with 1 MB options is refused within a second, with a bounded message, and the room plays on", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const player = await colyseus.connectTo(room, { spawn: "far" });
    expectBoundedRefusal(await timed(colyseus.sdk.joinById(room.roomId, { team: HUGE })), /team/);
    expectBoundedRefusal(await timed(colyseus.sdk.joinById(room.roomId, { spawn: HUGE })), /spawn/);
    expectBoundedRefusal(await timed(colyseus.sdk.joinById(room.roomId, { spawn: `z${HUGE.slice(0, 40)}` })), /unknown spawn/);
    expectBoundedRefusal(await timed(colyseus.sdk.joinById(room.roomId, { spectate: HUGE })), /spectator/);
    expect(room.stats.joinsRefused).toBe(4);
    expect(room.stats.exceptions).toBe(0);
    expect(room.clients.length).toBe(1);
    const tick = (player.state as any).tick;
    await player.waitForNextPatch();
    expect((player.state as any).tick).toBeGreaterThan(tick);
  });
});
