import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";
import { moveInput } from "../fixtures/roomClients.js";
import { FrameRecorder } from "sightline/testing";

// The room's state mirror writes a guard no client's view holds straight into its live values (its change
// recording paused): whoever comes to see it must get it where it is then, not where it was last seen.

let frames: FrameRecorder;
let colyseus: LoopbackServer;

beforeAll(async () => {
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(createStealthServer({ room: { catalog: new MapCatalog().add(arenaMap({ patrol: true })), culling: { audit: true } } }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

describe("a guard nobody sees", () => {
  it("patrols unseen with nothing recorded, and a player who steps out gets it at its pose of that moment", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    // Behind the wall at x = 10..10.5, y = 7..11, the player cannot see the guard pacing x = 4, y = 5..9.
    const a = await colyseus.connectTo(room, { spawn: "cover", team: "a" });
    const guard = room.state.guards.get("guard:Watcher")!;
    await ticks(room, 10);
    expect(guard.isTrackingPaused).toBe(true);
    const ys = new Set<number>();
    for (let i = 0; i < 20; i++) {
      await ticks(room, 1);
      expect(guard.isTrackingPaused).toBe(true);
      ys.add(guard.y);
    }
    expect(ys.size).toBeGreaterThan(5); // it paced, and the server's state followed it
    const state = a.state as any;
    expect(state.guards.has("guard:Watcher")).toBe(false);
    expect(frames.received(a, "guard:Watcher")).toBe(false);

    // A steps out north, past the wall's end, and keeps still once the guard is in its view.
    const move = moveInput(a);
    const walk = (moveY: number) => move(0, moveY, Math.PI);
    for (let i = 0; i < 40 && !state.guards.has("guard:Watcher"); i++) {
      walk(-1);
      await a.waitForNextPatch();
    }
    walk(0);
    expect(state.guards.has("guard:Watcher")).toBe(true);
    // Received at its pose of the patch that brought it, and every step after: a patch behind the server at most.
    for (let i = 0; i < 5; i++) {
      await a.waitForNextPatch();
      const seen = state.guards.get("guard:Watcher");
      expect(Math.hypot(seen.x - guard.x, seen.y - guard.y)).toBeLessThan(0.3);
      expect(Math.abs(seen.facing - guard.facing)).toBeLessThan(0.5);
    }
    expect(room.stats.leaks).toBe(0);
    expect(room.stats.popIns).toBe(0);
  });
});
