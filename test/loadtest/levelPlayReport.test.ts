import { describe, expect, it } from "vitest";
import { refusedPlay } from "../../loadtest/levelPlay.js";
import type { RunRecord } from "../../loadtest/loadRun.js";
import { parseLoadTestArgs, UsageError, type LoadTestOptions } from "../../loadtest/options.js";
import { summarize, type LoadTestSummary } from "../../loadtest/report/summary.js";
import { formatTable } from "../../loadtest/report/summaryTable.js";
import type { RoomReading, StatsReading } from "../../loadtest/serverWatch.js";

const parse = (...args: string[]) => parseLoadTestArgs(args) as LoadTestOptions;

describe("--level-play", () => {
  it("is on unless turned off, and says what it takes when given anything else", () => {
    expect(parse().levelPlay).toBe("on");
    expect(parse("--level-play", "off").levelPlay).toBe("off");
    expect(parse("--level-play", "on").levelPlay).toBe("on");
    expect(() => parse("--level-play", "maybe")).toThrow(UsageError);
    expect(() => parse("--level-play", "maybe")).toThrow(/--level-play must be on or off \(got "maybe"\)/);
    expect(() => parse("--level-play")).toThrow(UsageError);
  });

  it("is off against the plain peer, whose room has no doors or grenades", () => {
    expect(parse("--local", "--server", "plain").levelPlay).toBe("off");
    expect(parse("--local", "--server", "plain", "--level-play", "on").levelPlay).toBe("off");
  });
});

describe("a refusal of the room", () => {
  it("is part of play when it turns down a door or a grenade, and nothing else is", () => {
    expect(refusedPlay({ code: "message.refused", message: "door: door 12 is 2.1 m away: it can be reached from 1.5 m" })).toBe("door");
    expect(refusedPlay({ code: "message.refused", message: "smoke: no smoke grenade left (each life carries 3)" })).toBe("smoke");
    expect(refusedPlay({ code: "message.refused", message: "respawn: no spawn \"Z\"" })).toBeUndefined();
    expect(refusedPlay({ code: "message.invalid", message: "door: payload.open: expected boolean" })).toBeUndefined();
    expect(refusedPlay(undefined)).toBeUndefined();
  });
});

/** A `/stats` reading of one room with these play counters. */
function reading(atMs: number, play: Partial<RoomReading>): StatsReading {
  const window = { seq: atMs, endedAtMs: atMs, p50: 1, p99: 4, max: 9, samples: 500, distribution: [[1, 0.5], [4, 0.99], [9, 1]] as [number, number][] };
  return {
    sampledAtMs: atMs,
    cpu: { userSeconds: atMs / 10_000, systemSeconds: 0 },
    memory: { rss: 150e6, heapUsed: 40e6, heapTotal: 60e6 },
    heapAfterMajorGc: null,
    eventLoopLagMs: { windowSeconds: 5, last: window, current: window },
    rooms: [{
      roomId: "r1", clients: 8, guards: 6, cullingEnabled: true, ticks: atMs / 50, patches: atMs / 50,
      tickMs: { p50: 0.5, p99: 2, max: 4 }, joinMs: { p50: 1, p99: 2, max: 2, samples: 8 }, patchMs: { p50: 0.3, p99: 1, max: 2 },
      inputsApplied: 100, rejected: { total: 0 }, errorDisconnects: 0, exceptions: 0, ...play,
    }],
  };
}

/** The summary of a 10 s run of 8 bots whose room ended with these play counters, and whose bots sent `play`. */
function runWith(args: string[], roomPlay: Partial<RoomReading>, play: RunRecord["play"]): LoadTestSummary {
  const options = parse("--local", "--clients", "8", ...args);
  const watch = { marks: new Map([["start", reading(0, {})], ["warm", reading(1000, {})], ["end", reading(11_000, roomPlay)]]), lagWindows: new Map(), heapAfterGc: [], heap: [] };
  return summarize({
    options, endpoint: "ws://127.0.0.1:1", startedAt: "", aborted: false,
    clients: { target: 8, joined: 8, failed: 0, peak: 8, atEnd: 8, churned: 0, decoding: 8 }, joinFailures: [], roomIds: ["r1"],
    rampSeconds: 1, measuredSeconds: 10,
    traffic: { warm: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, end: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, framesOutWarm: 0, framesOutEnd: 0, clientSeconds: 80 },
    roundTripMs: { p50: 1, p99: 2, max: 3, samples: 10 }, views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] }, holdLimit: undefined,
    errors: { total: 0, counts: {}, examples: [] }, generator: { cpuPercentOfCore: 10, loopLagP99Ms: 1 }, servers: [watch], serverNote: undefined,
    joins: { local: [], cross: [] }, probe: undefined, play,
  } as unknown as RunRecord);
}

describe("the summary of a run with level play", () => {
  const refusal = "bot 3: door: door 38 cannot shut: someone is in the doorway";

  it("shows the doors toggled and grenades landed in the rooms, next to what the bots asked and had refused, and a refusal is no failure", () => {
    const s = runWith([], { doorsToggled: 12, smokesThrown: 4, escapes: 1, captures: 20 }, { doorOpens: 8, doorShuts: 16, smokes: 5, refused: 9, refusedExamples: [refusal] });
    expect(s.ok, s.problems.join("; ")).toBe(true);
    expect(s.server!.play).toEqual({ doorsToggled: 12, smokesThrown: 4, escapes: 1, captures: 20 });
    expect(s.levelPlay).toEqual({ on: true, sent: { doorOpens: 8, doorShuts: 16, smokes: 5 }, refused: 9, refusedExamples: [refusal] });
    // The JSON result carries them as they are.
    const json = JSON.parse(JSON.stringify(s)) as LoadTestSummary;
    expect(json.server!.play).toEqual(s.server!.play);
    expect(json.levelPlay).toEqual(s.levelPlay);
    expect(json.options.levelPlay).toBe("on");
    const table = formatTable(s);
    expect(table).toMatch(/^doors toggled, smoke grenades landed \(whole run\)\s+12, 4$/m);
    expect(table).toMatch(/^escapes, captures \(whole run\)\s+1, 20$/m);
    expect(table).toMatch(/^level play: bots' door opens, shuts, grenades\s+8, 16, 5 sent; 9 refused by the room \(not errors\)$/m);
  });

  it("says when level play was off, and when the server does not count doors and grenades", () => {
    const off = runWith(["--level-play", "off"], { doorsToggled: 3, smokesThrown: 0 }, { doorOpens: 0, doorShuts: 0, smokes: 0, refused: 0, refusedExamples: [] });
    expect(off.levelPlay.on).toBe(false);
    expect(formatTable(off)).toMatch(/^level play: bots' door opens, shuts, grenades\s+off \(--level-play off\)$/m);
    const older = runWith([], {}, { doorOpens: 0, doorShuts: 0, smokes: 0, refused: 0, refusedExamples: [] });
    expect(older.server!.play).toBeNull();
    expect(formatTable(older)).toMatch(/^doors toggled, smoke grenades landed \(whole run\)\s+n\/a \(the server does not count them\)$/m);
  });
});
