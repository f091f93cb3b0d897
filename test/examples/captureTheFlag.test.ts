import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FrameRecorder } from "sightline/testing";
import { CtfRoom } from "../../examples/capture-the-flag/ctfRoom.js";
import { leakCheck } from "../../examples/capture-the-flag/leakCheck.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";

// The capture-the-flag example: a team game written on `sightline/colyseus` alone, checked the way it
// tells a studio to check its own game (its leak check, on `sightline/testing`).

let colyseus: LoopbackServer;
let frames: FrameRecorder;
const TOKEN = "caster-token-of-this-test";
/**
 * Seconds the bots play: long enough that a tag made under a loaded CI machine's slower first crossing
 * still comes back, three seconds later, before they leave.
 */
const SECONDS = 11;

beforeAll(async () => {
  frames = FrameRecorder.start();
  colyseus = await bootLoopback(defineServer({ transport: new WebSocketTransport(), rooms: { ctf: defineRoom(CtfRoom) }, greet: false }));
});
afterAll(async () => {
  await colyseus.shutdown();
  frames.stop();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

describe("example: capture the flag", () => {
  it("its leak check passes: bots play with pings, marks, tags, respawns and footsteps, the audit finds no leak, and no enemy loadout reaches anyone", async () => {
    const room = await colyseus.createRoom<CtfRoom>("ctf", {});
    const report = await leakCheck(room, colyseus.port, SECONDS, 8);
    expect(report.counts).toMatchObject({ leaks: 0, popIns: 0, misses: 0, soundLeaks: 0 });
    // Footsteps were heard round the walls by enemies who could not see the runner, and every one audited.
    expect(room.events.footsteps).toBeGreaterThan(100);
    expect(report.counts.soundsAudited).toBeGreaterThan(0);
    expect(room.plugins.sightline.counters.noises.named).toBe(0);
    expect(report.audited).toBeGreaterThan(SECONDS * 8 * 15);
    expect(report.counts.truthChecks).toBeGreaterThan(0); // enemies were in range and out of sight
    // The game got going: clock respawns (the moment a teleport used to leak) and reveals.
    expect(room.events.tags).toBeGreaterThan(0);
    expect(room.events.respawns).toBeGreaterThan(0);
    expect(room.events.pings + room.events.spots).toBeGreaterThan(0);
  }, 30_000);

  it("a spectator sees a player's team without its ammo; a caster with the room's token sees both teams' fields", async () => {
    const room = await colyseus.createRoom<CtfRoom>("ctf", { casterToken: TOKEN });
    const red = await colyseus.connectTo(room, { team: "red" });
    const blue = await colyseus.connectTo(room, { team: "blue" });
    const spectator = await colyseus.connectTo(room, { spectate: red.sessionId });
    const caster = await colyseus.connectTo(room, { caster: TOKEN });
    for (let i = 0; i < 6; i++) await room.waitForNextPatch();
    const seen = (client: { state: unknown }) => (client.state as any).players;
    expect(seen(red).get(red.sessionId).ammo).toBe(30);
    expect(seen(spectator).get(red.sessionId).ammo).toBeUndefined();
    expect(seen(spectator).get(red.sessionId).loadout).toBe(`red-kit-${red.sessionId}`);
    expect(seen(spectator).has(blue.sessionId)).toBe(false); // across the field, behind the middle wall
    frames.assertNeverReceived(spectator, `blue-kit-${blue.sessionId}`, "blue's loadout");
    expect(seen(caster).get(blue.sessionId).loadout).toBe(`blue-kit-${blue.sessionId}`);
    expect(seen(caster).get(red.sessionId).ammo).toBe(30);
    // Flags are objectives everyone sees.
    expect((red.state as any).flags.has("flag:blue")).toBe(true);
    // A wrong token is refused; the spectators move on when their player leaves.
    await expect(colyseus.connectTo(room, { caster: "not-the-token-at-all" })).rejects.toThrow(/wrong caster token/);
    await red.leave();
    for (let i = 0; i < 3; i++) await room.waitForNextPatch();
    expect(room.plugins.sightline.counters.clients).toBe(2);
  });
});
