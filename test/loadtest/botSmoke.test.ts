import { describe, expect, it } from "vitest";
import { BotSmoke } from "../../loadtest/botSmoke.js";
import { SMOKE, TICK_SECONDS } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";

const MAP = { width: 24, height: 12 };

function pouch(meanSeconds: number, seed = 1) {
  const thrown: { x: number; y: number }[] = [];
  const smoke = new BotSmoke(seededRandom(seed), meanSeconds, 4, TICK_SECONDS, MAP, (x, y) => thrown.push({ x, y }));
  return { smoke, thrown };
}

const calm = () => false;
const chased = () => true;

describe("a bot's smoke grenades", () => {
  it("lands each a few meters ahead along its path, three a life, and three again after a respawn", () => {
    const { smoke, thrown } = pouch(TICK_SECONDS); // a throw every tick, while it has any
    // Walking east from (2, 6), then turning north at x = 5.
    const ahead = [{ x: 5, y: 6 }, { x: 5, y: 1 }];
    for (let t = 0; t < 10; t++) smoke.tick(2, 6, ahead, calm);
    expect(thrown).toHaveLength(SMOKE.grenades);
    for (const p of thrown) {
      const along = p.y === 6 ? p.x - 2 : 3 + (6 - p.y);
      expect(p.x === 5 || p.y === 6, `(${p.x}, ${p.y}) is on the path`).toBe(true);
      expect(along).toBeGreaterThanOrEqual(3);
      expect(along).toBeLessThanOrEqual(6);
    }
    smoke.refill();
    for (let t = 0; t < 10; t++) smoke.tick(2, 6, ahead, calm);
    expect(thrown).toHaveLength(2 * SMOKE.grenades);
  });

  it("keeps the landing point on the map, and throws nothing while standing or about to arrive", () => {
    const { smoke, thrown } = pouch(TICK_SECONDS);
    smoke.tick(23, 6, [{ x: 30, y: 6 }], calm); // a path running off the east edge
    expect(thrown[0]!.x).toBeLessThanOrEqual(MAP.width - 0.5);
    smoke.tick(10, 6, [], calm);
    smoke.tick(10, 6, [{ x: 11, y: 6 }], calm);
    expect(thrown).toHaveLength(1);
  });

  it("throws nothing when the room says its pouch is empty (a decoding bot reads it)", () => {
    const { smoke, thrown } = pouch(TICK_SECONDS);
    for (let t = 0; t < 10; t++) smoke.tick(2, 6, [{ x: 12, y: 6 }], calm, 0);
    expect(thrown).toEqual([]);
  });

  it("throws about once in its mean interval, and more often while a guard is alerted to it", () => {
    const ticks = (seconds: number) => Math.round(seconds / TICK_SECONDS);
    const count = (pressed: () => boolean) => {
      let n = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const { smoke, thrown } = pouch(30, seed);
        for (let t = 0; t < ticks(10) && thrown.length === 0; t++) smoke.tick(2, 6, [{ x: 22, y: 6 }], pressed);
        n += thrown.length;
      }
      return n;
    };
    // 10 s of a 30 s mean: about 1 - e^(-1/3) = 28% of bots throw; pressed, 1 - e^(-4/3) = 74%.
    const calmShare = count(calm) / 200;
    const chasedShare = count(chased) / 200;
    expect(calmShare).toBeGreaterThan(0.18);
    expect(calmShare).toBeLessThan(0.38);
    expect(chasedShare).toBeGreaterThan(0.62);
  });
});
