import { defineRoom, defineServer } from "@colyseus/core";
import type { ColyseusTestServer } from "@colyseus/testing";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ArenaRoom } from "../../examples/culling-room/arenaRoom.js";
import { bootLoopback } from "../fixtures/bootLoopback.js";
import { FrameRecorder } from "sightline/testing";

// The culling example: a room of its own (its own schema and walls, no stealth simulation, no physics)
// culled through the `sightline/colyseus` plugin, driven by real SDK clients over WebSocket.

/** Every frame each SDK client received, for the byte-level checks. */
let frames: FrameRecorder;
let colyseus: ColyseusTestServer;

beforeAll(async () => {
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(defineServer({ transport: new WebSocketTransport(), rooms: { arena: defineRoom(ArenaRoom) }, greet: false }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

describe("example: culling in your own Colyseus room", () => {
  it("tanks on either side of the wall receive nothing of each other, raw bytes included, until both stand in line with the doorway", async () => {
    const room = await colyseus.createRoom<ArenaRoom>("arena", { audit: true });
    const red = await colyseus.connectTo(room, { team: "red" });
    const blue = await colyseus.connectTo(room, { team: "blue" });
    for (let i = 0; i < 10; i++) await room.waitForNextPatch();
    const redTanks = (red.state as any).tanks;
    expect(redTanks.has(red.sessionId)).toBe(true);
    expect(redTanks.has(blue.sessionId)).toBe(false);
    expect(frames.received(red, blue.sessionId)).toBe(false);
    expect(frames.received(blue, red.sessionId)).toBe(false);
    expect(frames.received(blue, blue.sessionId)).toBe(true); // the search is not blind
    // Owner-only: red's ammo reaches red alone.
    expect(redTanks.get(red.sessionId).ammo).toBe(9);
    // A shot behind the wall is not news to the other side, raw bytes included.
    const shots: string[] = [];
    red.onMessage("shot", (m: { by: string }) => shots.push(`red heard ${m.by}`));
    blue.onMessage("shot", (m: { by: string }) => shots.push(`blue heard ${m.by}`));
    red.send("fire");
    for (let i = 0; i < 5; i++) await room.waitForNextPatch();
    expect(shots).toEqual([`red heard ${red.sessionId}`]);
    expect(frames.received(blue, "shot")).toBe(false);

    // Garbage changes nothing and throws nothing.
    red.send("move", { x: "east", y: null });
    red.send("move", { toString: 0, valueOf: 0 });
    // Both walk towards the doorway (y = 18..22): red to (10, 20), blue to (30, 20).
    red.send("move", { x: 0.4472, y: 0.8944 });
    blue.send("move", { x: -0.4472, y: 0.8944 });
    // Each client decodes its own frame of a patch in its own time: wait for both.
    const inLine = () => redTanks.has(blue.sessionId) && (blue.state as any).tanks.has(red.sessionId);
    for (let i = 0; i < 80 && !inLine(); i++) await room.waitForNextPatch(5);
    expect(redTanks.has(blue.sessionId)).toBe(true);
    expect((blue.state as any).tanks.has(red.sessionId)).toBe(true);
    expect(redTanks.get(blue.sessionId).ammo).toBeUndefined(); // another tank's owner-only field
    blue.send("fire");
    for (let i = 0; i < 10 && shots.length < 3; i++) await room.waitForNextPatch();
    expect(shots.sort()).toEqual([`blue heard ${blue.sessionId}`, `red heard ${blue.sessionId}`, `red heard ${red.sessionId}`].sort());
    red.send("move", { x: 0, y: 0 });
    blue.send("move", { x: 0, y: 0 });

    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(audit.counts.clientTicks - audit.counts.excused).toBeGreaterThan(50);

    // Blue leaves: its tank leaves red's state with it.
    await blue.leave();
    await room.waitForNextPatch(20);
    expect(redTanks.has(blue.sessionId)).toBe(false);
    expect(room.plugins.sightline.viewOf(red.sessionId)).toEqual([red.sessionId]);
  });
});
