import { describe, expect, it } from "vitest";
import { PatchClock, type PatchClockTimers } from "../../server/rooms/patchClock.js";

/**
 * A loop on a fake clock: a timer due at `t` runs at `t + lateness(t)` (the loop was busy), the way a
 * Node timer runs late; `setInterval` is modelled the way Node reschedules it, from when it ran.
 */
class BusyLoop implements PatchClockTimers {
  now = 0;
  private queue: { due: number; run: () => void; id: number }[] = [];
  private ids = 0;
  constructor(private readonly lateness: (due: number) => number) {}
  setTimeout(callback: () => void, delayMs: number): unknown {
    const id = ++this.ids;
    this.queue.push({ due: this.now + delayMs, run: callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  setInterval(callback: () => void, intervalMs: number): void {
    const again = () => {
      callback();
      this.setTimeout(again, intervalMs); // from when it ran: the lateness stays
    };
    this.setTimeout(again, intervalMs);
  }
  runUntil(end: number): void {
    for (;;) {
      this.queue.sort((a, b) => a.due - b.due);
      const t = this.queue[0];
      if (t === undefined || t.due > end) break;
      this.queue.shift();
      this.now = Math.max(this.now, t.due + this.lateness(t.due));
      t.run();
    }
    this.now = end;
  }
}

describe("the patch clock", () => {
  it("holds 20 patches a second on a loop that runs every timer 4 ms late, where setInterval falls to 18.5", () => {
    const loop = new BusyLoop(() => 4);
    const times: number[] = [];
    new PatchClock(50, () => times.push(loop.now), () => loop.now, loop).start();
    let interval = 0;
    loop.setInterval(() => interval++, 50);
    loop.runUntil(10_000);
    expect(times.length).toBe(200);
    expect(interval).toBe(185); // 10 000 / 54
    // Each patch goes out 4 ms after its grid time: the cadence does not drift.
    expect(times[199]).toBe(10_004);
  });

  it("skips the grid times a long stall missed instead of sending patches back to back", () => {
    const loop = new BusyLoop((due) => (due >= 1000 && due < 1050 ? 330 : 0)); // one 330 ms stall
    const times: number[] = [];
    new PatchClock(50, () => times.push(loop.now), () => loop.now, loop).start();
    loop.runUntil(2000);
    // The patch due at 1000 goes out when the stall ends, the next at the first grid time after it.
    expect(times.filter((t) => t > 1000 && t < 1400)).toEqual([1330, 1350]);
    expect(times.filter((t) => t >= 1400 && t < 1600)).toEqual([1400, 1450, 1500, 1550]); // back on the grid
    expect(times.length).toBe(40 - 6); // the 6 grid times the stall covered (1050 .. 1300) are gone, not queued
  });

  it("stops, and refuses a nonsensical interval", () => {
    const loop = new BusyLoop(() => 0);
    let fired = 0;
    const clock = new PatchClock(50, () => fired++, () => loop.now, loop);
    clock.start();
    loop.runUntil(500);
    clock.stop();
    expect(clock.running).toBe(false);
    loop.runUntil(1000);
    expect(fired).toBe(10);
    expect(() => new PatchClock(0, () => {})).toThrow(/positive/);
    expect(() => new PatchClock(Number.NaN, () => {})).toThrow(/positive/);
  });
});
