import { describe, expect, it } from "vitest";
import { newLevelPlayTally, refusedPlay } from "../../loadtest/levelPlay.js";
import type { RunRecord } from "../../loadtest/loadRun.js";
import { parseLoadTestArgs, USAGE, UsageError, type LoadTestOptions } from "../../loadtest/options.js";
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

describe("--hearing", () => {
  it("is on unless turned off, against a running server too (it is a create option), and says what it takes when given anything else", () => {
    expect(parse().hearing).toBe("on");
    expect(parse("--hearing", "off").hearing).toBe("off");
    expect(parse("--local", "--hearing", "off").hearing).toBe("off");
    expect(parse("--hearing", "on").hearing).toBe("on");
    expect(() => parse("--hearing", "deaf")).toThrow(/--hearing must be on or off \(got "deaf"\)/);
    expect(() => parse("--hearing")).toThrow(UsageError);
  });

  it("is off against the plain peer, which has no hearing, and is in the usage", () => {
    expect(parse("--local", "--server", "plain").hearing).toBe("off");
    expect(parse("--local", "--server", "plain", "--hearing", "on").hearing).toBe("off");
    expect(USAGE).toMatch(/^  --hearing on\|off {7}the rooms hear \(default on\)/m);
    expect(USAGE).toMatch(/hearing: false/);
  });
});

describe("a refusal of the room", () => {
  it("is part of play when it turns down a door or a grenade, and nothing else is", () => {
    expect(refusedPlay({ code: "message.refused", message: "door: door 12 is 2.1 m away: it can be reached from 1.5 m" })).toBe("door");
    expect(refusedPlay({ code: "message.refused", message: "smoke: no smoke grenade left (each life carries 3)" })).toBe("smoke");
    expect(refusedPlay({ code: "message.refused", message: "distract: a distraction reaches 12 m (that spot is 13.1 m away)" })).toBe("distract");
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

/**
 * The summary of a 10 s run of 8 bots whose room ended with these play counters, and whose bots sent
 * `play` (and, in `more`, heard and walked as given).
 */
function runWith(args: string[], roomPlay: Partial<RoomReading>, play: RunRecord["play"], more: Partial<RunRecord> = {}): LoadTestSummary {
  const options = parse("--local", "--clients", "8", ...args);
  const watch = { marks: new Map([["start", reading(0, {})], ["warm", reading(1000, {})], ["end", reading(11_000, roomPlay)]]), lagWindows: new Map(), heapAfterGc: [], heap: [] };
  return summarize({
    options, endpoint: "ws://127.0.0.1:1", startedAt: "", aborted: false,
    clients: { target: 8, joined: 8, failed: 0, peak: 8, atEnd: 8, churned: 0, decoding: 8 }, joinFailures: [], roomIds: ["r1"],
    rampSeconds: 1, measuredSeconds: 10,
    traffic: { warm: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, end: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, framesOutWarm: 0, framesOutEnd: 0, clientSeconds: 80 },
    roundTripMs: { p50: 1, p99: 2, max: 3, samples: 10 }, views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] }, holdLimit: undefined,
    errors: { total: 0, counts: {}, examples: [] }, generator: { cpuPercentOfCore: 10, loopLagP99Ms: 1 }, servers: [watch], serverNote: undefined,
    joins: { local: [], cross: [] }, probe: undefined, play, ...more,
  } as unknown as RunRecord);
}

describe("the summary of a run with level play", () => {
  const refusal = "bot 3: door: door 38 cannot shut: someone is in the doorway";

  it("shows the doors toggled and grenades landed in the rooms, next to what the bots asked and had refused, and a refusal is no failure", () => {
    const s = runWith([], { doorsToggled: 12, smokesThrown: 4, escapes: 1, captures: 20 }, { doorOpens: 8, doorShuts: 16, smokes: 5, distractions: 0, refused: 9, distractionsRefused: 0, refusedExamples: [refusal] });
    expect(s.ok, s.problems.join("; ")).toBe(true);
    expect(s.server!.play).toEqual({ doorsToggled: 12, smokesThrown: 4, escapes: 1, captures: 20 });
    expect(s.levelPlay).toEqual({ on: true, sent: { doorOpens: 8, doorShuts: 16, smokes: 5, distractions: 0 }, refused: 9, distractionsRefused: 0, refusedExamples: [refusal] });
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
    const off = runWith(["--level-play", "off"], { doorsToggled: 3, smokesThrown: 0 }, newLevelPlayTally());
    expect(off.levelPlay.on).toBe(false);
    expect(formatTable(off)).toMatch(/^level play: bots' door opens, shuts, grenades\s+off \(--level-play off\)$/m);
    const older = runWith([], {}, newLevelPlayTally());
    expect(older.server!.play).toBeNull();
    expect(formatTable(older)).toMatch(/^doors toggled, smoke grenades landed \(whole run\)\s+n\/a \(the server does not count them\)$/m);
  });
});

describe("the summary of a run with hearing", () => {
  const audit = (soundLeaks: number) => ({ churnPerClientTick: 0.1, leaks: 0, popIns: 0, misses: 0, auditedClientTicks: 93262, soundLeaks, soundsAudited: 5120 });
  const heard = { heard: { noises: 900, messages: 600, warmNoises: 100, endNoises: 900 }, gaits: { run: 50, walk: 15, crouch: 20, still: 15 } };

  it("shows the noises the rooms made, what the clients heard per second, the bots' distractions and gaits, and the sound audit", () => {
    const s = runWith(["--targets"], { noises: 5120, culling: audit(0) }, { ...newLevelPlayTally(), distractions: 7, distractionsRefused: 2 }, heard);
    expect(s.ok, s.problems.join("; ")).toBe(true);
    expect(s.server!.noises).toBe(5120);
    expect(s.server!.culling).toMatchObject({ soundLeaks: 0, soundsAudited: 5120 });
    // 800 noises heard in the measured time over 80 client-seconds.
    expect(s.traffic.noisesPerClientPerSecond).toBe(10);
    expect(s.hearing).toEqual({ on: true, noisesReceived: 900, noiseMessages: 600 });
    expect(s.levelPlay).toMatchObject({ sent: { distractions: 7 }, distractionsRefused: 2 });
    expect(s.gaits).toEqual({ run: 0.5, walk: 0.15, crouch: 0.2, still: 0.15, frames: 100 });
    expect(JSON.parse(JSON.stringify(s))).toMatchObject({ hearing: s.hearing, gaits: s.gaits, options: { hearing: "on" } });
    const table = formatTable(s);
    expect(table).toMatch(/^noises \/ client \/ s received\s+10 \(900 in 600 noise messages, whole run\)$/m);
    expect(table).toMatch(/^level play: bots' distractions thrown \/ refused\s+7 \/ 2 \(refusals are not errors\)$/m);
    expect(table).toMatch(/^bots' gaits, share of input frames\s+run 50%, walk 15%, crouch 20%, standing 15%$/m);
    expect(table).toMatch(/^leaks \/ pop-ins \/ misses \/ sound leaks\s+0 \/ 0 \/ 0 \/ 0 \(93262 client-ticks, 5120 sounds audited\)$/m);
    expect(table).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+5120$/m);
  });

  it("fails the run on a sound leak, as on a leak, held to the targets or not", () => {
    for (const args of [["--targets"], []]) {
      const s = runWith(args, { noises: 5120, culling: audit(2) }, newLevelPlayTally(), heard);
      expect(s.ok).toBe(false);
      expect(s.problems).toEqual(["culling audit: 2 sound leak(s) in 5120 sounds audited"]);
      expect(formatTable(s)).toMatch(/^leaks \/ pop-ins \/ misses \/ sound leaks\s+0 \/ 0 \/ 0 \/ 2 \(93262 client-ticks, 5120 sounds audited\)$/m);
    }
  });

  it("says when hearing was off, and when the server does not count noises", () => {
    const off = runWith(["--hearing", "off"], { noises: 0, culling: { ...audit(0), soundsAudited: 0 } }, newLevelPlayTally());
    expect(off.ok, off.problems.join("; ")).toBe(true);
    expect(off.hearing.on).toBe(false);
    expect(off.server!.noises).toBe(0);
    const table = formatTable(off);
    expect(table).toMatch(/^noises \/ client \/ s received\s+0 \(--hearing off\)$/m);
    expect(table).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+0 \(--hearing off\)$/m);
    expect(table).toMatch(/^level play: bots' distractions thrown \/ refused\s+none \(--hearing off\)$/m);
    expect(table).toMatch(/^leaks \/ pop-ins \/ misses \/ sound leaks\s+0 \/ 0 \/ 0 \/ 0 \(93262 client-ticks, 0 sounds audited\)$/m);
    const older = runWith([], {}, newLevelPlayTally());
    expect(older.server!.noises).toBeNull();
    expect(formatTable(older)).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+n\/a \(the server does not count them\)$/m);
  });
});
