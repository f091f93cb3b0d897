import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import type { ViewCulling } from "sightline/culling";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";
import { moveInput } from "../fixtures/roomClients.js";
import { FrameRecorder } from "sightline/testing";

/** Every frame each SDK client received, for the byte-level checks. */
let frames: FrameRecorder;
let colyseus: LoopbackServer;
const catalog = new MapCatalog().add(arenaMap());

beforeAll(async () => {
  // Every frame each client socket receives, raw, from its very first (the join's full state) on.
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(createStealthServer({ room: { catalog, culling: { audit: true } } }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

describe("map files", () => {
  it("a server with its own catalog serves its own maps, without their guards, and not the bundled maps", async () => {
    const served = await fetch(`http://127.0.0.1:${colyseus.port}/maps/arena.tmj`);
    expect(served.status).toBe(200);
    const text = await served.text();
    const arena = JSON.parse(text) as { layers: { objects?: { name?: string; type?: string }[] }[] };
    const objects = arena.layers.flatMap((l) => l.objects ?? []);
    expect(objects.some((o) => o.type === "spawn" && o.name === "cover")).toBe(true);
    expect(text).not.toContain("Watcher");
    const bundled = await fetch(`http://127.0.0.1:${colyseus.port}/maps/demo.tmj`);
    expect(bundled.status).toBe(404);
    expect(((await bundled.json()) as { error: string }).error).toMatch(/available: arena\.tmj/);
  });
});

describe("anti-wallhack culling in the room", () => {
  it("a client behind a wall has no trace of the enemies, not even in its raw bytes; they arrive before they are visible and leave after the linger", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    // A hides behind the wall at x = 10..10.5, y = 7..11; B stands behind the guard, on the far side of it.
    const a = await colyseus.connectTo(room, { spawn: "cover", team: "a" });
    const b = await colyseus.connectTo(room, { spawn: "behind", team: "b" });
    await ticks(room, 10);
    await a.waitForNextPatch();
    const state = a.state as any;
    expect(state.players.has(a.sessionId)).toBe(true);
    expect(state.players.has(b.sessionId)).toBe(false);
    expect(state.guards.has("guard:Watcher")).toBe(false);
    expect(frames.framesOf(a).length).toBeGreaterThan(5);
    for (const secret of [b.sessionId, "guard:Watcher", "Watcher"]) expect(frames.received(a, secret), secret).toBe(false);
    // B, in the open, does get the guard: the bytes search is not blind.
    expect(frames.received(b, "guard:Watcher")).toBe(true);

    // A steps out north, past the wall's end: B and the guard must be in A's view before A truly sees them.
    const move = moveInput(a);
    const walk = (moveY: number) => move(0, moveY, Math.PI);
    for (let i = 0; i < 30 && !state.players.has(b.sessionId); i++) {
      walk(-1);
      await room.afterNextLoop();
    }
    await a.waitForNextPatch();
    expect(state.players.has(b.sessionId)).toBe(true);
    expect(room.stats.popIns).toBe(0);
    // Back behind the wall: B leaves A's view, but only after it stopped qualifying for the linger.
    let lastQualified = -1;
    let removedAt = -1;
    for (let i = 0; i < 60 && removedAt < 0; i++) {
      walk(1);
      await room.afterNextLoop();
      if (culling(room).qualifies(a.sessionId, b.sessionId)) lastQualified = room.state.tick;
      else if (!room.culling.has(a.sessionId, b.sessionId)) removedAt = room.state.tick;
    }
    expect(removedAt).toBeGreaterThan(0);
    expect(removedAt - lastQualified).toBe(culling(room).lingerTicks + 1);
    await a.waitForNextPatch();
    await a.waitForNextPatch();
    expect(state.players.has(b.sessionId)).toBe(false);
    expect(room.stats.leaks).toBe(0);
    expect(room.stats.popIns).toBe(0);
    expect(room.stats.misses).toBe(0);
    expect(room.stats.auditedClientTicks).toBeGreaterThan(30);
    expect(room.stats.viewAdds).toBeGreaterThan(0);
    expect(room.stats.viewRemoves).toBeGreaterThan(0);
  });

  it("measures each client's round trip with WebSocket pings, without help from the client", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    await colyseus.connectTo(room, { spawn: "far" });
    await colyseus.connectTo(room, { spawn: "door" });
    for (let i = 0; i < 40 && room.stats.roundTripMs.clients < 2; i++) await ticks(room, 1);
    expect(room.stats.roundTripMs.clients).toBe(2);
    expect(room.stats.roundTripMs.max).toBeGreaterThanOrEqual(0);
    expect(room.stats.roundTripMs.max).toBeLessThan(100); // loopback
    const first = [...room.clients][0]!.sessionId;
    expect(culling(room).lookaheadOf(first)).toBeLessThan(culling(room).lookaheadFor(undefined));
  });
});

/** The room's culling (on in these tests), whose figures the room does not publish. */
function culling(room: StealthRoom): ViewCulling {
  return room.plugins.sightline.culling!;
}
