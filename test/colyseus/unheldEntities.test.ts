import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addSentry, BunkerRoom } from "../fixtures/bunkerRoom.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { FrameRecorder } from "sightline/testing";

// Entities no client's view holds stop recording schema changes (the plugin's `pauseUnheld`), in the
// test's own bunker room (a wall at x = 9..11 with a doorway at y = 18..22), with real SDK clients.

let frames: FrameRecorder;
let colyseus: LoopbackServer;

beforeAll(async () => {
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(defineServer({ transport: new WebSocketTransport(), rooms: { bunker: defineRoom(BunkerRoom) }, greet: false }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

async function patches(room: BunkerRoom, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await room.waitForNextPatch();
}

async function until(room: BunkerRoom, test: () => boolean, patchesMax = 40): Promise<void> {
  for (let i = 0; i < patchesMax && !test(); i++) await room.waitForNextPatch();
}

describe("entities no view holds", () => {
  it("a sentry nobody sees records no changes while it moves; the first client to see it gets where it is now, and every move after", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { audit: true });
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const sentry = addSentry(room, "sentry", 18, 10);
    const units = (red.state as any).units;
    await patches(room, 4);
    expect(sentry.isTrackingPaused).toBe(true);
    // Red's own character is held by its view: its changes are recorded.
    expect(room.state.units.get(red.sessionId)!.isTrackingPaused).toBe(false);

    // Behind the wall the sentry paces north; nobody is told, and nothing is recorded for it.
    for (let i = 1; i <= 10; i++) {
      sentry.y = 10 + i;
      await room.waitForNextPatch();
      expect(sentry.isTrackingPaused).toBe(true);
    }
    expect(units.has("sentry")).toBe(false);
    expect(frames.received(red, "sentry")).toBe(false);

    // It reaches the doorway's line, and red steps in line too: red gets it at its position now.
    sentry.y = 20;
    sentry.x = 17.25;
    red.send("goto", { x: 2, y: 20 });
    await until(room, () => units.has("sentry"));
    expect(sentry.isTrackingPaused).toBe(false);
    expect({ x: units.get("sentry").x, y: units.get("sentry").y }).toEqual({ x: 17.25, y: 20 });

    // Seen, each step of it arrives.
    for (const x of [16.5, 15.75, 15]) {
      sentry.x = x;
      await until(room, () => units.get("sentry")?.x === x, 5);
      expect(units.get("sentry").x).toBe(x);
    }

    // Red steps back behind the wall: the sentry leaves its view and is paused again.
    red.send("goto", { x: 2, y: 5 });
    await until(room, () => !units.has("sentry"));
    await patches(room, 2);
    expect(sentry.isTrackingPaused).toBe(true);
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(room.exceptions).toEqual([]);
  });

  it("a client that watches everything holds every entity: none is paused while it watches, and each is paused again once it leaves", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const caster = await colyseus.connectTo(room, { team: "casters", x: 38, y: 38 });
    const sentry = addSentry(room, "sentry", 18, 10);
    room.plugins.sightline.spectateAll(room.clients.getById(caster.sessionId)!);
    await patches(room, 4);
    expect(sentry.isTrackingPaused).toBe(false);
    sentry.x = 19;
    await until(room, () => (caster.state as any).units.get("sentry")?.x === 19, 5);
    expect((caster.state as any).units.get("sentry").x).toBe(19);
    expect((red.state as any).units.has("sentry")).toBe(false);

    await caster.leave();
    await patches(room, 4);
    expect(sentry.isTrackingPaused).toBe(true);
    expect(room.state.units.get(red.sessionId)!.isTrackingPaused).toBe(false);
  });

  it("with pauseUnheld false, every entity records its changes", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { pauseUnheld: false });
    await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const sentry = addSentry(room, "sentry", 18, 10);
    await patches(room, 4);
    expect(sentry.isTrackingPaused).toBe(false);
  });
});
