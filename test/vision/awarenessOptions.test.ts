import { describe, expect, it } from "vitest";
import { AwarenessModel, DEFAULT_AWARENESS_OPTIONS, type AwarenessOptions, type Heard } from "sightline";
import { DT, run, sight } from "../fixtures/awarenessRuns.js";

/** A guard that hears a footstep every 5 steps and sees the player every other step, for 120 steps. */
function watch(model: AwarenessModel): number[] {
  const heard: Heard = { observerId: "guard", targetId: "player", level: 0.8, position: { x: 6, y: 0 } };
  const levels: number[] = [];
  for (let t = 0; t < 120; t++) {
    model.step(t, DT, t % 2 === 0 ? [sight(6)] : [], t % 5 === 0 ? [heard] : []);
    levels.push(model.level("guard", "player"));
  }
  return levels;
}

describe("awareness options", () => {
  it("an option left undefined takes its default, as HearingOptions and ViewCullingOptions do", () => {
    const every = Object.fromEntries([...Object.keys(DEFAULT_AWARENESS_OPTIONS), "onEvent", "check"].map((k) => [k, undefined])) as AwarenessOptions;
    expect(Object.keys(every)).toContain("hearingFill");
    expect(() => new AwarenessModel({ hearingFill: undefined })).not.toThrow();
    const defaults = watch(new AwarenessModel());
    expect(defaults.at(-1)).toBeGreaterThan(0);
    expect(watch(new AwarenessModel(every))).toEqual(defaults);
    expect(watch(new AwarenessModel({ stateFactor: { alerted: undefined, idle: 1 } }))).toEqual(defaults);
  });

  it("an option set to a value still counts, beside others left undefined", () => {
    const faster = new AwarenessModel({ fillRate: 0.8, hearingFill: undefined });
    const plain = new AwarenessModel();
    run(faster, 10, () => [sight(6)]);
    run(plain, 10, () => [sight(6)]);
    expect(faster.level("guard", "player")).toBeGreaterThan(1.5 * plain.level("guard", "player"));
  });

  it.each([
    ["AwarenessOptions.hearingceiling", { hearingceiling: 1 }],
    ["AwarenessOptions.fillrate", { fillRate: 0.5, fillrate: 0.5 }],
    ["AwarenessOptions.stateFactor", { stateFactor: 5 }],
    ["AwarenessOptions.stateFactor", { stateFactor: null }],
    ["AwarenessOptions.stateFactor", { stateFactor: [2, 2] }],
    ["AwarenessOptions.stateFactor.alertd", { stateFactor: { alertd: 5 } }],
  ])("a misspelt or mistyped option is refused with a RangeError naming %s", (field, options) => {
    expect(() => new AwarenessModel(options as never)).toThrow(RangeError);
    expect(() => new AwarenessModel(options as never)).toThrow(new RegExp(`^${field.replaceAll(".", "\\.")} `));
  });

  it("a misspelt ceiling says which option was meant, rather than leaving hearing unable to spot", () => {
    expect(() => new AwarenessModel({ hearingceiling: 1 } as never)).toThrow(/hearingCeiling/);
  });
});
