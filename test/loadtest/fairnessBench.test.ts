import { describe, expect, it } from "vitest";
import { runFairnessBench } from "../../loadtest/bench/fairness.js";

/**
 * The fairness bench, short: its episodes produce detections in both modes, lag makes the plain model
 * count fill the player's screen never showed, and the fairness mode counts none of it and spots players
 * in plain view as soon. So the bench cannot quietly become vacuous.
 */
describe("the fairness bench", () => {
  it("at 0 and 200 ms: detections either way; unseen fill only with the mode off, and more of it at 200 ms; none late", () => {
    const lines = runFairnessBench(40, [0, 200]);
    expect(lines.map((l) => `${l.roundTripMs} ${l.mode}`)).toEqual(["0 off", "0 on", "200 off", "200 on"]);
    for (const l of lines) expect(l.detections).toBeGreaterThan(20);
    const [off0, on0, off200, on200] = lines as [typeof lines[0], typeof lines[0], typeof lines[0], typeof lines[0]];
    expect(off200.unseenFillShare).toBeGreaterThan(0.1);
    expect(off200.unseenFillShare).toBeGreaterThan(off0.unseenFillShare);
    for (const on of [on0, on200]) {
      expect(on.unfairSpots).toBe(0);
      expect(on.unseenFillShare).toBe(0);
      expect(on.lateSpots).toBe(0);
      expect(on.checks as number).toBeGreaterThan(0);
    }
    // The mode refuses what the plain model counts: fewer detections at 200 ms.
    expect(on200.detections).toBeLessThan(off200.detections);
  });
});
