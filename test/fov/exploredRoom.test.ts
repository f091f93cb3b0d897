import type { ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MAPS_DIR, MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { ExploredTiles } from "../../server/rooms/exploredTiles.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { computeFov, opacityGridFromTiled } from "../../shared/fov/index.js";
import { PlayerState } from "../../shared/schema.js";
import { bootLoopback } from "../fixtures/bootLoopback.js";

// One server for the file, on 127.0.0.1 at a port of its own.
let colyseus: ColyseusTestServer;

beforeAll(async () => {
  colyseus = await bootLoopback(createStealthServer({ room: { catalog: new MapCatalog().load(MAPS_DIR) } }));
});
afterAll(async () => {
  await colyseus.shutdown();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

describe("explored tiles in the stealth room", () => {
  it("a walking player's memory reaches its own client word for word, holds every tile the client computes it sees, and nobody else gets it", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "vault" });
    const walker = await colyseus.connectTo(room, { spawn: "A" });
    const mate = await colyseus.connectTo(room, { spawn: "C" });
    await walker.waitForNextPatch();
    const input = walker.input({ mode: "reliable" }) as any;
    // Walk north along the west side for 40 ticks (about 6 m), then stand still.
    for (let seq = 1; seq <= 40; seq++) {
      input.data.seq = seq;
      input.data.moveX = 0;
      input.data.moveY = -1;
      input.data.facing = -Math.PI / 2;
      input.data.crouch = false;
      input.send();
      await room.afterNextLoop();
    }
    for (let i = 0; i < 10; i++) await room.afterNextLoop();
    await walker.waitForNextPatch();
    await mate.waitForNextPatch();

    const mine = (walker.state as any).players.get(walker.sessionId);
    const server = room.explored.visionOf(walker.sessionId)!;
    expect(mine.y).toBeLessThan(17);
    // Word for word: every nonzero word under its index, no other key.
    const received = new Map<string, number>([...mine.explored.entries()]);
    expect(received).toEqual(new Map([...server.explored].flatMap((w, i) => (w === 0 ? [] : [[String(i), w] as const]))));

    // The client's own fog of war: the public map, its own position, the shared computeFov.
    const grid = opacityGridFromTiled(loadMapFile(`${MAPS_DIR}vault.tmj`).publicSource);
    const eye = grid.eyeTile(mine.x, mine.y, { x: 0, y: 0 });
    let visible = 0;
    computeFov(grid, eye.x, eye.y, room.explored.radius, (x, y) => {
      const i = y * grid.width + x;
      visible++;
      expect((received.get(String(i >>> 5)) ?? 0) & (1 << (i & 31)), `tile ${x}, ${y} is seen but not explored`).not.toBe(0);
      expect(server.isVisible(x, y)).toBe(true);
    });
    expect(visible).toBeGreaterThan(40);
    const explored = server.explored.reduce((n, w) => n + popCount(w), 0);
    expect(explored).toBeGreaterThan(visible); // it remembers where it walked from

    // Its teammate sees the walker's character, never its memory.
    const seenByMate = (mate.state as any).players.get(walker.sessionId);
    expect(seenByMate).toBeDefined();
    expect(seenByMate.explored).toBeUndefined();

    // Recomputed only when a player's tile changed: far fewer times than players x ticks.
    expect(room.stats.tileVisionRecomputes).toBeGreaterThan(5);
    expect(room.stats.tileVisionRecomputes).toBeLessThan(20);
    expect(room.stats.ticks).toBeGreaterThan(45);
  });
});

describe("explored tiles without a network", () => {
  it("a player whose position is not finite is skipped for the tick, not thrown over, and the others still update", () => {
    const explored = new ExploredTiles(loadMapFile(`${MAPS_DIR}vault.tmj`));
    const [good, bad] = [new PlayerState(), new PlayerState()];
    explored.add("good", good);
    explored.add("bad", bad);
    const players = [
      { id: "bad", body: { getPosition: () => ({ x: NaN, y: 3 }) } },
      { id: "good", body: { getPosition: () => ({ x: 2.5, y: 21.5 }) } },
    ];
    expect(() => explored.update(players)).not.toThrow();
    expect(explored.recomputes).toBe(1);
    expect(good.explored.size).toBeGreaterThan(0);
    expect(bad.explored.size).toBe(0);
  });
});

function popCount(word: number): number {
  let n = 0;
  for (let w = word >>> 0; w !== 0; w &= w - 1) n++;
  return n;
}
