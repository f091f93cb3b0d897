import { matchMaker } from "@colyseus/core";
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStealthServer } from "../../server/app.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";

// Room creation through the real matchmaking route, from real loopback addresses (127.0.0.1, and 127.0.0.2
// or .3 for "another client"): the per-address rate at its default, the process cap lowered to keep the
// test short.
const MAX_ROOMS = 16;
let colyseus: LoopbackServer;

beforeAll(async () => {
  colyseus = await bootLoopback(createStealthServer({ maxRooms: MAX_ROOMS }));
});
afterAll(async () => {
  await colyseus.shutdown();
});
beforeEach(async () => {
  await colyseus.cleanup();
});

interface Answer {
  status: number;
  body: any;
  ms: number;
}

/** A raw `POST /matchmake/<method>/stealth` from `localAddress`, as any script could send it. */
function matchmake(method: string, body: string, localAddress = "127.0.0.1"): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${colyseus.port}/matchmake/${method}/stealth`, { method: "POST", localAddress, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, body: parsed, ms: performance.now() - started });
      });
    });
    req.setTimeout(2000, () => req.destroy(new Error("no answer within 2 s")));
    req.on("error", reject);
    req.end(body);
  });
}

async function stealthRooms(): Promise<number> {
  return (await matchMaker.query({ name: "stealth" })).length;
}

/** Records the gaps between the patches a client receives. */
function patchGaps(client: { onStateChange(cb: () => void): unknown }): { worstMs: () => number; count: () => number } {
  let last = performance.now();
  let worst = 0;
  let count = 0;
  client.onStateChange(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    count++;
  });
  return { worstMs: () => Math.max(worst, performance.now() - last), count: () => count };
}

describe("room creation limits", () => {
  it("hammering creates from one address is refused after its 10 per minute, promptly, while a playing client keeps receiving patches; another address may still create", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", {});
    const player = await colyseus.connectTo(room, { spawn: "A" });
    await player.waitForNextPatch();
    const gaps = patchGaps(player);
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) answers.push(await matchmake("create", "{}"));
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const refused of answers.slice(10)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: 429, error: "too many rooms created from your address (at most 10 per minute); join an existing room or try again later" });
    }
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1000);
    // Non-object bodies are held to the same budget (they build a room too).
    for (const body of ['"a string"', "42", "[]", "true"]) {
      const answer = await matchmake("create", body);
      expect(answer.status, body).toBe(429);
      expect(answer.ms).toBeLessThan(1000);
    }
    expect(await stealthRooms()).toBe(11);
    // The player was never starved: patches kept coming throughout (and still do).
    await player.waitForNextPatch();
    expect(gaps.count()).toBeGreaterThan(0);
    expect(gaps.worstMs()).toBeLessThan(400);
    expect(room.stats.exceptions).toBe(0);
    expect(room.clients.length).toBe(1);

    // Another client is not held back by this one.
    const other = await matchmake("create", "{}", "127.0.0.2");
    expect(other.status).toBe(200);
    expect(await stealthRooms()).toBe(12);
    // An SDK client sees the status and the reason.
    await expect(colyseus.sdk.create("stealth", {})).rejects.toMatchObject({ name: "MatchMakeError", code: 429, message: expect.stringMatching(/at most 10 per minute/) });
    const stats = (await (await fetch(`http://127.0.0.1:${colyseus.port}/stats`)).json()) as { creates: Record<string, number> };
    expect(stats.creates).toMatchObject({ rooms: 12, maxRooms: MAX_ROOMS, createsPerAddressPerMinute: 10, trackedAddresses: 2, refusedRoomCap: 0, refusedAddressRate: 25 });
  });

  it("beyond the process's room cap a create is refused with 503 from any address, joins still work, and a disposed room frees a place", async () => {
    const rooms: StealthRoom[] = [];
    for (let i = 0; i < MAX_ROOMS; i++) rooms.push(await colyseus.createRoom<StealthRoom>("stealth", { map: "demo" }));
    const refused = await matchmake("create", "{}", "127.0.0.3");
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe(`this server holds its maximum of ${MAX_ROOMS} rooms; join an existing room or try again later`);
    expect(refused.ms).toBeLessThan(1000);
    await expect(colyseus.createRoom("stealth", {})).rejects.toMatchObject({ code: 503 });
    expect(await stealthRooms()).toBe(MAX_ROOMS);
    // Joining is not creating: a player still gets into an existing room.
    const player = await colyseus.sdk.joinOrCreate("stealth", { spawn: "A" });
    expect(rooms.some((r) => r.roomId === player.roomId)).toBe(true);
    await player.leave();
    await rooms[0]!.disconnect();
    expect((await matchmake("create", "{}", "127.0.0.3")).status).toBe(200);
    expect(await stealthRooms()).toBe(MAX_ROOMS);
    expect(rooms.reduce((n, r) => n + r.stats.exceptions, 0)).toBe(0);
  });

  it("joinOrCreate is held to the same budget when it would build a room, and a create refused for its options spends it too, leaving no room behind", async () => {
    for (let i = 0; i < 5; i++) {
      const answer = await matchmake("joinOrCreate", "{}", "127.0.0.4");
      expect(answer.status).toBe(200);
      await matchMaker.getLocalRoomById(answer.body.roomId)!.lock(); // full, as far as matchmaking goes
    }
    const answers: Answer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await matchmake("create", JSON.stringify({ map: "atlantis" }), "127.0.0.4"));
    expect(answers.slice(0, 5).every((a) => a.status === 526 && /unknown map "atlantis"/.test(a.body.error))).toBe(true);
    expect(answers.slice(5).map((a) => a.status)).toEqual([429, 429]);
    expect((await matchmake("joinOrCreate", "{}", "127.0.0.4")).status).toBe(429);
    expect(await stealthRooms()).toBe(5);
  });
});
