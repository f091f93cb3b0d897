import { Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { expectStillTicking, nextMessage, sleep } from "../fixtures/roomClients.js";
import { ticks } from "../fixtures/roomTicks.js";
import { stealthServerPerFile } from "../fixtures/stealthTestServer.js";
import { StepPhases } from "../../server/loop/stepPhases.js";

// One server for the file, on 127.0.0.1 at a port of its own.
const colyseus = stealthServerPerFile();

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
      const events = [...state.players.get(client.sessionId).events];
      const types = events.filter((e: any) => e.observer === "guard:Ed").map((e: any) => e.type);
      expect(types.slice(types.indexOf("suspicious"), types.indexOf("suspicious") + 2)).toEqual(["suspicious", "spotted"]);
      // Noticed first: by sight, or by the player's footsteps before Ed was in its view (then unnamed).
      const all = events.map((e: any) => e.type);
      expect(all.indexOf("noticed")).toBeGreaterThanOrEqual(0);
      expect(all.indexOf("noticed")).toBeLessThan(all.indexOf("spotted"));
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
});
