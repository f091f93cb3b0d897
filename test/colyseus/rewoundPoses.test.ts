import { Rewind } from "@colyseus/core";
import { describe, expect, it } from "vitest";
import type { Pose } from "sightline";
import { RewoundPoses } from "../../server/colyseus/rewoundPoses.js";

/**
 * What `RewoundPoses` uses of a room: its rewind, its clock, and its input stream's render times; and
 * `patch(ms)`, Colyseus's snapshot at a patch (`broadcastPatch` records the rewind at the clock's time).
 */
function fakeRoom(renderTimes: Map<string, number>) {
  const room = {
    clock: { elapsedTime: 0 },
    allowRewindState: (options: { maxRewindMs: number }) => Rewind.get(room, options),
    inputs: { get: (sid: string) => ({ renderTime: renderTimes.get(sid) ?? 0 }) },
    patch: (patchMs: number) => Rewind.get(room).record(room.clock.elapsedTime, patchMs),
  };
  return room;
}

describe("poses rewound through Colyseus's Rewind", () => {
  it("a camera sweeping through 180 degrees is rewound along the shorter turn, and positions along the line", () => {
    const room = fakeRoom(new Map());
    const poses = new RewoundPoses(room as never, 250, () => undefined);
    const step = 50;
    // From 150 degrees on, 10 degrees a step, across +-180.
    for (let k = 0; k <= 6; k++) {
      room.clock.elapsedTime = k * step;
      poses.record("cam", k, 2 * k, ((150 + 10 * k) * Math.PI) / 180 - (150 + 10 * k > 180 ? 2 * Math.PI : 0));
      room.patch(step);
    }
    const out: Pose = { x: 0, y: 0, facing: 0 };
    expect(poses.poseAt("cam", 3.5 * step, out)).toBe(true);
    expect(out.x).toBeCloseTo(3.5, 9);
    expect(out.y).toBeCloseTo(7, 9);
    // 185 degrees, as -175: not a swing back through 0.
    expect(out.facing).toBeCloseTo((-175 * Math.PI) / 180, 9);
    expect(poses.poseAt("nobody", 0, out)).toBe(false);
  });

  it("many observers are recorded each step, and one forgotten is no longer, while one added later is rewound from its first record", () => {
    const room = fakeRoom(new Map());
    const poses = new RewoundPoses(room as never, 250, () => undefined);
    const step = 50;
    for (let k = 0; k <= 8; k++) {
      room.clock.elapsedTime = k * step;
      for (let g = 0; g < 20; g++) if (!(g === 7 && k > 4)) poses.record(`guard${g}`, g + k, -g, 0.1 * g);
      if (k === 4) poses.forget("guard7");
      if (k >= 6) poses.record("late", 100 + k, 0, 0);
      room.patch(step);
    }
    const out: Pose = { x: 0, y: 0, facing: 0 };
    for (const g of [0, 3, 19]) {
      expect(poses.poseAt(`guard${g}`, 2.5 * step, out)).toBe(true);
      expect(out.x).toBeCloseTo(g + 2.5, 9);
      expect(out.y).toBeCloseTo(-g, 9);
      expect(out.facing).toBeCloseTo(0.1 * g, 9);
    }
    expect(poses.poseAt("guard7", 2 * step, out)).toBe(false);
    // Before its first record, the earliest one stands.
    expect(poses.poseAt("late", 2 * step, out)).toBe(true);
    expect(out.x).toBe(106);
    expect(poses.poseAt("late", 7.5 * step, out)).toBe(true);
    expect(out.x).toBeCloseTo(107.5, 9);
  });

  it("a player's render time comes from its input stream; none (0, an unstamped input) or no client reads as unknown", () => {
    const times = new Map([["session-1", 840]]);
    const room = fakeRoom(times);
    const players = new Map([["hero", "session-1"], ["bot", "session-2"]]);
    const poses = new RewoundPoses(room as never, 250, (id) => players.get(id));
    expect(poses.renderTimeOf("hero")).toBe(840);
    expect(poses.renderTimeOf("bot")).toBeUndefined();
    expect(poses.renderTimeOf("guard")).toBeUndefined();
    room.clock.elapsedTime = 1000;
    expect(poses.now()).toBe(1000);
  });

  it("a non-finite pose is a RangeError naming the field", () => {
    const poses = new RewoundPoses(fakeRoom(new Map()) as never, 250, () => undefined);
    expect(() => poses.record("g", 0, 0, NaN)).toThrow(/RewoundPoses.record facing/);
    expect(() => poses.record("", 0, 0, 0)).toThrow(/RewoundPoses.record id/);
  });
});
