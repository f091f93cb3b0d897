import type { Room } from "@colyseus/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FrameRecorder } from "sightline/testing";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { SMOKE } from "../../shared/gameRules.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { DOOR_ID, doorMap } from "../fixtures/doorMap.js";
import { ticks } from "../fixtures/roomTicks.js";

/**
 * Doors and smoke, checked on the bytes real SDK clients receive: what a shut door or a cloud hides is not
 * in them, and what a change reveals arrives in the very patch that carries the change.
 */
let frames: FrameRecorder;
let colyseus: LoopbackServer;

beforeAll(async () => {
  frames = FrameRecorder.start();
  const catalog = new MapCatalog().add(doorMap({ guard: false })).add({ ...doorMap({ guard: false, open: true }), name: "rooms-open" });
  colyseus = await bootLoopback(createStealthServer({ room: { catalog, culling: { audit: true } } }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

/** One line per patch the client decoded: how many frames it had by then, and what the state showed. */
interface PatchSeen {
  frames: number;
  doorOpen: boolean | undefined;
  cloud: number | undefined;
  enemy: boolean;
}

/** Records, at every patch `client` decodes, the door's state, the cloud's density and whether `enemyId` is in its state. */
function watchPatches(client: Room, enemyId: string): PatchSeen[] {
  const seen: PatchSeen[] = [];
  client.onStateChange((state: any) => {
    let cloud: number | undefined;
    state.smokes?.forEach((c: { density: number }) => { cloud = c.density; });
    seen.push({ frames: frames.framesOf(client).length, doorOpen: state.doors?.get(String(DOOR_ID))?.open, cloud, enemy: state.players.has(enemyId) });
  });
  return seen;
}

/** The first frame (index) the client received that holds `text`'s bytes, or -1. */
function firstFrameWith(client: Room, text: string): number {
  const needle = Buffer.from(text);
  return frames.framesOf(client).findIndex((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).indexOf(needle) >= 0);
}

describe("doors on the wire", () => {
  it("an enemy behind a shut door is absent from the client's bytes; opened, it arrives in the patch that shows the door open; shut, it leaves after the linger", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "rooms" });
    const me = await colyseus.connectTo(room, { spawn: "doorway", team: "a" });
    const enemy = await colyseus.connectTo(room, { spawn: "east", team: "b" });
    const seen = watchPatches(me, enemy.sessionId);
    await ticks(room, 10);
    await me.waitForNextPatch();
    expect((me.state as any).doors.get(String(DOOR_ID))?.open).toBe(false);
    frames.assertNeverReceived(me, enemy.sessionId, "the enemy's id");

    me.send("door", { door: DOOR_ID, open: true });
    for (let i = 0; i < 20 && !seen.some((s) => s.doorOpen === true); i++) await me.waitForNextPatch();
    const opened = seen.findIndex((s) => s.doorOpen === true);
    expect(opened).toBeGreaterThan(0);
    expect(seen.slice(0, opened).some((s) => s.enemy), "the enemy before the door opened").toBe(false);
    expect(seen[opened]!.enemy, "the enemy in the patch that opened the door").toBe(true);
    // On the bytes: the enemy's id is first in the frame of that very patch.
    expect(firstFrameWith(me, enemy.sessionId)).toBe(seen[opened]!.frames - 1);

    me.send("door", { door: DOOR_ID, open: false });
    for (let i = 0; i < 20 && !seen.some((s, k) => k > opened && s.doorOpen === false); i++) await me.waitForNextPatch();
    const shut = seen.findIndex((s, k) => k > opened && s.doorOpen === false);
    expect(shut).toBeGreaterThan(opened);
    const linger = room.plugins.sightline.culling!.lingerTicks;
    for (let i = 0; i < linger + 5; i++) await me.waitForNextPatch();
    const gone = seen.findIndex((s, k) => k >= shut && !s.enemy);
    // Still sent for the linger after the door shut on it (it last qualified in the patch before), then gone.
    expect(seen.slice(shut, gone).every((s) => s.enemy)).toBe(true);
    expect(gone - shut).toBe(linger);
    expect(room.stats).toMatchObject({ leaks: 0, popIns: 0, misses: 0, doorsToggled: 2 });
    expect(room.stats.auditedClientTicks).toBeGreaterThan(20);
  });

  it("a door out of sight is no news: its state never reaches a client that cannot see it, and opening it tells that client nothing", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "rooms" });
    const near = await colyseus.connectTo(room, { spawn: "doorway", team: "a" });
    const shut = await colyseus.connectTo(room, { spawn: "closet", team: "b" });
    await ticks(room, 5);
    near.send("door", { door: DOOR_ID, open: true });
    await ticks(room, 5);
    await shut.waitForNextPatch();
    expect((near.state as any).doors.get(String(DOOR_ID))?.open).toBe(true);
    frames.assertReceived(near, String(DOOR_ID), "the door's key"); // the search is not blind
    frames.assertNeverReceived(shut, String(DOOR_ID), "the door's key");
    expect((shut.state as any).doors.size).toBe(0);
  });
});

describe("a room without doors", () => {
  it("the create option doors: false leaves every doorway an open passage, for measuring what doors cost", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "rooms", doors: false });
    const me = await colyseus.connectTo(room, { spawn: "doorway", team: "a" });
    const enemy = await colyseus.connectTo(room, { spawn: "east", team: "b" });
    await ticks(room, 5);
    await me.waitForNextPatch();
    expect(room.sim.doors.list).toHaveLength(0);
    expect((me.state as any).doors.size).toBe(0);
    expect((me.state as any).players.has(enemy.sessionId)).toBe(true);
  });
});

describe("smoke on the wire", () => {
  it("a cloud in the doorway hides the enemy from the client's bytes while it is dense, and the enemy comes back in the patch where it thins", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "rooms-open" });
    const me = await colyseus.connectTo(room, { spawn: "west", team: "a" });
    const enemy = await colyseus.connectTo(room, { spawn: "east", team: "b" });
    const seen = watchPatches(me, enemy.sessionId);
    await ticks(room, 10);
    await me.waitForNextPatch();
    expect((me.state as any).players.has(enemy.sessionId)).toBe(true);

    me.send("smoke", { x: 12.25, y: 6 });
    for (let i = 0; i < 60 && !(seen.at(-1)!.cloud !== undefined && !seen.at(-1)!.enemy); i++) await me.waitForNextPatch();
    const hidden = seen.length - 1;
    expect(seen[hidden]!.enemy).toBe(false);
    const framesWhenHidden = frames.framesOf(me).length;
    // Dense for SMOKE.seconds - SMOKE.fadeSeconds / 2 (11 s): wait until it thins.
    for (let i = 0; i < 20 * SMOKE.seconds && !seen.at(-1)!.enemy; i++) await me.waitForNextPatch();
    const back = seen.findIndex((s, k) => k > hidden && s.enemy);
    expect(back).toBeGreaterThan(hidden);
    expect(seen[back]!.cloud).toBeLessThan(SMOKE.opaqueDensity);
    expect(seen[back - 1]!.cloud).toBeGreaterThanOrEqual(SMOKE.opaqueDensity);
    // Between the two, the enemy's position bytes never came: no frame holds its id.
    const between = frames.framesOf(me).slice(framesWhenHidden, seen[back]!.frames - 1);
    expect(between.some((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).indexOf(Buffer.from(enemy.sessionId)) >= 0)).toBe(false);
    expect(room.stats).toMatchObject({ leaks: 0, popIns: 0, misses: 0, smokesThrown: 1 });
  }, 30_000);
});
