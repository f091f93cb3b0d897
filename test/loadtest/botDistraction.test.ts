import { describe, expect, it } from "vitest";
import { BotDistraction } from "../../loadtest/botDistraction.js";
import { DISTRACTION, TICK_SECONDS } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";

const MAP = { width: 24, height: 12 };

function pouch(meanSeconds: number, seed = 1, open: (x: number, y: number) => boolean = () => true) {
  const thrown: { x: number; y: number }[] = [];
  const distraction = new BotDistraction(seededRandom(seed), meanSeconds, 4, TICK_SECONDS, MAP, open, (x, y) => thrown.push({ x, y }));
  return { distraction, thrown };
}

const calm = () => false;
const chased = () => true;

describe("a bot's distractions", () => {
  it("lands each behind it, away from where it heads, within the throw range, three a life, and three again after a respawn", () => {
    const { distraction, thrown } = pouch(TICK_SECONDS); // a throw every tick, while it has any
    // At (12, 6), heading east.
    const ahead = [{ x: 16, y: 6 }];
    for (let t = 0; t < 10; t++) distraction.tick(12, 6, ahead, calm);
    expect(thrown).toHaveLength(DISTRACTION.count);
    for (const p of thrown) {
      const d = Math.hypot(p.x - 12, p.y - 6);
      expect(d).toBeGreaterThanOrEqual(4 - 1e-9);
      expect(d).toBeLessThanOrEqual(9 + 1e-9);
      expect(d).toBeLessThanOrEqual(DISTRACTION.throwRange);
      // Behind: west of the bot, within 60 degrees of straight back.
      expect(Math.atan2(p.y - 6, 12 - p.x)).toBeGreaterThanOrEqual(-Math.PI / 3 - 1e-9);
      expect(Math.atan2(p.y - 6, 12 - p.x)).toBeLessThanOrEqual(Math.PI / 3 + 1e-9);
    }
    distraction.refill();
    for (let t = 0; t < 10; t++) distraction.tick(12, 6, ahead, calm);
    expect(thrown).toHaveLength(2 * DISTRACTION.count);
  });

  it("throws while standing too, keeps the spot on the map and on open floor, and lets a throw be when no spot is open", () => {
    const { distraction, thrown } = pouch(TICK_SECONDS, 3, (x) => x < 20);
    for (let t = 0; t < 50; t++) distraction.tick(23, 11.8, [], calm); // in a corner, standing
    expect(thrown).toHaveLength(DISTRACTION.count);
    for (const p of thrown) {
      expect(p.x).toBeLessThanOrEqual(MAP.width - 0.5);
      expect(p.y).toBeLessThanOrEqual(MAP.height - 0.5);
      expect(p.x).toBeLessThan(20);
    }
    const walled = pouch(TICK_SECONDS, 3, () => false);
    for (let t = 0; t < 10; t++) walled.distraction.tick(12, 6, [], calm);
    expect(walled.thrown).toEqual([]);
  });

  it("throws nothing when the room says it has none left (a decoding bot reads it)", () => {
    const { distraction, thrown } = pouch(TICK_SECONDS);
    for (let t = 0; t < 10; t++) distraction.tick(12, 6, [{ x: 16, y: 6 }], calm, 0);
    expect(thrown).toEqual([]);
  });

  it("throws about once in its mean interval, and more often while a guard is alerted to it", () => {
    const count = (pressed: () => boolean) => {
      let n = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const { distraction, thrown } = pouch(30, seed);
        for (let t = 0; t < 10 / TICK_SECONDS && thrown.length === 0; t++) distraction.tick(12, 6, [{ x: 16, y: 6 }], pressed);
        n += thrown.length;
      }
      return n / 200;
    };
    // 10 s of a 30 s mean: about 1 - e^(-1/3) = 28% of bots throw; pressed, 1 - e^(-4/3) = 74%.
    expect(count(calm)).toBeGreaterThan(0.18);
    expect(count(calm)).toBeLessThan(0.38);
    expect(count(chased)).toBeGreaterThan(0.62);
  });
});
