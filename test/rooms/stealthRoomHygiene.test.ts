import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { closed, expectStillTicking, nextMessage, sleep } from "../fixtures/roomClients.js";
import { ticks } from "../fixtures/roomTicks.js";
import { stealthServerPerFile } from "../fixtures/stealthTestServer.js";

// One server for the file, on 127.0.0.1 at a port of its own.
const colyseus = stealthServerPerFile();

describe("the stealth room refuses bad input and keeps ticking", () => {
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
