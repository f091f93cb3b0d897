import { describe, expect, it } from "vitest";
import type { Intent } from "../../loadtest/botBehaviour.js";
import { BotGait, newGaitTally, WALK_SHARE, WALK_STICK, type Gait } from "../../loadtest/botGait.js";
import { TICK_SECONDS } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";

const upright = (): Intent => ({ moveX: 0.6, moveY: 0.8, facing: 0, crouch: false });

describe("a bot's gait", () => {
  it("runs at full stick, walks at half stick in spells, and leaves a crouch and a stop as they are", () => {
    const gait = new BotGait(seededRandom(1), TICK_SECONDS, [0.5, 0.5]);
    const seen = new Set<Gait>();
    for (let t = 0; t < 2000; t++) {
      const intent = upright();
      const g = gait.pace(intent);
      seen.add(g);
      const stick = Math.hypot(intent.moveX, intent.moveY);
      expect(stick).toBeCloseTo(g === "walk" ? WALK_STICK : 1, 9);
      expect(Math.atan2(intent.moveY, intent.moveX)).toBeCloseTo(Math.atan2(0.8, 0.6), 9); // the same way
    }
    expect([...seen].sort()).toEqual(["run", "walk"]);
    const crouched = { ...upright(), crouch: true };
    for (let t = 0; t < 200; t++) {
      const intent = { ...crouched };
      expect(gait.pace(intent)).toBe("crouch");
      expect(Math.hypot(intent.moveX, intent.moveY)).toBeCloseTo(1, 9);
    }
    expect(gait.pace({ moveX: 0, moveY: 0, facing: 1, crouch: false })).toBe("still");
  });

  it("walks its seeded share of the time, in spells of seconds, the same for the same seed", () => {
    const run = (seed: number) => {
      const gait = new BotGait(seededRandom(seed), TICK_SECONDS);
      const tally = newGaitTally();
      let spells = 0;
      let last: Gait = "run";
      for (let t = 0; t < 20 * 600; t++) {
        const g = gait.pace(upright());
        tally[g]++;
        if (g === "walk" && last !== "walk") spells++;
        last = g;
      }
      return { share: gait.walkShare, walked: tally.walk / (tally.walk + tally.run), spells, tally };
    };
    let off = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const r = run(seed);
      expect(r.share).toBeGreaterThanOrEqual(WALK_SHARE[0]);
      expect(r.share).toBeLessThanOrEqual(WALK_SHARE[1]);
      // Ten minutes: near its share (about 40 spells, so a few points either way), in spells of about 3 s.
      expect(Math.abs(r.walked - r.share), `seed ${seed}`).toBeLessThan(0.12);
      off += r.walked - r.share;
      const spellSeconds = (r.tally.walk * TICK_SECONDS) / r.spells;
      expect(spellSeconds).toBeGreaterThan(1.5);
      expect(spellSeconds).toBeLessThan(6);
    }
    expect(Math.abs(off / 20)).toBeLessThan(0.03);
    expect(run(7)).toEqual(run(7));
    expect(run(7).tally).not.toEqual(run(8).tally);
  });
});
