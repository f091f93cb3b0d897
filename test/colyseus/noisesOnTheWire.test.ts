import type { Room } from "@colyseus/sdk";
import { describe, expect, it } from "vitest";
import type { HeardNoiseMessage } from "sightline/colyseus";
import { encoded } from "sightline/testing";
import type { FieldRoom } from "../fixtures/fieldRoom.js";
import { fieldServer, untilPatch } from "../fixtures/fieldServer.js";

/**
 * Noises through the plugin, checked on the bytes real SDK clients receive: a client hears what its team
 * could hear through the level, and learns the emitter's id only when its view holds the emitter.
 */
const server = fieldServer();

/** Collects the `noise` messages a client receives (each an array of what it heard in one patch). */
function earOf(client: Room): HeardNoiseMessage[] {
  const heard: HeardNoiseMessage[] = [];
  client.onMessage("noise", (list: HeardNoiseMessage[]) => heard.push(...list));
  return heard;
}

async function patches(room: FieldRoom, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await room.waitForNextPatch();
}

describe("noises on the wire", () => {
  it("a footstep behind a thick wall is not received, not even its kind", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { audit: true });
    const me = await server.colyseus.connectTo(room, { team: "red", x: 5, y: 10 });
    const enemy = await server.colyseus.connectTo(room, { team: "blue", x: 15, y: 10 });
    const heard = earOf(me);
    await patches(room, 3);
    // 10 m apart in a straight line, and loud enough for 20; but the wall runs the field's whole length,
    // and the way around its end (y = 0) is 23.5 m.
    enemy.send("noise", { loudness: 20, kind: "stomp-behind-wall" });
    await patches(room, 4);
    expect(heard).toEqual([]);
    server.frames.assertNeverReceived(me, "stomp-behind-wall", "the noise's kind");
    server.frames.assertNeverReceived(me, enemy.sessionId, "the emitter's id");
    expect(room.plugins.sightline.counters.noises).toMatchObject({ noises: 1, delivered: 0 });
  });

  it("one heard through an open doorway arrives without the emitter's id, from the doorway's way", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { doorway: true, audit: true });
    const me = await server.colyseus.connectTo(room, { team: "red", x: 5, y: 10 });
    const enemy = await server.colyseus.connectTo(room, { team: "blue", x: 15, y: 10 });
    const caster = await server.colyseus.connectTo(room, { all: true });
    const heard = earOf(me);
    const truth = earOf(caster);
    await patches(room, 3);
    expect(room.plugins.sightline.has(me.sessionId, enemy.sessionId)).toBe(false);
    // About 19.9 m around through the doorway (y = 18..22), 10 m straight through the wall.
    enemy.send("noise", { loudness: 25, kind: "footstep-through-doorway" });
    expect(await untilPatch(room, () => heard.length > 0, 10)).toBe(true);
    const m = heard[0]!;
    expect(m).toMatchObject({ kind: "footstep-through-doorway", listener: me.sessionId });
    expect(m.emitter).toBeUndefined();
    expect(m.x).toBeUndefined();
    // Louder than nothing, quieter than the straight line would make it (1 - 10 / 25 = 0.6).
    expect(m.level).toBeGreaterThan(0);
    expect(m.level).toBeLessThanOrEqual(0.25);
    // From the doorway, north-east of the listener, not from the emitter due east.
    expect(m.dir).toBeGreaterThan(0.7);
    expect(m.dir).toBeLessThan(1.4);
    server.frames.assertReceived(me, "footstep-through-doorway", "the noise's kind"); // the search is not blind
    server.frames.assertNeverReceived(me, enemy.sessionId, "the emitter's id");
    expect(truth.find((t) => t.kind === "footstep-through-doorway")).toMatchObject({ emitter: enemy.sessionId, x: 15, y: 10 });
    const audit = room.plugins.sightline.audit!.counts;
    expect(audit.soundsAudited).toBeGreaterThan(0);
    expect(audit.soundLeaks).toBe(0);
  });

  it("a teammate's ear hears for the team, and an emitter in view is named with its spot", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { doorway: true, audit: true });
    const me = await server.colyseus.connectTo(room, { team: "red", x: 2, y: 2 });
    const mate = await server.colyseus.connectTo(room, { team: "red", x: 14, y: 30 });
    const enemy = await server.colyseus.connectTo(room, { team: "blue", x: 16, y: 30 });
    const heard = earOf(me);
    expect(await untilPatch(room, () => room.plugins.sightline.has(me.sessionId, enemy.sessionId), 10)).toBe(true);
    enemy.send("noise", { loudness: 6, kind: "cough" });
    expect(await untilPatch(room, () => heard.length > 0, 10)).toBe(true);
    // Far beyond earshot of me, 2 m from my teammate, whose sight puts the enemy in my view.
    expect(heard[0]).toMatchObject({ kind: "cough", listener: mate.sessionId, emitter: enemy.sessionId, x: 16, y: 30 });
    expect(heard[0]!.level).toBeCloseTo(1 - 2 / 6, 0);
    expect(room.plugins.sightline.audit!.counts.soundLeaks).toBe(0);
  });

  it("a stone an enemy in view throws arrives without its landing spot or the thrower's id", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { doorway: true, audit: true });
    const me = await server.colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const enemy = await server.colyseus.connectTo(room, { team: "blue", x: 6, y: 10 });
    const heard = earOf(me);
    expect(await untilPatch(room, () => room.plugins.sightline.has(me.sessionId, enemy.sessionId), 10)).toBe(true);
    // The stone lands 7.37 m north-west of the thrower, round the corner of the wall from me.
    enemy.send("noise", { loudness: 20, kind: "stone", dx: 2.371, dy: 7.093 });
    expect(await untilPatch(room, () => heard.length > 0, 10)).toBe(true);
    expect(room.plugins.sightline.has(me.sessionId, enemy.sessionId)).toBe(true);
    server.frames.assertNeverReceived(me, encoded(6 + 2.371, "message"), "the landing's x");
    server.frames.assertNeverReceived(me, encoded(10 + 7.093, "message"), "the landing's y");
    const m = heard[0]!;
    expect(m).toMatchObject({ kind: "stone", listener: me.sessionId });
    expect(m.emitter).toBeUndefined();
    expect(m.x).toBeUndefined();
    expect(m.y).toBeUndefined();
    // A shout where the thrower stands still comes with its spot: the view holds it there anyway.
    enemy.send("noise", { loudness: 20, kind: "shout" });
    expect(await untilPatch(room, () => heard.some((h) => h.kind === "shout"), 10)).toBe(true);
    expect(heard.find((h) => h.kind === "shout")).toMatchObject({ emitter: enemy.sessionId, x: 6, y: 10 });
    expect(room.plugins.sightline.audit!.counts.soundLeaks).toBe(0);
  });

  it("a noise is news to the other teams: the emitter's own team gets it only when asked", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    const me = await server.colyseus.connectTo(room, { team: "red", x: 5, y: 10 });
    const mate = await server.colyseus.connectTo(room, { team: "red", x: 7, y: 10 });
    const heard = earOf(me);
    await patches(room, 3);
    mate.send("noise", { loudness: 10, kind: "own-team-step" });
    await patches(room, 4);
    expect(heard).toEqual([]);
    mate.send("noise", { loudness: 10, kind: "own-team-call", toTeam: true });
    expect(await untilPatch(room, () => heard.length > 0, 10)).toBe(true);
    expect(heard[0]).toMatchObject({ kind: "own-team-call", listener: me.sessionId, emitter: mate.sessionId });
  });

  it("a malformed noise is refused with a RangeError naming the field, and nothing is sent", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    await server.colyseus.connectTo(room, { team: "red", x: 5, y: 10 });
    const plugin = room.plugins.sightline;
    expect(() => plugin.sendNoise({ x: 1, y: 1, loudness: Number.NaN, kind: "k", emitter: "x" }, "noise")).toThrow(/Noise\.loudness/);
    expect(() => plugin.sendNoise({ x: 1, y: 1, loudness: 5, kind: "k", emitter: "nobody" }, "noise")).toThrow(/Noise\.emitter.*not an entity/);
    expect(plugin.counters.noises.noises).toBe(0);
  });
});
