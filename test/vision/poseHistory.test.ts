import { describe, expect, it } from "vitest";
import { PoseHistory, type Pose } from "sightline";

const DEG = Math.PI / 180;

describe("a history of poses", () => {
  it("a guard turning through 180 degrees (from 170 to -170) was facing 180 halfway, not 0", () => {
    const history = new PoseHistory();
    history.record("guard", 0, 0, 0, 170 * DEG);
    history.record("guard", 100, 2, 4, -170 * DEG);
    const out: Pose = { x: 0, y: 0, facing: 0 };
    expect(history.poseAt("guard", 50, out)).toBe(true);
    expect(out.x).toBeCloseTo(1, 12);
    expect(out.y).toBeCloseTo(2, 12);
    expect(Math.abs(Math.abs(out.facing) - Math.PI)).toBeLessThan(1e-12);
    history.poseAt("guard", 75, out);
    expect(out.facing).toBeCloseTo(-175 * DEG, 12);
  });

  it("before the oldest pose it is the oldest; after the newest, the newest; nothing for an unknown id", () => {
    const history = new PoseHistory({ length: 3 });
    for (let t = 0; t < 10; t++) history.record("g", t * 50, t, 0, 0);
    const out: Pose = { x: -1, y: -1, facing: -1 };
    history.poseAt("g", 0, out);
    expect(out.x).toBe(7); // only the last 3 are kept
    history.poseAt("g", 10_000, out);
    expect(out.x).toBe(9);
    expect(history.poseAt("nobody", 0, out)).toBe(false);
    history.remove("g");
    expect(history.poseAt("g", 0, out)).toBe(false);
  });

  it("a pose recorded again at the same time replaces the last one", () => {
    const history = new PoseHistory();
    history.record("g", 100, 1, 1, 0);
    history.record("g", 100, 5, 5, 1);
    const out: Pose = { x: 0, y: 0, facing: 0 };
    history.poseAt("g", 100, out);
    expect(out).toEqual({ x: 5, y: 5, facing: 1 });
  });

  it("bad input is a RangeError naming the field", () => {
    const history = new PoseHistory();
    expect(() => history.record("g", NaN, 0, 0, 0)).toThrow(/PoseHistory.record time/);
    expect(() => history.record("g", 0, 0, Infinity, 0)).toThrow(/PoseHistory.record y/);
    expect(() => history.record("", 0, 0, 0, 0)).toThrow(/PoseHistory.record id/);
    expect(() => new PoseHistory({ length: 1 })).toThrow(/PoseHistoryOptions.length/);
  });
});
