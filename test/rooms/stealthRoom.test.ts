import type { ColyseusTestServer } from "@colyseus/testing";
import fc from "fast-check";
import { Vec2 } from "planck";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import { MAPS_DIR, MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";
import { StepPhases } from "../../server/loop/stepPhases.js";

// One server for the file, on 127.0.0.1 at a port of its own.
let colyseus: ColyseusTestServer;
const catalog = new MapCatalog().load(MAPS_DIR).add(arenaMap()).add({ ...arenaMap({ window: true }), name: "arena-window" });

beforeAll(async () => {
  colyseus = await bootLoopback(createStealthServer({ room: { catalog, reconnectSeconds: 1 } }));
});
afterAll(async () => {
  await colyseus.shutdown();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
interface Listens {
  onMessage(type: string, callback: (payload: any) => void): () => void;
  onLeave(callback: (code: number) => void): unknown;
}

/** Resolves with the next message of `type` the client gets (or rejects after `ms`). */
function nextMessage(client: Listens, type: string, ms = 3000): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${type}" message within ${ms} ms`)), ms);
    const off = client.onMessage(type, (payload: unknown) => {
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Resolves with the close code once the client is disconnected. */
function closed(client: Listens, ms = 3000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    client.onLeave((code: number) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The client's next patch carries a later tick: its room is still running for it. */
async function expectStillTicking(client: { state: unknown; waitForNextPatch(): Promise<unknown> }): Promise<void> {
  const tick = (client.state as { tick: number }).tick;
  await client.waitForNextPatch();
  expect((client.state as { tick: number }).tick).toBeGreaterThan(tick);
}

describe("the stealth room", () => {
  it("a player joins the demo map and receives the map name, the tick, itself, and only the guards and cameras it could see", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", {});
    const client = await colyseus.connectTo(room, { spawn: "B" });
    await room.waitForNextPatch();
    await client.waitForNextPatch();
    const state = client.state as any;
    expect(state.map).toBe("demo");
    const tick = state.tick;
    await ticks(room, 3);
    await client.waitForNextPatch();
    expect(state.tick).toBeGreaterThan(tick);
    const me = state.players.get(client.sessionId);
    expect(me.x).toBeCloseTo(6, 1);
    expect(me.y).toBeCloseTo(27, 1);
    expect(me.team).toBe("infiltrators");
    expect(me.meters.size).toBe(0);
    // Exactly what the server's culling let through: some guards and cameras, not all of them.
    await ticks(room, 1);
    await client.waitForNextPatch();
    const expectedGuards = [...room.state.guards.keys()].filter((id) => room.culling.has(client.sessionId, id)).sort();
    const expectedCameras = [...room.state.cameras.keys()].filter((id) => room.culling.has(client.sessionId, id)).sort();
    expect([...state.guards.keys()].sort()).toEqual(expectedGuards);
    expect([...state.cameras.keys()].sort()).toEqual(expectedCameras);
    // The spawn room is walled in: none of the 6 guards and 2 cameras could be seen from it.
    expect(expectedGuards.length + expectedCameras.length).toBeLessThan(8);
    for (const id of expectedGuards) expect(state.guards.get(id).alert).toBe("idle");
  });

  it("input moves the character at the server's speed and is acknowledged", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await client.waitForNextPatch();
    const input = client.input({ mode: "reliable" }) as any;
    for (let seq = 1; seq <= 20; seq++) {
      input.data.seq = seq;
      input.data.moveX = 0;
      input.data.moveY = 5; // clamped to the unit disc: walking speed, no faster
      input.data.facing = Math.PI / 2;
      input.send();
      await room.afterNextLoop();
    }
    await ticks(room, 8); // the last frames are consumed, then the hold runs out
    await client.waitForNextPatch();
    const me = (client.state as any).players.get(client.sessionId);
    expect(me.ack).toBe(20);
    const moved = me.y - 5;
    expect(moved).toBeGreaterThan(2.5); // 20 steps of 0.05 s at 3 m/s = 3 m, plus the short hold
    expect(moved).toBeLessThan(3 + 5 * 0.15 + 0.01);
    expect(me.facing).toBeCloseTo(Math.PI / 2, 5);
    expect(room.stats.inputsApplied).toBe(20);
  });

  it("a NaN or Infinity input frame is dropped, counted and explained, and the character stops", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    const other = await colyseus.connectTo(room, { spawn: "far" });
    await client.waitForNextPatch();
    const input = client.input({ mode: "reliable" }) as any;
    input.data.seq = 1;
    input.data.moveY = 1;
    input.send();
    await ticks(room, 2);
    const error = nextMessage(client, "error");
    input.data.seq = 2;
    input.data.moveY = Number.NaN;
    input.send();
    expect(await error).toMatchObject({ code: "input.nonfinite" });
    input.data.seq = 3;
    input.data.moveY = 0;
    input.data.facing = Number.POSITIVE_INFINITY;
    input.send();
    await ticks(room, 3);
    expect(room.stats.inputsNonFinite).toBe(2);
    const body = room.sim.players.get(client.sessionId)!.body;
    expect(Number.isFinite(body.getPosition().x) && Number.isFinite(body.getPosition().y)).toBe(true);
    expect(body.getLinearVelocity().length()).toBe(0);
    // Nobody else noticed anything.
    await expectStillTicking(other);
  });

  it("unknown and invalid messages get an error message, are counted, and the client stays", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await client.waitForNextPatch();
    let error = nextMessage(client, "error");
    client.send("teleport" as never, { x: 1 } as never);
    expect(await error).toMatchObject({ code: "message.unknown", message: expect.stringContaining("teleport") });
    error = nextMessage(client, "error");
    client.send("respawn" as never, { spawn: 42 } as never);
    expect(await error).toMatchObject({ code: "message.invalid", message: expect.stringContaining("spawn") });
    error = nextMessage(client, "error");
    client.send("respawn" as never, { spawn: "nowhere" } as never);
    expect(await error).toMatchObject({ code: "message.refused", message: expect.stringContaining('"front"') });
    expect(room.stats.messagesUnknown).toBe(1);
    expect(room.stats.messagesInvalid).toBe(1);
    // A valid respawn does its job.
    client.send("respawn" as never, { spawn: "far" } as never);
    await ticks(room, 2);
    await client.waitForNextPatch();
    expect((client.state as any).players.get(client.sessionId).x).toBeCloseTo(17, 1);
    expect(room.clients.length).toBe(1);
  });

  it("a garbage frame is dropped and counted; the client keeps receiving patches", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await client.waitForNextPatch();
    client.connection.send(new Uint8Array([0x1f, 1, 2, 3, 250]));
    client.connection.send(new Uint8Array([0x03]));
    await ticks(room, 2);
    expect(room.stats.framesGarbage).toBe(2);
    await expectStillTicking(client);
    expect(room.clients.length).toBe(1);
  });

  it("a flood is disconnected with 4002 and counted, and the other players keep ticking", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const flooder = await colyseus.connectTo(room, { spawn: "behind" });
    const bystander = await colyseus.connectTo(room, { spawn: "far" });
    await flooder.waitForNextPatch();
    const code = closed(flooder);
    for (let i = 0; i < 100; i++) flooder.connection.send(new Uint8Array([18])); // pings
    expect(await code).toBe(4002);
    await ticks(room, 2);
    expect(room.stats.floodDisconnects).toBe(1);
    expect(room.stats.errorDisconnects).toBe(1);
    // Kicked, not dropped: its seat is not held for a reconnection.
    expect(room.state.players.has(flooder.sessionId)).toBe(false);
    await expectStillTicking(bystander);
  });

  it("an oversized frame closes the socket with 1009 and is counted", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await colyseus.connectTo(room, { spawn: "far" }); // keeps the room alive
    await client.waitForNextPatch();
    const code = closed(client);
    client.send("respawn" as never, { spawn: "x".repeat(10_000) } as never);
    expect(await code).toBe(1009);
    await ticks(room, 2);
    expect(room.stats.oversizedDisconnects).toBe(1);
    expect(room.state.players.has(client.sessionId)).toBe(false); // no seat held for it
  });

  it("bad join and create options are refused with a clear error", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    await colyseus.connectTo(room, { spawn: "far" }); // keeps the room alive between refusals
    await expect(colyseus.connectTo(room, { team: "no spaces allowed" })).rejects.toThrow(/team/);
    await expect(colyseus.connectTo(room, { spawn: "nowhere" })).rejects.toThrow(/unknown spawn "nowhere".*"front"/);
    await expect(colyseus.createRoom("stealth", { map: "atlantis" })).rejects.toThrow(/unknown map "atlantis".*arena.*demo/);
    await expect(colyseus.createRoom("stealth", { map: "../etc/passwd" })).rejects.toThrow(/map name/);
    expect(room.state.players.size).toBe(1);
    expect(room.stats.joinsRefused).toBe(2);
    expect(room.stats.exceptions).toBe(0);
    expect(room.stats.errorDisconnects).toBe(0);
  });

  it("detection meters and events reach the player they are about, and nobody else", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const target = await colyseus.connectTo(room, { spawn: "front" });
    const other = await colyseus.connectTo(room, { spawn: "cover" });
    await ticks(room, 12);
    await target.waitForNextPatch();
    await other.waitForNextPatch();
    const mine = (target.state as any).players.get(target.sessionId);
    const meter = mine.meters.get("guard:Watcher");
    expect(meter.level).toBeGreaterThan(0);
    expect(["idle", "suspicious", "alerted"]).toContain(meter.state);
    expect(mine.events.length).toBeGreaterThan(0);
    expect(mine.events[0]).toMatchObject({ type: "noticed", observer: "guard:Watcher" });
    // The other player sees the target's character (for now everyone sees everyone), not its meters.
    const seenByOther = (other.state as any).players.get(target.sessionId);
    expect(seenByOther).toBeDefined();
    expect(seenByOther.meters).toBeUndefined();
    expect(seenByOther.events).toBeUndefined();
    expect(seenByOther.ack).toBeUndefined();
    expect((other.state as any).players.get(other.sessionId).meters.size).toBe(0);
  });

  it("reaching the exit sends a round message and counts an escape", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "door" });
    await client.waitForNextPatch();
    const round = nextMessage(client, "round");
    room.sim.players.get(client.sessionId)!.body.setPosition(Vec2(18, 2));
    expect(await round).toEqual({ type: "escaped" });
    await client.waitForNextPatch();
    expect((client.state as any).players.get(client.sessionId).escapes).toBe(1);
    expect(room.stats.escapes).toBe(1);
  });

  it("an exception inside a tick is caught and counted; the room keeps ticking", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "behind" });
    await client.waitForNextPatch();
    const step = room.sim.step.bind(room.sim);
    let thrown = 0;
    room.sim.step = () => {
      if (thrown++ === 0) throw new Error("a bug in a tick");
      return step();
    };
    const logged = console.error;
    console.error = () => {};
    try {
      await ticks(room, 4);
    } finally {
      console.error = logged;
    }
    expect(room.stats.exceptions).toBe(1);
    await expectStillTicking(client);
  });

  it("two rooms in one process tick at different phases of the step, each patch right after its step", async () => {
    const a = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const b = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    await colyseus.connectTo(a, { spawn: "behind" });
    await colyseus.connectTo(b, { spawn: "behind" });
    await ticks(a, 3);
    await ticks(b, 3);
    const rooms = StepPhases.shared.count(50);
    expect(rooms).toBeGreaterThanOrEqual(2);
    // Slot i of n sits at i * 50 / n ms: two live rooms are at least one slot apart.
    expect(Math.abs(a.stats.stepPhaseMs - b.stats.stepPhaseMs)).toBeGreaterThanOrEqual(50 / rooms - 1e-9);
    // One patch per firing, after its steps (more than one step only when the loop was late).
    expect(a.stats.patches).toBeGreaterThanOrEqual(3);
    expect(a.stats.patches).toBeLessThanOrEqual(a.stats.ticks);
  });

  it("a dropped player may reconnect within the window and keeps its character; after it, the character is gone", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const client = await colyseus.connectTo(room, { spawn: "far" });
    await client.waitForNextPatch();
    client.reconnection.enabled = false;
    const token = client.reconnectionToken;
    const sessionId = client.sessionId;
    client.connection.close(3000, "network gone");
    await sleep(200);
    expect(room.state.players.has(sessionId)).toBe(true); // held for the window
    const back = await colyseus.sdk.reconnect(token);
    expect(back.sessionId).toBe(sessionId);
    await back.waitForNextPatch();
    const me = (back.state as any).players.get(sessionId);
    expect(me.x).toBeCloseTo(17, 1);
    expect(me.meters).toBeDefined(); // its own view (with the owner tag) came back with it

    back.reconnection.enabled = false;
    const closedAt = performance.now();
    back.connection.close(3000, "gone for good");
    // The window is 1 s in this file, timed by Colyseus from when the server saw the drop.
    while (room.state.players.has(sessionId) && performance.now() - closedAt < 1600) await room.afterNextLoop();
    expect(room.state.players.has(sessionId)).toBe(false);
    expect(performance.now() - closedAt).toBeGreaterThanOrEqual(1000 - 2); // held the whole window (Node timers may fire a hair early)
    expect(room.sim.players.has(sessionId)).toBe(false);
  });

  it("a guard on patrol spots a player walking into its cone, and the player receives spotted through schema", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", {});
    const client = await colyseus.connectTo(room, { spawn: "C" });
    await client.waitForNextPatch();
    const state = client.state as any;
    const input = client.input({ mode: "reliable" }) as any;
    let seq = 0;
    // Round the wall below spawn C, then head for a spot 4 m ahead of guard Ed as it walks its route.
    let roundedWall = false;
    const steer = setInterval(() => {
      const me = state.players.get(client.sessionId);
      // The server's copy: the client receives Ed only once it could see it.
      const ed = room.state.guards.get("guard:Ed");
      if (me === undefined || ed === undefined) return;
      if (!roundedWall && Math.hypot(me.x - 13, me.y - 27.5) < 0.5) roundedWall = true;
      const goal = roundedWall ? { x: ed.x + 4 * Math.cos(ed.facing), y: ed.y + 4 * Math.sin(ed.facing) } : { x: 13, y: 27.5 };
      const dx = goal.x - me.x;
      const dy = goal.y - me.y;
      const d = Math.hypot(dx, dy) || 1;
      input.data.seq = ++seq;
      input.data.moveX = dx / d;
      input.data.moveY = dy / d;
      input.data.facing = Math.atan2(dy, dx);
      input.send();
    }, 50);
    try {
      const deadline = Date.now() + 15_000;
      let spotted: any;
      while (spotted === undefined && Date.now() < deadline) {
        await client.waitForNextPatch();
        spotted = [...state.players.get(client.sessionId).events].find((e: any) => e.type === "spotted" && e.observer === "guard:Ed");
      }
      expect(spotted).toBeDefined();
      const types = [...state.players.get(client.sessionId).events].filter((e: any) => e.observer === "guard:Ed").map((e: any) => e.type);
      expect(types.slice(0, 3)).toEqual(["noticed", "suspicious", "spotted"]);
      expect(state.guards.get("guard:Ed").alert).toBe("alerted");
    } finally {
      clearInterval(steer);
    }
  });

  it("glass lets a camera see; a wall inside its cone hides", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena-window" });
    const behindGlass = await colyseus.connectTo(room, { spawn: "door" });
    const behindWall = await colyseus.connectTo(room, { spawn: "alcove" });
    await ticks(room, 20);
    await behindGlass.waitForNextPatch();
    await behindWall.waitForNextPatch();
    const seen = (behindGlass.state as any).players.get(behindGlass.sessionId);
    expect(seen.meters.get("camera:Lens")?.level).toBeGreaterThan(0);
    expect([...seen.events].map((e: any) => `${e.type} ${e.observer}`)).toContain("noticed camera:Lens");
    const hidden = (behindWall.state as any).players.get(behindWall.sessionId);
    expect(hidden.meters.size).toBe(0);
    expect(hidden.events.length).toBe(0);
    expect(room.sim.vision.canSee("camera:Lens", behindWall.sessionId)).toBe(false);
  });

  it("survives fuzzed messages, inputs and raw frames: no exception, nothing non-finite, the others keep ticking", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    const bystander = await colyseus.connectTo(room, { spawn: "far" });
    await bystander.waitForNextPatch();
    const action = fc.oneof(
      fc.record({ kind: fc.constant("message" as const), type: fc.oneof(fc.constant("respawn"), fc.string({ maxLength: 12 })), payload: fc.anything({ maxDepth: 3 }) }),
      fc.record({ kind: fc.constant("input" as const), moveX: fc.double(), moveY: fc.double(), facing: fc.double(), crouch: fc.boolean(), seq: fc.nat() }),
      fc.record({ kind: fc.constant("raw" as const), bytes: fc.uint8Array({ maxLength: 48 }) }),
    );
    const actions = fc.sample(fc.array(action, { minLength: 150, maxLength: 150 }), { numRuns: 1, seed: 2026 })[0]!;
    let fuzzer: any;
    let gone = true;
    let reconnects = 0;
    const tickBefore = (bystander.state as any).tick;
    for (const a of actions) {
      if (gone) {
        fuzzer = await colyseus.connectTo(room, { spawn: "behind" });
        fuzzer.onLeave(() => (gone = true));
        gone = false;
        reconnects++;
      }
      try {
        if (a.kind === "message") fuzzer.send(a.type, a.payload);
        else if (a.kind === "raw") fuzzer.connection.send(a.bytes);
        else {
          const input = fuzzer.input({ mode: "reliable" });
          Object.assign(input.data, { seq: a.seq, moveX: a.moveX, moveY: a.moveY, facing: a.facing, crouch: a.crouch });
          input.send();
        }
      } catch {
        // The SDK refusing to encode something is the client's business, not the server's.
      }
      await sleep(25);
      for (const p of room.sim.players.values()) {
        const at = p.body.getPosition();
        const v = p.body.getLinearVelocity();
        expect(Number.isFinite(at.x) && Number.isFinite(at.y)).toBe(true);
        expect(v.length()).toBeLessThanOrEqual(room.sim.movement.walkSpeed + 1e-6);
      }
    }
    await bystander.waitForNextPatch();
    expect((bystander.state as any).tick).toBeGreaterThan(tickBefore + 60);
    expect(room.stats.exceptions).toBe(0);
    expect(room.stats.rejections).toBeGreaterThan(0);
    expect(reconnects).toBeGreaterThanOrEqual(1);
    expect(room.clients.some((c) => c.sessionId === bystander.sessionId)).toBe(true);
  });
});
