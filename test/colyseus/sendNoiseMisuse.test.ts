import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BunkerRoom } from "../fixtures/bunkerRoom.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";

// `sendNoise` misused in a room of the test's own (tests/fixtures/bunkerRoom.ts): refused at the call,
// with a RangeError naming the field, and nothing queued for a later patch to fail on.

let colyseus: LoopbackServer;

beforeAll(async () => {
  colyseus = await bootLoopback(defineServer({ transport: new WebSocketTransport(), rooms: { bunker: defineRoom(BunkerRoom) }, greet: false }));
});
afterAll(async () => {
  await colyseus.shutdown();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

async function patches(room: BunkerRoom, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await room.waitForNextPatch();
}

describe("sendNoise misused", () => {
  it("a noise sent with a misspelt or malformed option, or to a room with nothing for sound to travel through, is refused at once and nothing is queued", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const plugin = room.plugins.sightline;
    const noise = { x: 2, y: 10, loudness: 5, kind: "step", emitter: red.sessionId };
    for (const options of [5, null, "whenHidden", []]) expect(() => plugin.sendNoise(noise, "noise", options as never)).toThrow(/NoiseSendOptions/);
    expect(() => plugin.sendNoise(noise, "noise", { whenhidden: true } as never)).toThrow(/NoiseSendOptions\.whenhidden is not an option/);
    expect(() => plugin.sendNoise(noise, Number.NaN)).toThrow(/SightlinePlugin\.sendNoise type/);
    expect(plugin.counters.noises.noises).toBe(0);

    // Culling off and no occluders or Hearing given: the noise has no level to travel through.
    const open = await colyseus.createRoom<BunkerRoom>("bunker", { cullingOff: true });
    const blue = await colyseus.connectTo(open, { team: "blue", x: 2, y: 10 });
    const deaf = open.plugins.sightline;
    expect(() => deaf.sendNoise({ ...noise, emitter: blue.sessionId }, "noise")).toThrow(/SightlineOptions\.hearing is needed for sendNoise/);
    expect(deaf.counters.noises.noises).toBe(0);
    // With culling off, a team is still checked as the culling checks it.
    expect(() => deaf.setTeam(blue.sessionId, "")).toThrow(/ViewCulling\.setTeam team/);
    await patches(open, 3);
    expect(open.exceptions).toEqual([]);
  });
});
