import { describe, expect, it } from "vitest";
import { parseLoadTestArgs, UsageError, type LoadTestOptions } from "../../loadtest/options.js";
import { auditedRunArgs, formatAuditedRun, formatPeers, formatRatioVerdict, MAX_PAIRS, parsePeersArgs, PEER_LOAD, peerProblems, peersVerdict, runArgs, type PeersOptions } from "../../loadtest/peer/peerTable.js";
import type { RunRecord } from "../../loadtest/loadRun.js";
import type { StatsReading } from "../../loadtest/serverWatch.js";
import { formatSpread } from "../../loadtest/report/severalRuns.js";
import { summarize, type LoadTestSummary } from "../../loadtest/report/summary.js";
import { formatTable } from "../../loadtest/report/summaryTable.js";

const refusal = (...args: string[]) => {
  try {
    parsePeersArgs(args);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${args.join(" ")}`);
};

describe("npm run loadtest:peers flags", () => {
  it("runs 2 pairs of the capacity load by default with the audit off on both sides, ours without doors and smoke like the peer, then one audited run of ours", () => {
    const o = parsePeersArgs([]) as PeersOptions;
    expect(o).toMatchObject({ pairs: 2, maxRatio: 1.4, auditedRun: 0.1, resultsDir: "docs/results", load: [...PEER_LOAD] });
    const ours = parseLoadTestArgs(runArgs(o, "stealth", "a.json")) as LoadTestOptions;
    const plain = parseLoadTestArgs(runArgs(o, "plain", "b.json")) as LoadTestOptions;
    for (const side of [ours, plain]) expect(side).toMatchObject({ local: true, map: "compound", rooms: 12, clients: 300, guards: [64], duration: 120, warmup: 20, ramp: 20, decodeSample: 0.05, resultsDir: "docs/results" });
    expect(ours).toMatchObject({ server: "stealth", audit: 0, label: "peers-stealth", output: "a.json", levelPlay: "off" });
    const audited = parseLoadTestArgs(auditedRunArgs(o, "c.json")) as LoadTestOptions;
    expect(audited).toMatchObject({ server: "stealth", audit: 0.1, label: "peers-stealth-audited", output: "c.json", levelPlay: "off", clients: 300, rooms: 12 });
    expect(plain).toMatchObject({ server: "plain", audit: 0, label: "peers-plain", output: "b.json" });
    // Ours hears (the default); the peer has no hearing.
    expect(ours.hearing).toBe("on");
    expect(plain.hearing).toBe("off");
  });

  it("passes --hearing through to ours", () => {
    const o = parsePeersArgs(["--hearing", "off"]) as PeersOptions;
    expect((parseLoadTestArgs(runArgs(o, "stealth", "a.json")) as LoadTestOptions).hearing).toBe("off");
    expect((parseLoadTestArgs(runArgs(o, "plain", "b.json")) as LoadTestOptions).hearing).toBe("off");
    expect(refusal("--hearing", "loud")).toMatch(/--hearing must be on or off/);
  });

  it("lets later load flags override the load, and bounds the pairs", () => {
    const o = parsePeersArgs(["--pairs", "1", "--clients", "4", "--rooms", "2", "--results-dir", "/tmp/x"]) as PeersOptions;
    expect(o.pairs).toBe(1);
    expect(parseLoadTestArgs(runArgs(o, "plain", "b.json"))).toMatchObject({ clients: 4, rooms: 2, resultsDir: "/tmp/x" });
    expect(refusal("--pairs", "0")).toMatch(/--pairs must be a whole number from 1 to/);
    expect(refusal("--pairs", String(MAX_PAIRS + 1))).toMatch(/--pairs/);
    expect(refusal("--pairs")).toMatch(/--pairs needs a value/);
    expect(parsePeersArgs(["--help"])).toBe("help");
    expect(parsePeersArgs(["--max-ratio", "1.25", "--audited-run", "0"])).toMatchObject({ maxRatio: 1.25, auditedRun: 0 });
    expect(refusal("--max-ratio", "0")).toMatch(/--max-ratio must be a positive number/);
    expect(refusal("--max-ratio", "lots")).toMatch(/--max-ratio/);
    expect(refusal("--audited-run", "2")).toMatch(/--audited-run must be the share of clients to audit, 0..1/);
  });

  it("--against hearing-off sets ours with hearing on against ours made deaf, both with doors and smoke, held to a tenth", () => {
    const o = parsePeersArgs(["--against", "hearing-off", "--pairs", "3"]) as PeersOptions;
    expect(o).toMatchObject({ against: "hearing-off", pairs: 3, maxRatio: 1.1 });
    const on = parseLoadTestArgs(runArgs(o, "stealth", "a.json")) as LoadTestOptions;
    const off = parseLoadTestArgs(runArgs(o, "plain", "b.json")) as LoadTestOptions;
    for (const side of [on, off]) expect(side).toMatchObject({ local: true, server: "stealth", levelPlay: "on", audit: 0, clients: 300, rooms: 12, fairness: "on" });
    expect(on).toMatchObject({ hearing: "on", label: "peers-hearing-on" });
    expect(off).toMatchObject({ hearing: "off", label: "peers-hearing-off" });
    const audited = parseLoadTestArgs(auditedRunArgs(o, "c.json")) as LoadTestOptions;
    expect(audited).toMatchObject({ server: "stealth", hearing: "on", levelPlay: "on", audit: 0.1, label: "peers-hearing-on-audited" });
    expect((parsePeersArgs(["--against", "hearing-off", "--max-ratio", "1.05"]) as PeersOptions).maxRatio).toBe(1.05);
    // Doors and smoke by default; a run without them may be asked for, on both sides alike.
    const bare = parsePeersArgs(["--against", "hearing-off", "--level-play", "off"]) as PeersOptions;
    for (const side of ["stealth", "plain"] as const) expect((parseLoadTestArgs(runArgs(bare, side, "a.json")) as LoadTestOptions).levelPlay).toBe("off");
    expect((parseLoadTestArgs(auditedRunArgs(bare, "c.json")) as LoadTestOptions).levelPlay).toBe("off");
    expect(refusal("--against", "hearing-off", "--hearing", "off")).toMatch(/--hearing is set by the peers command/);
    expect(refusal("--against", "loud")).toMatch(/--against must be plain or hearing-off/);
  });

  it("takes its own flags as --flag=value too, so the summaries land where they were asked to", () => {
    const o = parsePeersArgs(["--results-dir=/tmp/elsewhere", "--pairs=3", "--max-ratio=2", "--against=hearing-off", "--audited-run=0", "--clients=40"]) as PeersOptions;
    expect(o).toMatchObject({ resultsDir: "/tmp/elsewhere", pairs: 3, maxRatio: 2, against: "hearing-off", auditedRun: 0 });
    expect(parseLoadTestArgs(runArgs(o, "stealth", "a.json"))).toMatchObject({ resultsDir: "/tmp/elsewhere", clients: 40 });
    expect(refusal("--pairs=0")).toMatch(/--pairs must be a whole number/);
    expect(refusal("--server=plain")).toMatch(/--server is set by the peers command/);
  });

  it("refuses a blank number rather than reading it as 0 (a blank --audited-run would skip the audit)", () => {
    expect(refusal("--audited-run", "")).toMatch(/--audited-run must be the share of clients to audit/);
    expect(refusal("--audited-run", " ")).toMatch(/--audited-run/);
    expect(refusal("--audited-run=")).toMatch(/--audited-run/);
    expect(refusal("--pairs", "")).toMatch(/--pairs must be a whole number/);
    expect(refusal("--max-ratio", " ")).toMatch(/--max-ratio must be a positive number/);
  });

  it("refuses the flags it sets for each run, and bad load flags before anything starts", () => {
    for (const flag of ["--server", "--runs", "--label", "--output", "--endpoint"]) expect(refusal(flag, "x")).toMatch(new RegExp(`${flag} is set by the peers command`));
    expect(refusal("--clients", "lots")).toMatch(/--clients must be a number/);
    expect(refusal("--frobnicate")).toMatch(/frobnicate/);
  });
});

/** A summary with the figures the peers table reads. */
function summary(patchMin: number, lagP99: number, cpu: number, clients: number, ok = true): LoadTestSummary {
  return {
    ok,
    problems: ok ? [] : ["2 error(s)"],
    clients: { atEnd: clients },
    traffic: { bytesPerClientPerSecond: 3000 },
    server: { patchRatePerRoom: { min: patchMin }, loopLagMs: { p99: lagP99, max: lagP99 * 4 }, cpuPercentOfCore: cpu, tickMs: { p50: 1 }, memoryMB: { heapEnd: 80, rssEnd: 200 } },
  } as unknown as LoadTestSummary;
}

describe("the peers table", () => {
  it("sets ours beside the plain peer with each pair's ratio and the median over pairs", () => {
    const text = formatPeers([
      { stealth: summary(19.5, 30, 90, 300), plain: summary(20, 10, 60, 300) },
      { stealth: summary(19.9, 20, 80, 300), plain: summary(19.8, 10, 40, 300) },
    ]);
    const row = (label: string) => text.split("\n").find((l) => l.startsWith(label))!;
    expect(text.split("\n")[0]).toMatch(/^figure\s+ours\s+plain\s+ours\/plain\s+pair 1: ours \/ plain = ratio\s+pair 2/);
    expect(row("event-loop lag p99 over the run, ms")).toMatch(/25\s+10\s+2\.5\s+30 \/ 10 = 3\s+20 \/ 10 = 2$/);
    // CPU per client: 90% of a core over 300 clients is 3 ms of CPU per client per second.
    expect(row("server CPU per client, ms / s")).toMatch(/2\.83\s+1\.67\s+1\.75\s+3 \/ 2 = 1\.5\s+2\.67 \/ 1\.33 = 2$/);
    expect(row("patches / s per room, slowest room")).toMatch(/19\.7\s+19\.9\s+0\.99/);
  });

  it("prints n/a for a run that did not complete or has no server figures, and never calls such a set ok", () => {
    const pairs = [{ stealth: summary(19.5, 30, 90, 300), plain: undefined }, { stealth: { ...summary(19, 20, 80, 300), server: null }, plain: summary(20, 10, 40, 300, false) }];
    const text = formatPeers(pairs);
    expect(text).toMatch(/event-loop lag p99 over the run, ms\s+30\s+10\s+n\/a\s+30 \/ n\/a = n\/a\s+n\/a \/ 10 = n\/a/);
    expect(peerProblems(pairs)).toEqual(["the plain run of pair 1 did not complete", "the plain run of pair 2: 2 error(s)"]);
    expect(peerProblems([{ stealth: summary(19, 9, 50, 300), plain: summary(20, 5, 30, 300) }])).toEqual([]);
  });
});

describe("the peers verdict", () => {
  const audited = (leaks: number, clientTicks: number): LoadTestSummary => ({
    ...summary(19.9, 8, 80, 300, leaks === 0),
    problems: leaks === 0 ? [] : [`culling audit: ${leaks} leak(s), 0 pop-in(s), 0 miss(es)`],
    server: { ...summary(19.9, 8, 80, 300).server!, culling: { leaks, popIns: 0, misses: 0, soundLeaks: 0, auditedClientTicks: clientTicks, soundsAudited: 40, failures: [] } },
  }) as unknown as LoadTestSummary;

  it("holds every pair's CPU per client to the ratio target, and says in how many it held", () => {
    // 84% and 60% of a core over 300 clients against 60% and 40%: 1.4 and 1.5.
    const pairs = [{ stealth: summary(19.9, 8, 84, 300), plain: summary(20, 5, 60, 300) }, { stealth: summary(19.9, 8, 60, 300), plain: summary(20, 5, 40, 300) }];
    expect(formatRatioVerdict(pairs, 1.4)).toBe("CPU per client, ours / plain, by pair: 1.400, 1.500 (target at most 1.4: met in 1 of 2 pairs)");
    expect(peersVerdict(pairs, 1.4)).toEqual(["pair 2: our CPU per client 1.500 times the peer's, above 1.4"]);
    expect(peersVerdict(pairs, 1.5)).toEqual([]);
    expect(peersVerdict([{ stealth: summary(19.9, 8, 84, 300), plain: undefined }], 1.4)).toEqual(["the plain run of pair 1 did not complete", "pair 1: no CPU-per-client ratio"]);
  });

  it("against ours with hearing off, names that side in the table, the verdict and the saturation it finds", () => {
    const pairs = [{ stealth: summary(19.9, 8, 84, 300), plain: summary(19.9, 7, 80, 300) }, { stealth: summary(19.9, 8, 95, 300), plain: summary(19.9, 7, 80, 300) }];
    expect(formatPeers(pairs, "hearing-off").split("\n")[0]).toMatch(/^figure\s+ours\s+hearing off\s+ours\/hearing off\s+pair 1: ours \/ hearing off = ratio/);
    expect(formatRatioVerdict(pairs, 1.1, "hearing-off")).toBe("CPU per client, ours / hearing off, by pair: 1.050, 1.188 (not comparable) (target at most 1.1: met in 1 of 2 pairs)");
    expect(peersVerdict(pairs, 1.1, undefined, "hearing-off")).toEqual([
      "pair 2: our CPU per client 1.188 times that of ours with hearing off, above 1.1",
      "pair 2: not comparable (ours at 95.0% of a core)",
    ]);
    expect(peerProblems([{ stealth: undefined, plain: summary(19.9, 7, 80, 300, false) }], "hearing-off")).toEqual(["the hearing-on run of pair 1 did not complete", "the hearing-off run of pair 1: 2 error(s)"]);
  });

  it("does not count a pair whose server was saturated, or where ours sent fewer patches, as meeting the ratio", () => {
    // Both at a full core: our CPU per client cannot rise past the peer's by much, whatever ours costs.
    const saturated = [{ stealth: summary(3, 8, 100.4, 300), plain: summary(17.5, 5, 95.1, 300) }];
    expect(formatRatioVerdict(saturated, 1.4)).toBe("CPU per client, ours / plain, by pair: 1.056 (not comparable) (target at most 1.4: met in 0 of 1 pairs)");
    expect(peersVerdict(saturated, 1.4)).toEqual(["pair 1: not comparable (ours at 100.4% of a core, the peer at 95.1% of a core, ours sent 3.0 patches a second in its slowest room, the peer 17.5)"]);
    // Under a core, but ours fell behind on patches: it did less of the work the ratio is about.
    const behind = [{ stealth: summary(15, 8, 80, 300), plain: summary(19.9, 5, 60, 300) }];
    expect(peersVerdict(behind, 1.4)).toEqual(["pair 1: not comparable (ours sent 15.0 patches a second in its slowest room, the peer 19.9)"]);
  });

  it("judges saturation by the busiest process of a side that ran several, not by their sum", () => {
    // Two processes at 52% and 49% of a core each: 101% summed, and neither saturated.
    const split = (cpus: number[]): LoadTestSummary => {
      const s = summary(19.9, 8, cpus.reduce((a, b) => a + b, 0), 300);
      return { ...s, server: { ...s.server!, processes: cpus.map((c) => ({ cpuPercentOfCore: c })) } } as unknown as LoadTestSummary;
    };
    expect(peersVerdict([{ stealth: split([52, 49]), plain: split([50, 46]) }], 1.1, undefined, "hearing-off")).toEqual([]);
    expect(peersVerdict([{ stealth: split([92, 40]), plain: split([50, 46]) }], 1.5, undefined, "hearing-off")).toEqual(["pair 1: not comparable (ours at 92.0% of a core in its busiest process)"]);
  });

  it("does not count a pair whose load generator was saturated: its bots drove less than the load", () => {
    const lagging = { ...summary(19.9, 8, 60, 300), generator: { cpuPercentOfCore: 98, loopLagP99Ms: 120 } } as unknown as LoadTestSummary;
    expect(peersVerdict([{ stealth: lagging, plain: summary(20, 5, 50, 300) }], 1.4)).toEqual(["pair 1: not comparable (the load generator of ours lagging 120.0 ms (p99))"]);
  });

  it("never counts a side that reports no CPU as a met ratio of 0", () => {
    const idle = [{ stealth: summary(19.9, 8, 0, 300), plain: summary(20, 5, 60, 300) }];
    expect(formatRatioVerdict(idle, 1.4)).toBe("CPU per client, ours / plain, by pair: n/a (target at most 1.4: met in 0 of 1 pairs)");
    expect(peersVerdict(idle, 1.4)).toEqual(["pair 1: no CPU-per-client ratio"]);
  });

  it("fails on an audited run that leaked, audited nothing or did not finish, and reports what it audited", () => {
    const pairs = [{ stealth: summary(19.9, 8, 60, 300), plain: summary(20, 5, 50, 300) }];
    expect(peersVerdict(pairs, 1.4, { share: 0.1, run: audited(0, 90_000) })).toEqual([]);
    expect(formatAuditedRun(audited(0, 90_000), 0.1)).toBe("audited run of ours (--audit 0.1): leaks / pop-ins / misses / sound leaks 0 / 0 / 0 / 0 over 90000 client-ticks and 40 sounds audited");
    expect(peersVerdict(pairs, 1.4, { share: 0.1, run: audited(2, 90_000) })).toEqual(["the audited run: culling audit: 2 leak(s), 0 pop-in(s), 0 miss(es)"]);
    expect(peersVerdict(pairs, 1.4, { share: 0.1, run: audited(0, 0) })).toEqual(["the audited run audited no client-tick"]);
    expect(peersVerdict(pairs, 1.4, { share: 0.1, run: undefined })).toEqual(["the audited run did not complete"]);
    expect(formatAuditedRun(undefined, 0.1)).toBe("audited run of ours (--audit 0.1): did not complete");
  });
});

/** A `/stats` reading of the plain peer: one room, no vision or culling figures. */
function plainReading(atMs: number, patches: number, cpuSeconds: number): StatsReading {
  const window = { seq: atMs, endedAtMs: atMs, p50: 1, p99: 4, max: 9, samples: 500, distribution: [[1, 0.5], [4, 0.99], [9, 1]] as [number, number][] };
  return {
    sampledAtMs: atMs,
    cpu: { userSeconds: cpuSeconds, systemSeconds: 0 },
    memory: { rss: 150e6, heapUsed: 40e6, heapTotal: 60e6 },
    heapAfterMajorGc: null,
    eventLoopLagMs: { windowSeconds: 5, last: window, current: window },
    rooms: [{
      roomId: "r1", clients: 25, guards: 64, cullingEnabled: false, ticks: patches, patches,
      tickMs: { p50: 0.5, p99: 2, max: 4 }, lateMs: { p50: 0, p99: 3, max: 5 },
      joinMs: { p50: 1, p99: 2, max: 2, samples: 25 }, joinSamplesMs: [1, 2], patchMs: { p50: 0.3, p99: 1, max: 2 },
      inputsApplied: 100, rejected: { total: 0 }, errorDisconnects: 0, exceptions: 0,
    }],
  };
}

describe("a plain peer's summary", () => {
  it("prints vision and culling as n/a, never as a clean audit, and still holds the run to the targets it can judge", () => {
    const options = parseLoadTestArgs(["--local", "--server", "plain", "--targets", "--clients", "25"]) as LoadTestOptions;
    const watch = { marks: new Map([["start", plainReading(0, 0, 0)], ["warm", plainReading(1000, 20, 0.1)], ["end", plainReading(11_000, 120, 0.6)]]), lagWindows: new Map(), heapAfterGc: [], heap: [] };
    const run = {
      options, endpoint: "ws://127.0.0.1:1", startedAt: "", aborted: false,
      clients: { target: 25, joined: 25, failed: 0, peak: 25, atEnd: 25, churned: 0, decoding: 2 }, joinFailures: [], roomIds: ["r1"],
      rampSeconds: 1, measuredSeconds: 10,
      traffic: { warm: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, end: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, framesOutWarm: 0, framesOutEnd: 0, clientSeconds: 250 },
      roundTripMs: { p50: 1, p99: 2, max: 3, samples: 10 }, views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] }, holdLimit: undefined,
      errors: { total: 0, counts: {}, examples: [] }, generator: { cpuPercentOfCore: 10, loopLagP99Ms: 1 }, servers: [watch], serverNote: undefined,
      joins: { local: [], cross: [] },
    } as unknown as RunRecord;
    const s = summarize(run);
    expect(s.server).toMatchObject({ culling: null, visionRaysPerTick: null, stalenessMaxTicks: null, awarenessEventsPerRoomPerSecond: null, viewChurnPerClientTick: null, cpuPercentOfCore: 5 });
    // 100 patches over 10 s is 10 per second: the target is missed, and the verdict says so.
    expect(s.ok).toBe(false);
    expect(s.problems).toEqual([expect.stringContaining("patch rate 10 per s")]);
    const table = formatTable(s);
    expect(table).toMatch(/^result\s+FAILED: patch rate 10 per s/m);
    expect(table).toMatch(/^leaks \/ pop-ins \/ misses \/ sound leaks\s+n\/a \(no culling to audit\)$/m);
    // No hearing either: nothing heard, and no count of noises made shown as 0.
    expect(s.server!.noises).toBeNull();
    expect(table).toMatch(/^noises made: footsteps and thuds \(whole run\)\s+n\/a/m);
    expect(table).toMatch(/^noises \/ client \/ s received\s+0 \(the plain peer has no hearing\)$/m);
    expect(table).toMatch(/^vision rays \/ tick, staleness max\s+n\/a$/m);
    expect(table).toMatch(/^server: guards per room, culling\s+64, none \(the plain peer/m);
    expect(formatSpread([s, s])).toMatch(/leaks \+ pop-ins \+ misses \+ sound leaks\s+n\/a/);
  });
});
