import { describe, expect, it } from "vitest";
import { rollingRestart } from "../../loadtest/cluster/rollingRestart.js";
import { parseRollingArgs } from "../../loadtest/rollingRestart.js";

// A rolling restart of two real processes on a real Redis while bots play games back to back, some
// dropping their connection and reconnecting through either process: what `npm run loadtest:rolling` runs.

describe("a rolling restart under load", () => {
  it("each process drains and is replaced in turn: no game is lost, every reconnection works, and every process exits 0", async () => {
    const report = await rollingRestart({ processes: 2, bots: 12, session: [3, 8], drainSeconds: 20, settle: 4, drops: 0.3, guards: 8, seed: 3 });
    console.log(`rolling restart: ${JSON.stringify(report)}`);
    expect(report.restarts.map((r) => r.exitCode)).toEqual([0, 0]);
    // Games shorter than the deadline: every drain ends when its last game does, well before it.
    for (const r of report.restarts) expect(r.drainSeconds).toBeLessThan(20);
    // Not vacuous: the processes drained while games were running on them.
    expect(report.restarts.reduce((n, r) => n + r.clients, 0)).toBeGreaterThanOrEqual(6);
    expect(report.games).toMatchObject({ lostBeforeDeadline: 0, closedAtDeadline: 0, running: 0 });
    expect(report.games.completed).toBeGreaterThan(24);
    expect(report.reconnections.failed).toBe(0);
    expect(report.reconnections.attempted).toBeGreaterThan(3);
    expect(report.joins.failed).toBe(0);
  }, 90_000);

  it("its command line refuses what it cannot run, naming the flag", () => {
    expect(() => parseRollingArgs(["--processes", "1"])).toThrow(/--processes must be an integer in 2..8/);
    expect(() => parseRollingArgs(["--session", "9,3"])).toThrow(/--session must be min,max/);
    expect(parseRollingArgs([]).drainSeconds).toBe(30);
  });
});
