import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_HEARING_BENCH_OPTIONS, hearingBenchOptionsFrom, onOffSummary, runHearingBench, type HearingLine } from "../../loadtest/bench/hearing.js";

/**
 * The hearing bench measures something: a short run of both rooms must make noises in every gait, have
 * guards hear some, deliver some to clients (some bent around walls, with no sound leak in any audited
 * delivery), and its "off" rooms must make none. A bench whose noises nobody heard, or whose "on" room was
 * secretly deaf, would still print a plausible ratio near 1; these checks tell the two apart. No server:
 * the rooms are stepped directly.
 */
describe("npm run bench -- hearing", () => {
  let lines: HearingLine[] = [];
  // Through JSON, as a reader of the bench's output gets it. The compound room in teams of 1 (the load
  // test's free-for-all), where players are told each other's footsteps too: its first way around a wall
  // comes about 120 ticks in (the players start at the spawns, in the open), its first bent delivery about
  // 175 in. The rooms are seeded and nothing in them reads a clock, so these counts are the same every run.
  beforeAll(() => {
    lines = JSON.parse(JSON.stringify(runHearingBench({ compound: { ticks: 240, warmup: 10, teamSize: 1 }, vision: { ticks: 20, warmup: 5 } })));
  }, 60_000);
  const of = (room: string, hearing: string) => lines.find((l) => l.room === room && l.hearing === hearing)!;
  const summaryOf = (room: string) => lines.find((l) => l.room === room && l.summary === true)!;

  it("is registered", () => {
    expect(readFileSync(new URL("../../loadtest/bench/index.ts", import.meta.url), "utf8")).toMatch(/\bhearing: hearingBench\b/);
  });

  it("prints on, off and a summary per room, with the times the docs read", () => {
    expect(lines.map((l) => [l.room, l.summary === true ? "summary" : l.hearing])).toEqual([
      ["compound", "on"], ["compound", "off"], ["compound", "summary"],
      ["vision", "on"], ["vision", "off"], ["vision", "summary"],
    ]);
    for (const l of lines.filter((x) => x.summary !== true)) {
      const ms = l.msPerTick as Record<string, number>;
      for (const k of ["mean", "trimmedMean", "p50", "p99"]) expect(ms[k], `${l.room} ${l.hearing} ${k}`).toBeGreaterThan(0);
      expect(l.ticks).toBe(l.room === "compound" ? 240 : 20);
    }
    for (const room of ["compound", "vision"]) {
      const s = summaryOf(room);
      for (const k of ["mean", "trimmedMean", "p50", "p99"]) expect(Number.isFinite((s.ratio as Record<string, number>)[k]), `${room} ${k}`).toBe(true);
      expect(typeof s.holds).toBe("boolean");
      expect(s.target).toMatch(/1\.1x/);
    }
    const parts = of("compound", "on").partsMsPerTick as Record<string, number>;
    expect(Object.keys(parts)).toEqual(["step", "culling", "delivery"]);
    for (const k of ["step", "culling", "delivery"]) expect(parts[k], k).toBeGreaterThan(0);
    expect(of("compound", "on").auditMsPerTick as number).toBeGreaterThan(0);
    expect(of("compound", "on").guards).toBe(64);
    expect(of("compound", "on").teamSize).toBe(1);
  });

  it("compound, on: noises in every gait, guards hear, clients are told, some of it around walls, no leak", () => {
    const on = of("compound", "on");
    expect(on.noisesPerTick as number).toBeGreaterThan(0);
    const steps = on.footsteps as Record<string, number>;
    for (const gait of ["run", "walk", "crouch"]) expect(steps[gait], gait).toBeGreaterThan(0);
    expect(on.heardPerTick as number).toBeGreaterThan(0);
    expect(on.deliveriesPerTick as number).toBeGreaterThan(0);
    expect(on.messagesPerTick as number).toBeGreaterThan(0);
    expect(on.noiseBytesPerTick as number).toBeGreaterThan(0);
    const counts = on.hearingCounts as Record<string, number>;
    expect(counts.detours).toBeGreaterThan(0);
    expect(on.bentDeliveries as number).toBeGreaterThan(0);
    // Told of footsteps whose emitter their view lacks: no id, no position (the audit checks each).
    expect(on.namedPerTick as number).toBeLessThan(on.deliveriesPerTick as number);
    expect(on.soundsAudited as number).toBeGreaterThan(0);
    expect(on.soundLeaks).toBe(0);
    expect(on.auditFailures).toBeUndefined();
  });

  it("compound, off: the room makes no noise and hears nothing", () => {
    const off = of("compound", "off");
    for (const k of ["noisesPerTick", "heardPerTick", "deliveriesPerTick", "messagesPerTick", "noiseBytesPerTick", "bentDeliveries", "hearingEvents", "soundsAudited", "soundLeaks"]) {
      expect(off[k], k).toBe(0);
    }
    const counts = off.hearingCounts as Record<string, number>;
    expect(Object.keys(counts)).toEqual(Object.keys(of("compound", "on").hearingCounts as object));
    for (const [k, v] of Object.entries(counts)) expect(v, k).toBe(0);
    expect(off.footsteps).toEqual({ run: 0, walk: 0, crouch: 0 });
  });

  it("vision: guards hear footsteps, some around walls, only when on", () => {
    const on = of("vision", "on");
    expect(on.noisesPerTick as number).toBeGreaterThan(0);
    expect(on.heardPerTick as number).toBeGreaterThan(0);
    expect((on.hearingCounts as Record<string, number>).detours).toBeGreaterThan(0);
    const off = of("vision", "off");
    for (const k of ["noisesPerTick", "heardPerTick", "hearingEvents"]) expect(off[k], k).toBe(0);
    for (const [k, v] of Object.entries(off.hearingCounts as Record<string, number>)) expect(v, k).toBe(0);
    // The same level and poses for both: sight is the same work.
    expect(off.sightingsPerTick).toBe(on.sightingsPerTick);
    expect(off.raysPerTick).toBe(on.raysPerTick);
  });

  it("vision: each variant is timed by the faster of its two rooms", () => {
    for (const hearing of ["on", "off"]) {
      const l = of("vision", hearing);
      const means = l.roomMeans as number[];
      expect(means, hearing).toHaveLength(2);
      expect((l.msPerTick as Record<string, number>).mean, hearing).toBe(Math.min(...means));
    }
    const s = summaryOf("vision");
    const on = (of("vision", "on").msPerTick as Record<string, number>).mean;
    const off = (of("vision", "off").msPerTick as Record<string, number>).mean;
    expect((s.ratio as Record<string, number>).mean).toBeCloseTo(on / off, 2);
  });

  it("judges the target on the unrounded means: 0.66033 against 0.6 ms prints 1.1 and does not hold", () => {
    const line = (mean: number): HearingLine => ({ msPerTick: { mean, trimmedMean: mean, p50: mean, p99: mean } });
    const s = onOffSummary("compound", line(0.66), line(0.6), 0.66033, 0.6);
    expect((s.ratio as Record<string, number>).mean).toBe(1.1);
    expect(s.holds).toBe(false);
    expect(onOffSummary("compound", line(0.66), line(0.6), 0.65994, 0.6).holds).toBe(true);
  });

  it("takes its tick counts from the environment", () => {
    expect(hearingBenchOptionsFrom({})).toEqual(DEFAULT_HEARING_BENCH_OPTIONS);
    expect(hearingBenchOptionsFrom({ BENCH_HEARING_TICKS: "40", BENCH_HEARING_WARMUP: "0", BENCH_HEARING_VISION_TICKS: "20", BENCH_HEARING_VISION_WARMUP: "3" })).toEqual({
      compound: { ticks: 40, warmup: 0 }, vision: { ticks: 20, warmup: 3 },
    });
    expect(() => hearingBenchOptionsFrom({ BENCH_HEARING_TICKS: "0" })).toThrow(/BENCH_HEARING_TICKS/);
    expect(() => hearingBenchOptionsFrom({ BENCH_HEARING_VISION_WARMUP: "1.5" })).toThrow(/BENCH_HEARING_VISION_WARMUP/);
    expect(() => hearingBenchOptionsFrom({ BENCH_HEARING_WARMUP: " " })).toThrow(/BENCH_HEARING_WARMUP/);
  });
});
