import { Client as SdkClient } from "@colyseus/sdk";
import { schema, t } from "@colyseus/schema";
import { defineRoom, defineServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fieldSlot, liveValues, SightlinePlugin } from "sightline/colyseus";
import { addSentry, BunkerRoom, Unit } from "../fixtures/bunkerRoom.js";
import { GuardState } from "../../shared/schema.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { FrameRecorder, LatencyProxy } from "sightline/testing";
import { seededRandom } from "../../shared/seededRandom.js";

// The `sightline/colyseus` plugin in a room of the test's own (tests/fixtures/bunkerRoom.ts: decorator
// schema, a bunker wall with a doorway at y = 18..22, no simulation), with real SDK clients over WebSocket.

/** Every frame each SDK client received, for the byte-level checks. */
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function patches(room: BunkerRoom, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await room.waitForNextPatch();
}

/** Waits (up to `patchesMax` patches) until `test` holds. */
async function until(room: BunkerRoom, test: () => boolean, patchesMax = 40): Promise<void> {
  for (let i = 0; i < patchesMax && !test(); i++) await room.waitForNextPatch();
}

describe("sightline/colyseus: culling in your own room", () => {
  it("an enemy behind the bunker wall is absent from the decoded state and the raw frames, and so is its shout; once in sight, both arrive", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { audit: true });
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const blue = await colyseus.connectTo(room, { team: "blue", x: 18, y: 10, secret: 4242 });
    const heard: string[] = [];
    red.onMessage("shout", (m: { words: string }) => heard.push(`red:${m.words}`));
    blue.onMessage("shout", (m: { words: string }) => heard.push(`blue:${m.words}`));
    await patches(room, 5);
    blue.send("shout", "psst-hidden");
    await patches(room, 5);

    const redUnits = (red.state as any).units;
    expect(redUnits.has(red.sessionId)).toBe(true);
    expect(redUnits.has(blue.sessionId)).toBe(false);
    expect(frames.received(red, blue.sessionId)).toBe(false);
    expect(frames.received(red, "psst-hidden")).toBe(false);
    expect(heard).toEqual(["blue:psst-hidden"]); // its own view holds it: the search is not blind
    expect(frames.received(blue, "psst-hidden")).toBe(true);

    // Both step in line with the doorway.
    red.send("goto", { x: 2, y: 20 });
    blue.send("goto", { x: 18, y: 20 });
    await until(room, () => redUnits.has(blue.sessionId));
    expect(redUnits.has(blue.sessionId)).toBe(true);
    expect(redUnits.get(blue.sessionId).secret).toBeUndefined(); // owner-only
    expect((blue.state as any).units.get(blue.sessionId).secret).toBe(4242);
    blue.send("shout", "hello-visible");
    await until(room, () => heard.includes("red:hello-visible"), 10);
    expect(heard).toContain("red:hello-visible");
    expect(room.plugins.sightline.counters.messages).toMatchObject({ withheld: 1 });

    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(room.exceptions).toEqual([]);
  });

  it("a message kept for catching up reaches a client whose view gains the shouter within the window, after the shouter arrives", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const blue = await colyseus.connectTo(room, { team: "blue", x: 18, y: 10 });
    await patches(room, 3);
    const arrivals: boolean[] = [];
    red.onMessage("shout", () => arrivals.push((red.state as any).units.has(blue.sessionId)));
    blue.send("shout", "dropped");
    blue.send("shout-lasting", "lasting");
    await patches(room, 3);
    expect(arrivals).toEqual([]);
    red.send("goto", { x: 2, y: 20 });
    blue.send("goto", { x: 18, y: 20 });
    await until(room, () => arrivals.length > 0);
    await patches(room, 3);
    expect(arrivals).toEqual([true]); // the lasting one only, and the shouter was already in red's state
    expect(room.plugins.sightline.counters.messages.caughtUp).toBe(1);
  });

  it("a reconnected client keeps its view, and its round trip is measured again on the new connection", async () => {
    const pingIntervalMs = 100; // the shortest allowed: ping rounds come without a second's wait
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { pingIntervalMs });
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 20, secret: 7 });
    const blue = await colyseus.connectTo(room, { team: "blue", x: 18, y: 20 });
    await until(room, () => (red.state as any).units.has(blue.sessionId));
    await until(room, () => room.plugins.sightline.counters.roundTrips.measured === 2);
    const viewBefore = room.clients.getById(red.sessionId)!.view;
    const socketBefore = room.clients.getById(red.sessionId)!.ref;

    red.reconnection.enabled = false;
    const token = red.reconnectionToken;
    red.connection.close(3000, "network gone");
    await sleep(150);
    const back = await colyseus.sdk.reconnect(token);
    await back.waitForNextPatch();
    const units = (back.state as any).units;
    await until(room, () => units.has(blue.sessionId), 10);
    expect(units.has(blue.sessionId)).toBe(true);
    expect(units.get(red.sessionId).secret).toBe(7);
    const client = room.clients.getById(red.sessionId)!;
    expect(client.view).toBe(viewBefore);
    expect(client.ref).not.toBe(socketBefore);
    expect(room.plugins.sightline.viewOf(red.sessionId).sort()).toEqual([blue.sessionId, red.sessionId].sort());
    // The next ping rounds watch the new socket.
    await sleep(3 * pingIntervalMs);
    expect(room.plugins.sightline.counters.roundTrips.measured).toBe(2);
    expect(room.exceptions).toEqual([]);
  });

  it("a team change moves the view to the new team: the old team's far sentry leaves, the new teammate behind the wall enters", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const a = await colyseus.connectTo(room, { team: "red", x: 2, y: 10 });
    const b = await colyseus.connectTo(room, { team: "blue", x: 18, y: 10 });
    addSentry(room, "red-post", 30, 35, "red");
    await patches(room, 3);
    const units = (a.state as any).units;
    expect(units.has("red-post")).toBe(true); // a teammate, out of sight
    expect(units.has(b.sessionId)).toBe(false);
    a.send("team", "blue");
    await until(room, () => units.has(b.sessionId) && !units.has("red-post"));
    expect(units.has(b.sessionId)).toBe(true);
    expect(units.has("red-post")).toBe(false);
    expect((b.state as any).units.has(a.sessionId)).toBe(true);
  });

  it("an entity declared teleported a step away leaves at once the views it no longer qualifies for; one walked there lingers", async () => {
    // No round trip widens the look-ahead: 8 m/s x 0.05 s = 0.4 m, so a view reaches 20 + 0.8 + 0.5 = 21.3 m.
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { roundTripCap: 0 });
    const red = await colyseus.connectTo(room, { team: "red", x: 0.5, y: 20 });
    // Both in line with the doorway, 21 m away: in view.
    const respawned = addSentry(room, "respawned", 21.5, 20);
    const walked = addSentry(room, "walked", 21.5, 20.2);
    await patches(room, 3);
    const plugin = room.plugins.sightline;
    expect(plugin.has(red.sessionId, "respawned")).toBe(true);
    expect(plugin.has(red.sessionId, "walked")).toBe(true);
    // 0.6 m each, short of the 0.8 m a move needs to be taken for a teleport by its length alone.
    respawned.x = 22.1;
    plugin.teleported("respawned");
    walked.x = 22.1;
    // The update that takes both moves: from it on, the walked one no longer qualifies.
    await until(room, () => !plugin.culling!.qualifies(red.sessionId, "walked"), 5);
    expect(plugin.culling!.qualifies(red.sessionId, "walked")).toBe(false);
    expect(plugin.has(red.sessionId, "walked")).toBe(true);
    expect(plugin.has(red.sessionId, "respawned")).toBe(false);
    expect(() => plugin.teleported("nobody")).toThrow(/SightlinePlugin.teleported id is not an entity/);
  });

  it("a fixed entity (a door) is placed once: moving its instance is not seen until it is declared teleported", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { roundTripCap: 0 });
    const red = await colyseus.connectTo(room, { team: "red", x: 0.5, y: 20 });
    const plugin = room.plugins.sightline;
    const post = addSentry(room, "post", 21.5, 20); // in line with the doorway: in view
    plugin.removeEntity("post");
    plugin.addEntity("post", post, { radius: 0.5, team: "neutral", fixed: true });
    await patches(room, 3);
    expect(plugin.has(red.sessionId, "post")).toBe(true);
    // Moved behind the wall, undeclared: the culling still has it at its old place.
    post.y = 35;
    await patches(room, 5);
    expect(plugin.culling!.qualifies(red.sessionId, "post")).toBe(true);
    plugin.teleported("post");
    await until(room, () => !plugin.has(red.sessionId, "post"), 5);
    expect(plugin.has(red.sessionId, "post")).toBe(false);
    expect(() => plugin.addEntity("bad", post, { fixed: "yes" as unknown as boolean })).toThrow(/EntitySpec\.fixed must be a boolean/);
  });

  it("owner-only fields of a character taken mid-session arrive at once, though they never change, and reach no one else", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const a = await colyseus.connectTo(room, { team: "red", x: 2, y: 10, secret: 11 });
    const mate = await colyseus.connectTo(room, { team: "red", x: 4, y: 10 });
    addSentry(room, "drone", 3, 3, "red", { character: true, secret: 777 });
    const units = (a.state as any).units;
    await until(room, () => units.has("drone"));
    await patches(room, 3);
    // Both clients hold the drone (a teammate) without its owner-only field; it never changes from here.
    expect(units.get("drone").secret).toBeUndefined();
    expect(units.get(a.sessionId).secret).toBe(11);
    a.send("possess", "drone");
    await until(room, () => units.get("drone").secret !== undefined, 10);
    expect(units.get("drone").secret).toBe(777);
    expect(units.get(a.sessionId).secret).toBeUndefined(); // the tag left the old character
    await patches(room, 2);
    expect((mate.state as any).units.get("drone").secret).toBeUndefined();
    expect(room.exceptions).toEqual([]);
  });

  it("audit: no leak, pop-in or miss over randomized movement with round trips of 0 to 120 ms", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", { audit: true });
    const random = seededRandom(17);
    const proxy = await LatencyProxy.start(colyseus.port, () => Math.floor(random() * 61));
    try {
      const sdk = new SdkClient(`http://127.0.0.1:${proxy.port}`);
      const clients: Awaited<ReturnType<SdkClient["joinById"]>>[] = [];
      for (let i = 0; i < 6; i++) {
        const team = i % 2 === 0 ? "red" : "blue";
        clients.push(await sdk.joinById(room.roomId, { team, x: team === "red" ? 2 + i : 38 - i, y: 5 + 5 * i }));
      }
      const headings = clients.map(() => ({ dx: random() * 2 - 1, dy: random() * 2 - 1 }));
      const walk = setInterval(() => {
        clients.forEach((c, i) => {
          if (random() < 0.2) headings[i] = { dx: random() * 2 - 1, dy: random() * 2 - 1 };
          c.send("walk", headings[i]);
        });
      }, 50);
      await sleep(6000);
      clearInterval(walk);
      const counters = room.plugins.sightline.counters;
      const audit = room.plugins.sightline.audit!;
      expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
      expect(audit.counts.clientTicks - audit.counts.excused).toBeGreaterThan(6 * 80);
      expect(counters.adds + counters.removes).toBeGreaterThan(6); // the views did move
      expect(counters.roundTrips.measured).toBe(6);
      expect(counters.roundTrips.max).toBeGreaterThan(20);
      expect(room.exceptions).toEqual([]);
      await Promise.all(clients.map((c) => c.leave()));
    } finally {
      await proxy.close();
    }
  });

  it("a position that is not a number is reported through onUncaughtException, naming the entity, and the rest keep updating", async () => {
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const red = await colyseus.connectTo(room, { team: "red", x: 2, y: 20 });
    const blue = await colyseus.connectTo(room, { team: "blue", x: 30, y: 35 });
    await patches(room, 2);
    room.state.units.get(blue.sessionId)!.x = NaN;
    room.state.units.get(red.sessionId)!.y = 21;
    await patches(room, 2);
    expect(room.exceptions.length).toBeGreaterThan(0);
    expect(room.exceptions[0]!.message).toContain(`entity "${blue.sessionId}" position`);
    expect(room.plugins.sightline.counters.badPositions).toBeGreaterThan(0);
    expect(room.plugins.sightline.culling!.lookaheadOf(red.sessionId)).toBeGreaterThan(0);
  });

  it("misuse fails loudly with a RangeError naming the field", async () => {
    expect(() => new SightlinePlugin({ ownerTag: 0 })).toThrow(/SightlineOptions.ownerTag/);
    expect(() => new SightlinePlugin({ update: "sometimes" as never })).toThrow(/SightlineOptions.update/);
    const room = await colyseus.createRoom<BunkerRoom>("bunker", {});
    const red = await colyseus.connectTo(room, { team: "red" });
    const plugin = room.plugins.sightline;
    expect(() => plugin.addEntity(red.sessionId, room.state.units.get(red.sessionId)!)).toThrow(/SightlinePlugin.addEntity id is already an entity/);
    expect(() => plugin.sendToViewersOf("nobody", "shout")).toThrow(/SightlinePlugin.sendToViewersOf about is not an entity/);
    expect(() => plugin.sendToViewersOf(red.sessionId, "shout", {}, { catchUpSeconds: -1 })).toThrow(/CulledSendOptions.catchUpSeconds/);
    expect(() => plugin.removeEntity(red.sessionId)).toThrow(/is the character of client/);
    expect(() => plugin.start({})).toThrow(/already called/);
    expect(plugin.counters.entities).toBe(1);
  });
});

// Entities no client's view holds stop recording schema changes (`pauseUnheld`).
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

  it("a field the class does not have, or no schema class or instance at all, is a RangeError naming it; builder and decorator classes alike have slots", () => {
    expect(() => fieldSlot(Unit, "z")).toThrow(RangeError);
    expect(() => fieldSlot(Unit, "z")).toThrow(/fieldSlot field is not a schema field of Unit \(got "z"\)/);
    expect(() => fieldSlot(Unit, "constructor")).toThrow(/fieldSlot field is not a schema field of Unit/);
    expect(() => fieldSlot(undefined as never, "x")).toThrow(/fieldSlot klass must be a schema class/);
    expect(() => liveValues({ x: 1 } as never)).toThrow(/liveValues instance must be a schema instance \(got an object\)/);
    expect(fieldSlot(Unit, "y")).not.toBe(fieldSlot(Unit, "x"));
    // A class extending a schema class has its parent's fields too.
    const Shade = schema({ x: t.number() }, "Shade").extend({ depth: t.number() }, "DeepShade");
    const shade = new Shade();
    liveValues(shade)[fieldSlot(Shade, "x")] = 2;
    liveValues(shade)[fieldSlot(Shade, "depth")] = 3;
    expect([shade.x, shade.depth]).toEqual([2, 3]);
    const guard = new GuardState();
    liveValues(guard)[fieldSlot(GuardState, "facing")] = 1.5;
    expect(guard.facing).toBe(1.5);
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
