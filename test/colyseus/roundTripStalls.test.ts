import { describe, expect, it } from "vitest";
import { LoopStalls } from "../../server/colyseus/loopStalls.js";
import { LoopWatch, type WatchTimers } from "../../server/colyseus/loopWatch.js";
import { RoundTripProbe, type PingableSocket } from "../../server/colyseus/roundTripProbe.js";

/** Timers the test fires by hand. */
class ManualTimers implements WatchTimers {
  pending: (() => void) | null = null;
  setTimeout(callback: () => void): unknown {
    this.pending = callback;
    return 1;
  }
  clearTimeout(): void {
    this.pending = null;
  }
  fire(): void {
    const run = this.pending;
    this.pending = null;
    run?.();
  }
}

/** A socket that answers pings when told to, on a clock the test moves. */
class FakeSocket implements PingableSocket {
  readonly readyState = 1;
  private listener: ((data: Uint8Array) => void) | null = null;
  private pending: Uint8Array | null = null;
  ping(data?: Uint8Array): void {
    this.pending = data ?? null;
  }
  on(_event: "pong", listener: (data: Uint8Array) => void): void {
    this.listener = listener;
  }
  pong(): void {
    if (this.pending !== null) this.listener?.(this.pending);
    this.pending = null;
  }
}

describe("round trips across the server's own stalls", () => {
  it("a late firing records its lateness as a stall ending where it fired; on-time firings record nothing", () => {
    const stalls = new LoopStalls();
    stalls.late(0, 0);
    stalls.late(50, 50);
    stalls.late(100, 551); // due at 100, fired at 551: blocked 451 ms
    stalls.late(600, 599); // a timer may fire a little early: nothing
    stalls.late(650, 650);
    expect(stalls.blockedWithin(0, 1000)).toBeCloseTo(451, 6);
    expect(stalls.blockedWithin(300, 400)).toBeCloseTo(100, 6);
    expect(stalls.blockedWithin(0, 100)).toBe(0);
    expect(stalls.blockedWithin(552, 1000)).toBe(0);
  });

  it("forgets the oldest stalls beyond its capacity", () => {
    const stalls = new LoopStalls(2);
    let t = 0;
    for (const late of [5, 7, 9]) {
      t += 10;
      stalls.late(t, t + late);
      t += late;
    }
    expect(stalls.blockedWithin(-1, t + 1)).toBeCloseTo(7 + 9, 6);
  });

  it("a pong read after a 500 ms stall counts the client's round trip, not the stall", () => {
    let now = 0;
    const stalls = new LoopStalls();
    const probe = new RoundTripProbe(4, () => now, (a, b) => stalls.blockedWithin(a, b));
    const naive = new RoundTripProbe(4, () => now);
    const socket = new FakeSocket();
    const other = new FakeSocket();
    stalls.late(0, now);
    probe.watch("c", socket); // pings at t = 0
    naive.watch("c", other);
    now = 50;
    stalls.late(50, now);
    // The pong arrived at t = 56 but the loop was blocked from 55 to 555: it is read at 555.
    now = 555;
    stalls.late(100, now);
    expect(probe.estimate("c")).toBeUndefined(); // no pong yet
    socket.pong();
    other.pong();
    expect(naive.estimate("c")).toBe(555);
    // The stall is placed from when the late firing was due (100): the 100 ms before it stay, an
    // overestimate by at most two steps where the raw reading was off by the whole stall.
    expect(probe.estimate("c")).toBeCloseTo(100, 6);
  });

  it("a ping still in flight through a stall does not inflate the estimate by the stall", () => {
    let now = 0;
    const stalls = new LoopStalls();
    const probe = new RoundTripProbe(4, () => now, (a, b) => stalls.blockedWithin(a, b));
    const socket = new FakeSocket();
    stalls.late(0, now);
    probe.watch("c", socket);
    now = 20;
    socket.pong(); // 20 ms
    now = 1000;
    stalls.late(50, now); // blocked from 50 to 1000
    probe.pingAll(); // ping sent at 1000
    now = 1050;
    stalls.late(1050, now);
    now = 1600;
    stalls.late(1100, now); // blocked from 1100 to 1600, with the ping out
    expect(probe.estimate("c")).toBeCloseTo(100, 6); // 1050 .. 1100 and the gap before the late firing
    now = 1630;
    expect(probe.estimate("c")).toBeCloseTo(130, 6); // a ping that is truly late still raises it
  });

  it("a pong read right after a stall, before the loop watch's overdue timer has fired, is discounted by the stall in progress", () => {
    let now = 0;
    const timers = new ManualTimers();
    const watch = new LoopWatch(20, 4, () => now, timers);
    const release = watch.acquire(); // due at 20
    const probe = new RoundTripProbe(4, () => now, (a, b) => watch.blockedWithin(a, b));
    const socket = new FakeSocket();
    now = 10;
    probe.watch("c", socket); // pings at t = 10; the loop then blocks until 510
    now = 510;
    // Node reads the pong before the watch's timer (due at 20) gets to run.
    socket.pong();
    expect(probe.estimate("c")!).toBeLessThanOrEqual(10 + 1e-9); // 10 ms of network at most, not 500
    timers.fire(); // the timer now records the stall for good
    expect(watch.blockedWithin(0, 600)).toBeCloseTo(490, 6);
    expect(probe.estimate("c")!).toBeLessThanOrEqual(10 + 1e-9);
    release();
    expect(timers.pending).toBeNull();
  });

  it("a client's estimate is handed to the culling when it changes, not at every update", () => {
    let now = 0;
    const probe = new RoundTripProbe(4, () => now);
    const socket = new FakeSocket();
    const handed: [string, number | undefined][] = [];
    const sink = { setRoundTrip: (id: string, ms: number | undefined) => handed.push([id, ms]) };
    probe.watch("c", socket); // pings at t = 0
    probe.applyChanged(sink);
    expect(handed).toEqual([["c", undefined]]); // a new client: unknown, once
    now = 30;
    probe.applyChanged(sink);
    socket.pong(); // 30 ms
    probe.applyChanged(sink);
    probe.applyChanged(sink);
    expect(handed).toEqual([["c", undefined], ["c", 30]]);
    // A ping out, answered within the samples' longest: nothing changes.
    now = 1000;
    probe.pingAll();
    now = 1020;
    probe.applyChanged(sink);
    expect(handed).toHaveLength(2);
    // Late past it: the age of the ping in flight raises the estimate, each update it grows.
    now = 1045;
    probe.applyChanged(sink);
    now = 1050;
    probe.applyChanged(sink);
    expect(handed.slice(2)).toEqual([["c", 45], ["c", 50]]);
    socket.pong(); // 50 ms: the samples now say 50
    probe.applyChanged(sink);
    expect(handed).toHaveLength(4);
    // A view new to the culling gets the estimate so far, unchanged as it is.
    probe.refresh("c");
    probe.applyChanged(sink);
    expect(handed.at(-1)).toEqual(["c", 50]);
    expect(handed).toHaveLength(5);
  });

  it("the loop watch records no stall for timer jitter under its threshold", () => {
    let now = 0;
    const timers = new ManualTimers();
    const watch = new LoopWatch(20, 4, () => now, timers);
    watch.acquire();
    for (let k = 1; k <= 10; k++) {
      now = k * 20 + 3; // 3 ms late each time
      timers.fire();
    }
    expect(watch.blockedWithin(0, 1000)).toBe(0);
  });
});

describe("round trips on a transport without WebSocket pings", () => {
  it("counts every client at the cap, measures none, and says so once", async () => {
    const { RoundTrips } = await import("../../server/colyseus/roundTrips.js");
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      // Connections of a transport of its own: no `ping` on them.
      const clients = new Map([["a", { ref: { send() {} } }], ["b", { ref: { send() {} } }]]);
      const trips = new RoundTrips(1000, 300, (id) => clients.get(id) as never, () => 0);
      trips.watch("a");
      trips.watch("b");
      const applied: [string, number | undefined][] = [];
      trips.apply(["a", "b"], { setRoundTrip: (id, ms) => applied.push([id, ms]) });
      // Nothing to hand on: a client's view starts unknown, which the culling counts at maxRoundTripMs.
      expect(applied).toEqual([]);
      expect(trips.counts(["a", "b"])).toEqual({ p50: 0, max: 0, measured: 0, capped: 2 });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("maxRoundTripMs (300 ms)");
      trips.dispose();
    } finally {
      console.warn = warn;
    }
  });
});
