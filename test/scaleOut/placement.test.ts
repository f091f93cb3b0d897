import { LocalPresence } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import { HostedRooms } from "../../server/rooms/hostedRooms.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import type { EventLoopLag, LagWindow } from "../../server/ops/eventLoopLag.js";
import { fewestRooms, pendingWeights, pickProcess, type Candidate } from "../../server/scaleOut/placement.js";
import { expectedWeight, ProcessLoadBoard, roomWeight, type ProcessLoad } from "../../server/scaleOut/processLoad.js";
import { checkPublicAddress, checkRedisUrl, derivedPublicAddress } from "../../server/scaleOut/scaleOut.js";

function load(processId: string, figures: Partial<ProcessLoad>): ProcessLoad {
  return { processId, at: 0, busy: 0.2, lagP99Ms: 2, ccu: 0, rooms: 0, guards: 0, weight: 0, absorbed: 0, draining: false, ...figures };
}

const two: Candidate[] = [
  { processId: "a", roomCount: 1 },
  { processId: "b", roomCount: 4 },
];

describe("load-aware room placement", () => {
  it("a process with one heavy room gets the next room after one with four light rooms would, by the default", () => {
    const loads = new Map([
      ["a", load("a", { rooms: 1, guards: 128, weight: roomWeight(128, 25) })],
      ["b", load("b", { rooms: 4, weight: 4 * roomWeight(0, 2) })],
    ]);
    expect(pickProcess(two, loads, new Map())).toBe("b");
  });

  it("rooms placed since the last publication count against their host", () => {
    const loads = new Map([
      ["a", load("a", { weight: 10 })],
      ["b", load("b", { weight: 12 })],
    ]);
    expect(pickProcess(two, loads, new Map())).toBe("a");
    expect(pickProcess(two, loads, new Map([["a", expectedWeight({ guards: 64 })]]))).toBe("b");
  });

  it("a process whose loop is saturated goes last, whatever its weight", () => {
    const loads = new Map([
      ["a", load("a", { rooms: 1, weight: 1, busy: 0.95 })],
      ["b", load("b", { rooms: 4, weight: 40 })],
    ]);
    expect(pickProcess(two, loads, new Map())).toBe("b");
    const lagging = new Map([...loads, ["a", load("a", { rooms: 1, weight: 1, lagP99Ms: 80 })]]);
    expect(pickProcess(two, lagging, new Map())).toBe("b");
    // Busy while starting up, with no room yet: not full.
    const starting = new Map([...loads, ["a", load("a", { rooms: 0, weight: 0, busy: 0.99, lagP99Ms: 120 })]]);
    expect(pickProcess(two, starting, new Map())).toBe("a");
  });

  it("a process that has not published yet is taken as empty, and ties go to fewer rooms then the lower id", () => {
    expect(pickProcess(two, new Map([["a", load("a", { weight: 3 })]]), new Map())).toBe("b");
    expect(pickProcess(two, new Map(), new Map())).toBe("a");
    expect(pickProcess([{ processId: "z", roomCount: 0 }, { processId: "y", roomCount: 0 }], new Map(), new Map())).toBe("y");
    expect(pickProcess([], new Map(), new Map())).toBeUndefined();
  });

  it("a draining process gets no new room, by either rule, whatever its load", () => {
    const loads = new Map([
      ["a", load("a", { rooms: 1, weight: 1, draining: true })],
      ["b", load("b", { rooms: 4, weight: 40 })],
    ]);
    expect(pickProcess(two, loads, new Map())).toBe("b");
    expect(fewestRooms(two, loads)).toBe("b");
    expect(fewestRooms(two)).toBe("a");
    expect(pickProcess([two[0]!], loads, new Map())).toBeUndefined();
  });

  it("a room's expected weight counts the guards asked for, and ignores what is not a number", () => {
    expect(expectedWeight({ guards: 64 })).toBe(roomWeight(64, 1));
    expect(expectedWeight({ guards: "64" })).toBe(roomWeight(0, 1));
    expect(expectedWeight({ guards: Number.NaN })).toBe(roomWeight(0, 1));
    expect(expectedWeight(undefined)).toBe(roomWeight(0, 1));
  });
});

/** What the load board reads of a room: its guards and its clients. */
function roomWith(guards: number, clients: number): StealthRoom {
  return { sim: { guards: { length: guards } }, clients: { length: clients } } as unknown as StealthRoom;
}

describe("the placement tally", () => {
  it("a heavy room is pending on its host from placement until the host counts it, even if the host publishes in between", async () => {
    const presence = new LocalPresence();
    const hostRooms = new HostedRooms();
    const host = new ProcessLoadBoard(presence, 1000, { rooms: hostRooms, processId: () => "b" });
    const matchmaker = new ProcessLoadBoard(presence, 1000, { rooms: new HostedRooms(), processId: () => "a" });
    const heavy = { guards: 384 };
    const pendingOnHost = async () => pendingWeights(await matchmaker.readPlaced(), await matchmaker.readAll()).get("b") ?? 0;

    await matchmaker.recordPlacement("b", heavy);
    expect(await pendingOnHost()).toBeCloseTo(expectedWeight(heavy), 3);
    // The host publishes while the create request is still on its way (or queued behind another room).
    await host.publish();
    expect(await pendingOnHost()).toBeCloseTo(expectedWeight(heavy), 3);
    expect((await matchmaker.readAll()).get("b")?.weight).toBe(0);

    // The request arrives and the room is built; from the next publication it counts in the weight, once.
    hostRooms.build(roomWith(384, 0), heavy, () => undefined);
    await host.publish();
    expect(await pendingOnHost()).toBe(0);
    expect((await matchmaker.readAll()).get("b")?.weight).toBe(roomWeight(384, 0));
    await host.stop();
    await matchmaker.stop();
  });

  it("a create the host refuses stops being pending all the same", async () => {
    const presence = new LocalPresence();
    const hostRooms = new HostedRooms();
    const host = new ProcessLoadBoard(presence, 1000, { rooms: hostRooms, processId: () => "b" });
    await host.recordPlacement("b", { guards: 64 });
    expect(() =>
      hostRooms.build(roomWith(64, 0), { guards: 64 }, () => {
        throw new RangeError("refused");
      }),
    ).toThrow("refused");
    expect(hostRooms.size).toBe(0);
    await host.publish();
    expect(pendingWeights(await host.readPlaced(), await host.readAll()).get("b")).toBe(0);
    await host.stop();
  });
});

describe("a process's published load", () => {
  it("building rooms does not make a process look saturated: build time leaves the busy share, and lag windows with a build are passed over", () => {
    const rooms = new HostedRooms();
    const lag = { windowSeconds: 5, last: null as LagWindow | null };
    const board = new ProcessLoadBoard(new LocalPresence(), 1000, { rooms, lag: lag as unknown as EventLoopLag, processId: () => "b" });
    const window = (endedAtMs: number, p99: number) => ({ seq: 1, endedAtMs, p50: 1, p99, max: p99, samples: 500, distribution: [] });

    // A heavy build holds the loop for 300 ms.
    rooms.build(roomWith(512, 0), { guards: 512 }, () => {
      const until = performance.now() + 300;
      while (performance.now() < until);
    });
    lag.last = window(performance.now(), 180);
    const during = board.measure();
    expect(during.busy).toBeLessThan(0.3);
    expect(during.lagP99Ms).toBe(0);
    expect(during.weight).toBe(roomWeight(512, 0));

    // A whole window after the build: its lag counts. A later window with a build keeps that figure.
    lag.last = window(rooms.lastBuildEndedAt + 5001, 4);
    expect(board.measure().lagP99Ms).toBe(4);
    rooms.build(roomWith(8, 0), { guards: 8 }, () => undefined);
    lag.last = window(performance.now(), 150);
    expect(board.measure().lagP99Ms).toBe(4);
  });

  it("a loop busy playing its rooms is reported busy", () => {
    const board = new ProcessLoadBoard(new LocalPresence(), 1000, { rooms: new HostedRooms(), processId: () => "b" });
    const until = performance.now() + 200;
    while (performance.now() < until);
    expect(board.measure().busy).toBeGreaterThan(0.7);
  });
});

describe("scale-out settings", () => {
  it("a Redis URL that is not redis:// is refused, naming REDIS_URL", () => {
    expect(() => checkRedisUrl("localhost:6379")).toThrow(RangeError);
    expect(() => checkRedisUrl("http://127.0.0.1:6379")).toThrow(/REDIS_URL/);
    expect(() => checkRedisUrl("redis://127.0.0.1:6379/2")).not.toThrow();
  });

  it("a public address with a scheme or spaces is refused, naming PUBLIC_ADDRESS", () => {
    expect(() => checkPublicAddress("ws://game.example.com:2567")).toThrow(/PUBLIC_ADDRESS/);
    expect(() => checkPublicAddress("game example")).toThrow(RangeError);
    expect(() => checkPublicAddress("game.example.com/eu-1")).not.toThrow();
    expect(() => checkPublicAddress("10.0.0.7:2568")).not.toThrow();
  });

  it("the derived public address is the listening host and port, never a wildcard", () => {
    expect(derivedPublicAddress("127.0.0.1", 2571)).toBe("127.0.0.1:2571");
    expect(derivedPublicAddress("0.0.0.0", 2571)).not.toMatch(/^0\.0\.0\.0/);
  });
});
