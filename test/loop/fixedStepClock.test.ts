import { describe, expect, it } from "vitest";
import { FixedStepClock, type StepClockTimers, type StepFiring } from "../../server/loop/fixedStepClock.js";
import { StepPhases } from "../../server/loop/stepPhases.js";
import { LoopTurns } from "../../server/loop/loopTurns.js";

/**
 * A single-threaded loop on a fake clock: a timer due at `t` runs at `t + lateness(t)` or when the loop is
 * free, whichever is later; work inside a callback moves the clock on (`busy`). `setInterval` is modelled
 * the way Node reschedules it, from when it ran.
 */
class BusyLoop implements StepClockTimers {
  now = 0;
  /** [start, end] of every callback run, in order. */
  readonly runs: [number, number][] = [];
  private queue: { due: number; run: () => void; id: number }[] = [];
  private ids = 0;
  constructor(private readonly lateness: (due: number) => number = () => 0) {}
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
      this.setTimeout(again, intervalMs); // from when it ran: any lateness stays
      callback();
    };
    this.setTimeout(again, intervalMs);
  }
  busy(ms: number): void {
    this.now += ms;
  }
  runUntil(end: number): void {
    for (;;) {
      this.queue.sort((a, b) => a.due - b.due || a.id - b.id);
      const t = this.queue[0];
      if (t === undefined || t.due > end) break;
      this.queue.shift();
      this.now = Math.max(this.now, t.due + this.lateness(t.due));
      const start = this.now;
      t.run();
      this.runs.push([start, this.now]);
    }
    this.now = Math.max(this.now, end);
  }
  /** The longest stretch the loop was busy without a break, over runs starting in [from, to). */
  longestBusyStretch(from: number, to = Number.POSITIVE_INFINITY): number {
    let longest = 0;
    let start = Number.NaN;
    let end = Number.NEGATIVE_INFINITY;
    for (const [s, e] of this.runs) {
      if (s < from || s >= to) continue;
      if (s > end) start = s;
      end = Math.max(end, e);
      longest = Math.max(longest, end - start);
    }
    return longest;
  }
}

function clockOn(loop: BusyLoop, phases: StepPhases, onFire: (f: Readonly<StepFiring>) => void, stepMs = 50): FixedStepClock {
  // Firings run as the timer fires: the simulated loop has no turns of its own.
  return new FixedStepClock(stepMs, onFire, { phases, now: () => loop.now, timers: loop, turns: new LoopTurns((run) => run()) });
}

describe("the fixed-step clock", () => {
  it("holds 20 steps a second on a loop that runs every timer 4 ms late, where setInterval falls to 18.5", () => {
    const loop = new BusyLoop(() => 4);
    const times: number[] = [];
    clockOn(loop, new StepPhases(), (f) => times.push(f.nowMs)).start();
    let interval = 0;
    loop.setInterval(() => interval++, 50);
    loop.runUntil(10_000);
    expect(times.length).toBe(200);
    expect(interval).toBe(185); // 10 000 / 54
    // Each step runs 4 ms after its grid time: the cadence does not drift.
    expect(times[199]).toBe(10_004);
  });

  it("runs the steps a stall owed when it ends, up to 5, and reports the rest as dropped", () => {
    const loop = new BusyLoop((due) => (due >= 1000 && due < 1050 ? 130 : due >= 2000 && due < 2050 ? 400 : 0));
    const firings: StepFiring[] = [];
    clockOn(loop, new StepPhases(), (f) => firings.push({ ...f })).start();
    loop.runUntil(3000);
    const afterShort = firings.find((f) => f.nowMs === 1130)!;
    expect(afterShort).toMatchObject({ steps: 3, dropped: 0, dueMs: 1000 }); // 1000, 1050, 1100
    expect(firings.find((f) => f.nowMs === 1150)).toMatchObject({ steps: 1, dueMs: 1150 }); // back on the grid
    const afterLong = firings.find((f) => f.nowMs === 2400)!;
    expect(afterLong).toMatchObject({ steps: 5, dropped: 4 }); // 9 were due (2000 .. 2400)
    const steps = firings.reduce((n, f) => n + f.steps, 0);
    const dropped = firings.reduce((n, f) => n + f.dropped, 0);
    expect(steps + dropped).toBe(60); // every grid time of 3 s was either stepped or reported
  });

  it("spreads rooms evenly over the step period, and re-spreads them when one leaves", () => {
    const loop = new BusyLoop();
    const phases = new StepPhases();
    const fired = new Map<number, number[]>();
    const clocks = [0, 1, 2, 3].map((i) => {
      fired.set(i, []);
      return clockOn(loop, phases, (f) => fired.get(i)!.push(f.nowMs % 50));
    });
    for (const c of clocks) c.start();
    loop.runUntil(1000);
    expect(clocks.map((c) => c.phaseMs)).toEqual([0, 12.5, 25, 37.5]);
    for (const [i, times] of fired) expect(new Set(times.slice(2))).toEqual(new Set([i * 12.5]));
    clocks[1]!.stop();
    expect(phases.count(50)).toBe(3);
    for (const times of fired.values()) times.length = 0;
    loop.runUntil(2000);
    expect([clocks[0]!.phaseMs, clocks[2]!.phaseMs, clocks[3]!.phaseMs]).toEqual([0, 50 / 3, 100 / 3]);
    expect(fired.get(1)).toEqual([]);
    expect(new Set(fired.get(3)!.slice(2).map((t) => Math.round(t * 1000) / 1000))).toEqual(new Set([Math.round((100 / 3) * 1000) / 1000]));
  });

  it("rooms stay spread after a stall, where setInterval rooms pile into one convoy and stay in it", () => {
    const stall = (due: number) => (due >= 1000 && due < 1060 ? 1060 - due : 0); // the loop is blocked from 1000 to 1060
    const withIntervals = new BusyLoop(stall);
    const withClocks = new BusyLoop(stall);
    const phases = new StepPhases();
    for (let room = 0; room < 4; room++) {
      // Four rooms created 12 ms apart, each tick costing 8 ms of loop time.
      withIntervals.setTimeout(() => withIntervals.setInterval(() => withIntervals.busy(8), 50), room * 12);
      const clock = clockOn(withClocks, phases, () => withClocks.busy(8));
      clock.start();
    }
    withIntervals.runUntil(5000);
    withClocks.runUntil(5000);
    expect(withIntervals.longestBusyStretch(0, 1000)).toBe(8); // spread out, as long as nothing stalls
    expect(withIntervals.longestBusyStretch(3000)).toBe(32); // all four back to back, for good
    expect(withClocks.longestBusyStretch(3000)).toBe(8); // one room at a time
  });

  it("stops, gives its phase back, and refuses nonsense", () => {
    const loop = new BusyLoop();
    const phases = new StepPhases();
    let fired = 0;
    const clock = clockOn(loop, phases, () => fired++);
    clock.start();
    loop.runUntil(500);
    clock.stop();
    expect(clock.running).toBe(false);
    expect(phases.count(50)).toBe(0);
    loop.runUntil(1000);
    expect(fired).toBe(10);
    expect(() => new FixedStepClock(0, () => {})).toThrow(/FixedStepClock stepMs must be a finite number > 0 of milliseconds/);
    expect(() => new FixedStepClock(Number.NaN, () => {})).toThrow(/FixedStepClock stepMs must be a finite number > 0 of milliseconds/);
    expect(() => new FixedStepClock(50, () => {}, { maxCatchUpSteps: 0 })).toThrow(/maxCatchUpSteps/);
  });
});
