import { readFileSync } from "node:fs";
import { VisionSystem } from "sightline";
import { Occluders } from "sightline/occluders";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBenchLevel } from "../../loadtest/bench/benchLevel.js";
import { runDoorsBench, type DoorsLine } from "../../loadtest/bench/doors.js";
import { placeDoors } from "../../loadtest/bench/doorsSetup.js";

/**
 * The doors bench measures something: a short run of both rooms (45 ticks each, about 2 s) must toggle
 * doors, throw smoke, see doors decide sight, and print the fields docs/benchmarks.md tells readers to
 * look at. A bench whose doors hid nothing, or whose configurations were all secretly static, would still
 * print plausible ratios near 1; these checks are what tell the two apart.
 */
describe("npm run bench -- doors", () => {
  let lines: DoorsLine[] = [];
  // Through JSON, as a reader of the bench's output gets it.
  beforeAll(() => {
    lines = JSON.parse(JSON.stringify(runDoorsBench({ ticks: 40, warmup: 5, sampleEvery: 5 })));
  });
  const of = (room: string, config: string) => lines.find((l) => l.room === room && l.config === config)!;

  it("is registered", () => {
    expect(readFileSync(new URL("../../loadtest/bench/index.ts", import.meta.url), "utf8")).toMatch(/\bdoors: doorsBench\b/);
  });

  it("prints a setup line and six configurations per room, then the summary", () => {
    for (const room of ["vision", "culling"]) {
      const own = lines.filter((l) => l.room === room);
      expect(own.filter((l) => l.setup === true)).toHaveLength(1);
      expect(own.filter((l) => l.config !== undefined).map((l) => l.config)).toEqual([
        "static", "static (control)", "doors 8/s", "doors 64/s", "smoke", "doors 8/s + smoke",
      ]);
      for (const l of own.filter((x) => x.config !== undefined)) {
        const ms = l.msPerTick as Record<string, number>;
        const ratio = l.ratioToStatic as Record<string, number>;
        for (const k of ["mean", "trimmedMean", "p50", "p99"]) {
          expect(ms[k], `${room} ${l.config} ${k}`).toBeGreaterThan(0);
          expect(Number.isFinite(ratio[k]), `${room} ${l.config} ratio ${k}`).toBe(true);
        }
        expect(l.ticks).toBe(40);
        expect(typeof l.changesMsPerTick).toBe("number");
      }
      expect(of(room, "static").ratioToStatic).toEqual({ mean: 1, trimmedMean: 1, p50: 1, p99: 1 });
    }
    for (const l of lines.filter((x) => x.room === "culling" && x.config !== undefined)) {
      expect(l.pairsTestedPerUpdate as number).toBeGreaterThan(0);
      expect(l.occluderTestsPerUpdate as number).toBeGreaterThan(0);
      expect(typeof l.occluderTestsOverStatic).toBe("number");
    }
    const summary = lines.at(-1)!;
    expect(summary.summary).toBe(true);
    for (const room of ["vision", "culling"]) {
      expect(Object.keys(summary[room] as object)).toEqual(["mean", "trimmedMean", "p50"]);
      expect(Object.keys((summary.control as Record<string, object>)[room]!)).toEqual(["mean", "trimmedMean", "p50"]);
    }
    expect(typeof summary.holds).toBe("boolean");
  });

  it("toggles doors at the rates it says and throws smoke, only where it says", () => {
    for (const room of ["vision", "culling"]) {
      // 40 ticks at 20 Hz: 2 s.
      expect(of(room, "static").toggles).toBe(0);
      expect(of(room, "static (control)").toggles).toBe(0);
      expect(of(room, "doors 8/s").toggles).toBe(16);
      expect(of(room, "doors 64/s").toggles).toBe(128);
      expect(of(room, "smoke").toggles).toBe(0);
      expect(of(room, "doors 8/s").smokeThrown).toBe(0);
      expect(of(room, "smoke").smokeThrown as number).toBeGreaterThanOrEqual(1);
      expect(of(room, "doors 8/s + smoke").smokeThrown as number).toBeGreaterThanOrEqual(1);
    }
  });

  it("its doors decide sight, and the changes reach the engines' answers", () => {
    for (const room of ["vision", "culling"]) {
      const setup = lines.find((l) => l.room === room && l.setup === true)!;
      expect(setup.doors, room).toBeGreaterThan(0);
      expect(setup.hiddenWhenShut as number, room).toBeGreaterThan(0);
    }
    // The control is identical to static, answer for answer; the smoke and the busiest doors are not.
    expect(of("vision", "static (control)").visiblePairsDifferingFromStatic).toBe(0);
    expect(of("culling", "static (control)").qualifyingPairsDifferingFromStatic).toBe(0);
    expect(of("culling", "doors 64/s").qualifyingPairsDifferingFromStatic as number).toBeGreaterThan(0);
    expect(of("culling", "smoke").qualifyingPairsDifferingFromStatic as number).toBeGreaterThan(0);
    expect(of("vision", "smoke").visiblePairsDifferingFromStatic as number).toBeGreaterThan(0);
  });

  it("each door seals its gap: shut, it hides what is across it; open, it does not", () => {
    const level = buildBenchLevel({ seed: 77, walls: 360, guards: 0, players: 0, size: 120 });
    const doors = placeDoors(level, 8, 1);
    expect(doors).toHaveLength(8);
    for (const d of doors) {
      // Alone in an empty level, an eye 1 m before the door's middle and a target 1 m past it.
      const occluders = new Occluders();
      const id = occluders.addDoor(d.outline, { open: false });
      const o = d.outline;
      const mid = { x: o.reduce((s, p) => s + p.x, 0) / o.length, y: o.reduce((s, p) => s + p.y, 0) / o.length };
      // The outline's first and last corners face each other across its thickness.
      const len = Math.hypot(o[0]!.x - o[3]!.x, o[0]!.y - o[3]!.y);
      const n = { x: (o[0]!.x - o[3]!.x) / len, y: (o[0]!.y - o[3]!.y) / len };
      const vision = new VisionSystem(occluders);
      vision.addObserver("eye", { position: { x: mid.x + n.x, y: mid.y + n.y }, facing: Math.atan2(-n.y, -n.x), range: 10, fov: Math.PI / 2 });
      vision.addObservable("target", { position: { x: mid.x - n.x, y: mid.y - n.y }, radius: 0.1 });
      expect(vision.check("eye", "target")).toBe(false);
      occluders.setOpen(id, true);
      expect(vision.check("eye", "target")).toBe(true);
      vision.dispose();
    }
  });
});
