import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fieldSlot, liveValues } from "sightline/colyseus";
import { FrameRecorder } from "sightline/testing";
import { addSentry, BunkerRoom, Unit } from "../fixtures/bunkerRoom.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { GuardState } from "../../shared/schema.js";

// Writing an unseen entity's fields as a store into its live values (`fieldSlot`, `liveValues`), in a room
// of the test's own (tests/fixtures/bunkerRoom.ts) with real SDK clients over WebSocket.

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

async function until(room: BunkerRoom, test: () => boolean, patchesMax = 40): Promise<void> {
  for (let i = 0; i < patchesMax && !test(); i++) await room.waitForNextPatch();
}

describe("writes to entities no view holds", () => {
  it("a sentry moved by stores into its live values while nobody sees it reaches the first client to see it where it is now", async () => {
    const X = fieldSlot(Unit, "x");
    const Y = fieldSlot(Unit, "y");
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { audit: true });
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const sentry = addSentry(room, "sentry", 18, 10);
    const units = (red.state as any).units;
    await until(room, () => sentry.isTrackingPaused);
    expect(sentry.isTrackingPaused).toBe(true);

    // Behind the wall it paces north, each step a store: the server reads it, no client hears of it.
    for (let i = 1; i <= 10; i++) {
      liveValues(sentry)[Y] = 10 + i;
      expect(sentry.y).toBe(10 + i);
      await room.waitForNextPatch();
    }
    expect(units.has("sentry")).toBe(false);
    expect(frames.received(red, "sentry")).toBe(false);

    // At the doorway's line, with red stepping in line too, red gets it at the stored position.
    const live = liveValues(sentry);
    live[X] = 17.25;
    live[Y] = 20;
    red.send("goto", { x: 2, y: 20 });
    await until(room, () => units.has("sentry"));
    expect({ x: units.get("sentry").x, y: units.get("sentry").y }).toEqual({ x: 17.25, y: 20 });
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(room.exceptions).toEqual([]);
  });

  it("a field the class does not have is a RangeError naming it; builder and decorator classes alike have slots", () => {
    expect(() => fieldSlot(Unit, "z")).toThrow(RangeError);
    expect(() => fieldSlot(Unit, "z")).toThrow(/fieldSlot field is not a schema field of Unit \(got "z"\)/);
    expect(fieldSlot(Unit, "y")).not.toBe(fieldSlot(Unit, "x"));
    const guard = new GuardState();
    liveValues(guard)[fieldSlot(GuardState, "facing")] = 1.5;
    expect(guard.facing).toBe(1.5);
  });
});
