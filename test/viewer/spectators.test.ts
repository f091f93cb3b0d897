import { matchMaker } from "@colyseus/core";
import type { ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { WRONG_TOKEN_LOCKOUT_MS } from "../../server/rooms/spectators.js";
import { stealthRoomWith, type StealthRoom } from "../../server/rooms/StealthRoom.js";
import { RAY_FLOATS, readRays, SPECTATOR_MESSAGES, type ReceivedEntities } from "../../shared/spectatorProtocol.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";
import { FrameRecorder } from "sightline/testing";

const TOKEN = "let-me-watch-everything";
const catalog = new MapCatalog().add(arenaMap());
/** Every frame each SDK client received, for the byte-level checks. */
let frames: FrameRecorder;
let colyseus: ColyseusTestServer;
/** The clock of the "stealth-clocked" rooms' time rules, ms: the test moves it. */
let clockMs = 0;

beforeAll(async () => {
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(createStealthServer({ room: { catalog, spectatorToken: TOKEN, culling: { audit: true } } }));
  // The same room with spectating left off (the default), next to it in the same process.
  matchMaker.defineRoomType("stealth-unwatched", stealthRoomWith({ catalog }));
  // And with spectating on, its lockout timed on a clock of the test's.
  matchMaker.defineRoomType("stealth-clocked", stealthRoomWith({ catalog, spectatorToken: TOKEN, now: () => clockMs }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

interface Walker {
  input(options: { mode: "reliable" }): { data: Record<string, unknown>; send(): void };
}

/** Sends one input frame per call, every field set, seq increasing. */
function stepper(client: Walker): (moveX: number, moveY: number) => void {
  const input = client.input({ mode: "reliable" });
  let seq = 0;
  return (moveX, moveY) => {
    Object.assign(input.data, { seq: ++seq, moveX, moveY, facing: 0, crouch: false, rejected: false });
    input.send();
  };
}

describe("spectator mode", () => {
  it("a spectator receives every entity, every player's meters and the rays of each tick; a player behind a wall still receives none of it", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    // A hides behind the wall from the guard Watcher and from B, who stands behind the guard; C stands 3 m
    // in front of the guard and walks across its cone, so the guard casts rays every tick.
    const a = await colyseus.connectTo(room, { spawn: "cover", team: "a" });
    const b = await colyseus.connectTo(room, { spawn: "behind", team: "b" });
    const c = await colyseus.connectTo(room, { spawn: "front", team: "c" });
    expect(room.sim.vision.rayLog).toBeNull(); // nobody watches: no ray is recorded
    const spectator = await colyseus.connectTo(room, { spectate: TOKEN });
    const rays: Float32Array[] = [];
    spectator.onMessage(SPECTATOR_MESSAGES.rays, (bytes: Uint8Array) => rays.push(readRays(bytes)));
    const received: ReceivedEntities[] = [];
    spectator.onMessage(SPECTATOR_MESSAGES.received, (m: ReceivedEntities) => received.push(m));
    let raysToPlayers = 0;
    for (const player of [a, b, c]) player.onMessage(SPECTATOR_MESSAGES.rays, () => raysToPlayers++);
    spectator.send(SPECTATOR_MESSAGES.watch, { player: a.sessionId });

    const walkC = stepper(c);
    for (let i = 0; i < 10; i++) {
      walkC(0, i < 5 ? -1 : 1);
      await room.afterNextLoop();
    }
    await spectator.waitForNextPatch();

    const seen = spectator.state as any;
    expect([...seen.players.keys()].sort()).toEqual([a.sessionId, b.sessionId, c.sessionId].sort());
    expect(seen.guards.has("guard:Watcher")).toBe(true);
    // OWNER-tagged data of every player: C's meter of the guard that is looking at it.
    expect(seen.players.get(c.sessionId).meters.get("guard:Watcher")?.level).toBeGreaterThan(0);
    expect(seen.players.get(c.sessionId).ack).toBeGreaterThan(0);

    // The rays: one message per tick, the scheduler's tree rays, each from the guard's eye (it has not moved).
    expect(rays.length).toBeGreaterThanOrEqual(9);
    const cast = rays.flatMap((r) => Array.from({ length: r.length / RAY_FLOATS }, (_, i) => Array.from(r.subarray(i * RAY_FLOATS, (i + 1) * RAY_FLOATS))));
    expect(cast.length).toBeGreaterThan(0);
    for (const [x1, y1, x2, y2, clear] of cast) {
      expect(Math.hypot(x1! - 4, y1! - 5)).toBeLessThan(1e-5);
      expect(Math.hypot(x2! - x1!, y2! - y1!)).toBeLessThanOrEqual(12);
      expect([0, 1]).toContain(clear);
    }
    expect(cast.some((r) => r[4] === 1)).toBe(true);

    // What A's and B's clients received, as the culling decided it (nobody moves now).
    const everyEntity = () => [...room.state.players.keys(), ...room.state.guards.keys()];
    await ticks(room, 8);
    const forA = received.at(-1)!;
    expect(forA.player).toBe(a.sessionId);
    expect(forA.ids.sort()).toEqual(everyEntity().filter((id) => room.culling.has(a.sessionId, id)).sort());
    expect(forA.ids).toContain(a.sessionId);
    expect(forA.ids).not.toContain("guard:Watcher");
    spectator.send(SPECTATOR_MESSAGES.watch, { player: b.sessionId });
    await ticks(room, 3);
    const forB = received.at(-1)!;
    expect(forB.player).toBe(b.sessionId);
    expect(forB.ids.sort()).toEqual(everyEntity().filter((id) => room.culling.has(b.sessionId, id)).sort());
    expect(forB.ids).toContain("guard:Watcher");

    // A, behind the wall, got no hidden id, nothing about the spectator and no ray, not even in its raw bytes.
    await a.waitForNextPatch();
    expect(frames.framesOf(a).length).toBeGreaterThan(5);
    for (const secret of ["guard:Watcher", b.sessionId, spectator.sessionId, SPECTATOR_MESSAGES.rays, SPECTATOR_MESSAGES.received]) {
      expect(frames.received(a, secret), secret).toBe(false);
    }
    for (const [x1, y1, x2, y2] of cast.slice(0, 50)) {
      const ray = new Uint8Array(new Float32Array([x1!, y1!, x2!, y2!]).buffer);
      expect(frames.received(a, ray)).toBe(false);
      expect(frames.received(b, ray)).toBe(false);
      expect(frames.received(c, ray)).toBe(false);
      expect(frames.received(spectator, ray)).toBe(true); // the search finds rays where they are
    }
    expect(raysToPlayers).toBe(0);
    for (const player of [b, c]) expect(frames.received(player, spectator.sessionId)).toBe(false);

    // The spectator is not a player: no character, no culling view; culling stayed exact with it present.
    expect(room.state.players.has(spectator.sessionId)).toBe(false);
    expect(room.culling.has(spectator.sessionId, spectator.sessionId)).toBe(false);
    expect(room.stats.leaks).toBe(0);
    expect(room.stats.popIns).toBe(0);
    expect(room.stats.misses).toBe(0);

    // The last spectator gone, the room stops recording rays.
    await spectator.leave();
    await ticks(room, 1);
    expect(room.sim.vision.rayLog).toBeNull();
  });

  it("refuses a wrong or missing token, and any spectator where the mode is off, with a message, counting each refusal", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth-clocked", { map: "arena" });
    const player = await colyseus.connectTo(room, { spawn: "far" }); // an empty room would close after a refusal
    await expect(colyseus.connectTo(room, { spectate: "guess" })).rejects.toThrow(/wrong spectator token/);
    await expect(colyseus.connectTo(room, { spectate: "" })).rejects.toThrow(/"spectate" must be the spectator token/);
    await expect(colyseus.connectTo(room, { spectate: 42 })).rejects.toThrow(/"spectate" must be the spectator token/);
    expect(room.stats.joinsRefused).toBe(3);
    expect(room.sim.vision.rayLog).toBeNull();
    // Guessing is slowed down: right after a wrong token, even the right one is refused for a second.
    await expect(colyseus.connectTo(room, { spectate: "another-wrong-guess" })).rejects.toThrow(/wrong spectator token/);
    await expect(colyseus.connectTo(room, { spectate: TOKEN })).rejects.toThrow(/less than a second ago/);
    expect(room.stats.joinsRefused).toBe(5);
    clockMs += WRONG_TOKEN_LOCKOUT_MS - 1;
    await expect(colyseus.connectTo(room, { spectate: TOKEN })).rejects.toThrow(/less than a second ago/);
    expect(room.stats.joinsRefused).toBe(6);
    clockMs += 1;
    const late = await colyseus.connectTo(room, { spectate: TOKEN });
    late.onMessage(SPECTATOR_MESSAGES.rays, () => {});
    await late.leave();
    expect(room.state.players.size).toBe(1);

    const unwatched = await colyseus.createRoom<StealthRoom>("stealth-unwatched", { map: "arena" });
    await colyseus.connectTo(unwatched, { spawn: "far" });
    await expect(colyseus.connectTo(unwatched, { spectate: TOKEN })).rejects.toThrow(/spectator mode is off/);
    expect(unwatched.stats.joinsRefused).toBe(1);
    // The refusals cost nothing: the room keeps ticking for its player.
    const tick = room.state.tick;
    await ticks(room, 2);
    await player.waitForNextPatch();
    expect((player.state as any).tick).toBeGreaterThan(tick);
  });

  it("a spectator that came first sees players arrive and leave; `watch` is for spectators only and checks its payload", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const spectator = await colyseus.connectTo(room, { spectate: TOKEN });
    spectator.onMessage(SPECTATOR_MESSAGES.rays, () => {});
    const errors: { code: string; message: string }[] = [];
    spectator.onMessage("error", (e: { code: string; message: string }) => errors.push(e));
    const player = await colyseus.connectTo(room, { spawn: "far" });
    const playerErrors: { code: string; message: string }[] = [];
    player.onMessage("error", (e: { code: string; message: string }) => playerErrors.push(e));
    await ticks(room, 2);
    await spectator.waitForNextPatch();
    expect((spectator.state as any).players.has(player.sessionId)).toBe(true);
    expect((spectator.state as any).players.get(player.sessionId).meters).toBeDefined();

    player.send(SPECTATOR_MESSAGES.watch, { player: player.sessionId });
    spectator.send(SPECTATOR_MESSAGES.watch, { player: 7 });
    await ticks(room, 3);
    expect(playerErrors.map((e) => e.code)).toEqual(["message.refused"]);
    expect(playerErrors[0]!.message).toMatch(/only spectators/);
    expect(errors.map((e) => e.code)).toEqual(["message.invalid"]);
    expect(errors[0]!.message).toMatch(/player/);
    expect(room.stats.messagesInvalid).toBe(1);

    await player.leave();
    await ticks(room, 2);
    await spectator.waitForNextPatch();
    expect((spectator.state as any).players.has(player.sessionId)).toBe(false);
    expect(room.sim.vision.rayLog).not.toBeNull(); // still watched
  });
});
