import type { Room } from "@colyseus/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FrameRecorder } from "sightline/testing";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { parseTiledMap } from "../../server/sim/tiledMap.js";
import { decodeExplanation } from "../../shared/explanationWire.js";
import { SERVER_MESSAGES } from "../../shared/protocol.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";
import { objectLayer, point, prop, PX, rect, tiledJson } from "../fixtures/tiledJson.js";

/**
 * The fairness mode and the explanations in the live room, with real SDK clients: a client's stamped
 * render time reaches the check (its interpolation delay comes back as how far the guard was rewound), and
 * an explanation reaches a player only about an observer its view holds, checked on the raw frames.
 */

/** A 40 m hall: a camera "Far" at its west end looking east 30 m, a spawn "distant" 25 m away (beyond a player's 20 m of sight). */
function hallMap() {
  const json = tiledJson([
    objectLayer("walls", [rect(1, 0, 0, 40, 0.5), rect(2, 0, 5.5, 40, 0.5), rect(3, 0, 0, 0.5, 6), rect(4, 39.5, 0, 0.5, 6)]),
    objectLayer("actors", [
      point(10, "camera", "Far", 1.5, 3, [prop("facing", 0), prop("fov", 40), prop("range", 30), prop("sweep", 0), prop("period", 6)]),
      point(11, "spawn", "distant", 26.5, 3),
    ]),
  ], { width: 40, height: 6, properties: [prop("pixelsPerMeter", PX)] });
  return { ...parseTiledMap(json, "hall.tmj"), name: "hall" };
}

const TOKEN = "a-spectator-token-for-tests";
const GUARD = "guard:Watcher";
let frames: FrameRecorder;
let colyseus: LoopbackServer;

beforeAll(async () => {
  frames = FrameRecorder.start();
  const catalog = new MapCatalog().add(arenaMap()).add(hallMap());
  colyseus = await bootLoopback(createStealthServer({ room: { catalog, spectatorToken: TOKEN } }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

/** Holds still in the client's input stream each step (stamped with `renderDelay`), until `stop()`. */
function standStill(client: Room, renderDelay: number): { stop(): void } {
  const input = client.input({ mode: "reliable", renderDelay } as never) as any;
  let seq = 0;
  const timer = setInterval(() => {
    input.data.seq = ++seq;
    input.data.moveX = 0;
    input.data.moveY = 0;
    input.data.facing = 0;
    input.send();
  }, 25);
  return { stop: () => clearInterval(timer) };
}

describe("fairness and explanations on the wire", () => {
  it("a player spotted in front of a guard is told why, rewound by its own interpolation delay", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const me = await colyseus.connectTo(room, { spawn: "front" });
    const why: unknown[] = [];
    me.onMessage(SERVER_MESSAGES.explanation, (m) => why.push(m));
    const feet = standStill(me, 120);
    for (let i = 0; i < 60 && why.length === 0; i++) await ticks(room, 1);
    feet.stop();
    await me.waitForNextPatch();
    expect(why.length).toBeGreaterThan(0);
    const explained = decodeExplanation(why[0])!;
    expect(explained.observer).toBe("guard:Watcher");
    const last = explained.steps.at(-1)!;
    expect(last.after).toBe(1);
    expect(last.sense).toBe("sight");
    // The render time the SDK stamped: 120 ms of interpolation plus half a loopback round trip, give or take
    // its estimate of the server's clock and the steps the input waited for (a loaded machine: up to the cap).
    expect(last.poses!.rewoundMs).toBeGreaterThanOrEqual(60);
    expect(last.poses!.rewoundMs).toBeLessThanOrEqual(350);
    // The guard stands at its post: shown where it is, it needed no rays of its own.
    expect(room.sim.seenOnScreen!.counts.checked).toBeGreaterThan(0);
  });

  it("a guard that heard the player behind a wall, then came round and spotted it, explains only what happened once in the player's view", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const me = await colyseus.connectTo(room, { spawn: "cover" });
    const watcher = await colyseus.connectTo(room, { spectate: TOKEN });
    const mine: unknown[] = [];
    const whole: unknown[] = [];
    me.onMessage(SERVER_MESSAGES.explanation, (m) => mine.push(m));
    watcher.onMessage(SERVER_MESSAGES.explanation, (m) => whole.push(m));
    let firstInView = -1;
    let framesThen = -1;
    me.onStateChange((state: any) => {
      if (firstInView >= 0 || !state.guards.has(GUARD)) return;
      firstInView = state.tick;
      framesThen = frames.framesOf(me).length;
    });
    // A stone thrown near the guard: it hears the player (a thud's emitter is its thrower) and turns to look.
    // Then the player creeps north past the end of the wall, into its sight.
    me.send("distract", { x: 7, y: 6 });
    const input = me.input({ mode: "reliable", renderDelay: 100 } as never) as any;
    for (let seq = 1; seq <= 200 && mine.length === 0; seq++) {
      input.data.seq = seq;
      input.data.moveX = 0;
      input.data.moveY = seq > 30 ? -1 : 0;
      input.data.crouch = true;
      input.data.facing = Math.PI;
      input.send();
      await room.afterNextLoop();
    }
    await ticks(room, 2);
    await me.waitForNextPatch();
    await watcher.waitForNextPatch();
    expect(mine.length).toBe(1);
    const told = decodeExplanation(mine[0])!;
    const all = decodeExplanation(whole.find((m: any) => m.target === me.sessionId))!;
    expect(told.observer).toBe(GUARD);
    // The guard heard the player before the player could see it: the spectator's explanation says so...
    expect(all.steps.some((s) => s.sense === "hearing" && s.tick < firstInView)).toBe(true);
    // ...and the player's starts no earlier than the patch that first showed it the guard.
    expect(firstInView).toBeGreaterThan(0);
    expect(Math.min(...told.steps.map((s) => s.tick))).toBeGreaterThanOrEqual(firstInView);
    expect(told.steps.length).toBeLessThan(all.steps.length);
    // On the bytes: the guard's id first reached the player in the patch that showed it, not before.
    const needle = Buffer.from(GUARD);
    const first = frames.framesOf(me).findIndex((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).indexOf(needle) >= 0);
    expect(first).toBe(framesThen - 1);
  });

  it("the create option fairness: false judges on the server's poses alone", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena", fairness: false });
    await colyseus.connectTo(room, { spawn: "front" });
    await ticks(room, 5);
    expect(room.sim.seenOnScreen).toBeNull();
    await expect(colyseus.createRoom<StealthRoom>("stealth", { map: "arena", fairness: "yes" })).rejects.toThrow(/option "fairness" must be a boolean/);
  });
});
