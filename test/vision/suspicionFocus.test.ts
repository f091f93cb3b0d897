import { describe, expect, it } from "vitest";
import { AwarenessModel, type Heard, type Sighting } from "sightline";
import { seededRandom } from "../../shared/seededRandom.js";

const DT = 0.05;

/** The target a suspicious observer should investigate: the highest meter now, the earliest met on ties. */
function mostSuspicious(model: AwarenessModel, observerId: string, order: readonly string[]): string | undefined {
  const levels = new Map<string, number>();
  model.forEachLevel((o, t, level) => {
    if (o === observerId) levels.set(t, level);
  });
  let best: string | undefined;
  let bestLevel = -1;
  for (const t of order) {
    const level = levels.get(t) ?? 0;
    if (level > bestLevel) {
      best = t;
      bestLevel = level;
    }
  }
  return best;
}

describe("where a suspicious guard goes", () => {
  it("a suspicious guard always goes to where its most suspicious target was last seen or heard, over a long random watch", () => {
    // Meters decay at one rate, but a meter inside its grace time does not: the leader of a moment ago
    // can fall behind a target seen less but more recently, and the guard must turn to it.
    const random = seededRandom(23);
    const guards = ["g1", "g2", "g3", "g4"];
    const thieves = ["t1", "t2", "t3", "t4", "t5"];
    const model = new AwarenessModel();
    const lastAt = new Map<string, { x: number; y: number }>();
    /** Each guard's targets in the order it first met them (its ties go to the earliest). */
    const met = new Map<string, string[]>(guards.map((g) => [g, []]));
    let checked = 0;
    let turned = 0;
    const focusOf = new Map<string, string>();
    for (let t = 0; t < 1500; t++) {
      const sightings: Sighting[] = [];
      const noises: Heard[] = [];
      const touched = new Set<string>();
      for (const g of guards) for (const thief of thieves) {
        const roll = random();
        const position = { x: Math.round(random() * 400), y: Math.round(random() * 400) };
        if (roll < 0.04) sightings.push({ observerId: g, targetId: thief, distance: 6 + random() * 8, offAxis: random() * 0.7, halfFov: Math.PI / 4, range: 15, position });
        else if (roll < 0.2) noises.push({ observerId: g, targetId: thief, level: 0.05 + random() * 0.6, position });
        else continue;
        touched.add(g);
        lastAt.set(`${g}|${thief}`, position);
        const order = met.get(g)!;
        if (!order.includes(thief)) order.push(thief);
      }
      model.step(t, DT, sightings, noises);
      // Everyone is forgotten now and then, so the guards meet their targets in new orders.
      if (t % 300 === 299) for (const g of guards) {
        model.standDown(g);
        met.set(g, []);
      }
      for (const g of guards) {
        if (!touched.has(g) || model.state(g) !== "suspicious") continue;
        const target = mostSuspicious(model, g, met.get(g)!)!;
        expect(model.lastKnown(g), `step ${t}, ${g}`).toEqual(lastAt.get(`${g}|${target}`));
        if (focusOf.get(g) !== undefined && focusOf.get(g) !== target) turned++;
        focusOf.set(g, target);
        checked++;
      }
    }
    // Not vacuous: suspicious guards were checked many times, and they turned from one target to another.
    expect(checked).toBeGreaterThan(1000);
    expect(turned).toBeGreaterThan(50);
  });
});
