import { Box, Circle, Polygon, Vec2, World } from "planck";
import { describe, expect, it } from "vitest";
import { PotentialSight } from "../../server/culling/potentialSight.js";
import { seededRandom } from "../../shared/math/seededRandom.js";

/**
 * PotentialSight remembers verdicts between updates (the occluder that hid a pair and by how much, or
 * how much room a visible pair had) and skips the test while the centres have moved less than that room.
 * Remembering must never change an answer: after every update, the remembering instance must agree with
 * a fresh one that has no history at all, on every (team, entity) pair.
 */

const WALL = 0x1;
const SIZE = 40;

function randomLevel(random: () => number): World {
  const world = new World({ gravity: Vec2(0, 0) });
  const walls = world.createBody({ type: "static" });
  for (let i = 0; i < 30; i++) {
    const x = random() * SIZE;
    const y = random() * SIZE;
    const kind = random();
    if (kind < 0.6) {
      walls.createFixture({ shape: new Box(0.2 + random() * 3, 0.2 + random() * 0.6, Vec2(x, y), random() * Math.PI), filterCategoryBits: WALL });
    } else if (kind < 0.8) {
      walls.createFixture({ shape: new Circle(Vec2(x, y), 0.3 + random() * 1.2), filterCategoryBits: WALL });
    } else {
      const r = 0.5 + random() * 1.5;
      const points = [0, 1, 2].map((k) => Vec2(x + r * Math.cos(k * 2.1 + random()), y + r * Math.sin(k * 2.1 + random())));
      walls.createFixture({ shape: new Polygon(points), filterCategoryBits: WALL });
    }
  }
  // A glass pane: solid, but outside the sight mask, so it never hides anyone.
  walls.createFixture({ shape: new Box(3, 0.1, Vec2(SIZE / 2, SIZE / 2)), filterCategoryBits: 0x2 });
  return world;
}

interface Mover { id: string; x: number; y: number; vx: number; vy: number; team?: string }

function addAll(sight: PotentialSight, movers: Mover[], lookahead: Map<string, number>): void {
  for (const m of movers) sight.addEntity(m.id, m.x, m.y, 0.35, m.team);
  for (const [team, d] of lookahead) sight.setLookahead(team, d);
}

describe("potential sight with remembered verdicts", () => {
  it("agrees with a fresh computation on every pair, every tick, while everyone walks, stops, teleports, leaves and joins, and the look-ahead changes", () => {
    let pairsCompared = 0;
    let visible = 0;
    let hidden = 0;
    for (const seed of [11, 12, 13]) {
      const random = seededRandom(seed);
      const world = randomLevel(random);
      const teams = ["red", "blue", "green"];
      const movers: Mover[] = [];
      for (let i = 0; i < 9; i++) movers.push({ id: `p${i}`, x: random() * SIZE, y: random() * SIZE, vx: 0, vy: 0, team: teams[i % 3]! });
      for (let i = 0; i < 30; i++) movers.push({ id: `g${i}`, x: random() * SIZE, y: random() * SIZE, vx: 0, vy: 0 });
      const lookahead = new Map(teams.map((t) => [t, random() * 0.7]));
      const remembering = new PotentialSight(world, { opaqueMask: WALL, range: 15 });
      addAll(remembering, movers, lookahead);
      for (let tick = 0; tick < 250; tick++) {
        for (const m of movers) {
          const roll = random();
          if (roll < 0.005) {
            // A respawn: far in one tick.
            m.x = random() * SIZE;
            m.y = random() * SIZE;
          } else {
            if (roll < 0.1) {
              const a = random() * 2 * Math.PI;
              const speed = random() < 0.2 ? 0 : random() * 0.2;
              m.vx = Math.cos(a) * speed;
              m.vy = Math.sin(a) * speed;
            }
            m.x = Math.min(SIZE, Math.max(0, m.x + m.vx));
            m.y = Math.min(SIZE, Math.max(0, m.y + m.vy));
          }
          remembering.moveEntity(m.id, m.x, m.y);
        }
        if (random() < 0.05) {
          // Someone leaves and someone else joins (a slot freed, then likely reused by the newcomer).
          const i = Math.floor(random() * movers.length);
          const gone = movers[i]!;
          remembering.removeEntity(gone.id);
          const joined: Mover = { id: `n${seed}-${tick}`, x: random() * SIZE, y: random() * SIZE, vx: 0, vy: 0, ...(gone.team === undefined ? {} : { team: gone.team }) };
          movers[i] = joined;
          if (random() < 0.7) remembering.addEntity(joined.id, joined.x, joined.y, 0.35, joined.team);
          else movers.splice(i, 1);
        }
        if (random() < 0.03) {
          const team = teams[Math.floor(random() * teams.length)]!;
          lookahead.set(team, random() * 0.7);
          remembering.setLookahead(team, lookahead.get(team)!);
        }
        remembering.update();
        const fresh = new PotentialSight(world, { opaqueMask: WALL, range: 15 });
        addAll(fresh, movers, lookahead);
        fresh.update();
        for (const team of teams) {
          // Nothing else either: no entity that left, no stale slot.
          expect(remembering.visibleCount(team), `seed ${seed}, tick ${tick}, team ${team}`).toBe(fresh.visibleCount(team));
          for (const m of movers) {
            if (m.team === team) continue;
            const expected = fresh.sees(team, m.id);
            if (remembering.sees(team, m.id) !== expected) {
              throw new Error(`seed ${seed}, tick ${tick}: team ${team} ${expected ? "should" : "should not"} potentially see ${m.id}`);
            }
            pairsCompared++;
            if (expected) visible++;
            else hidden++;
          }
        }
      }
    }
    // Not vacuous: both verdicts occur often, and remembered ones were used (most pairs are not tested).
    expect(pairsCompared).toBeGreaterThan(50_000);
    expect(visible).toBeGreaterThan(5_000);
    expect(hidden).toBeGreaterThan(5_000);
  });

  it("remembering spares most occluder tests in a steady crowd", () => {
    const random = seededRandom(5);
    const world = randomLevel(random);
    const sight = new PotentialSight(world, { opaqueMask: WALL, range: 15 });
    const movers: Mover[] = [];
    for (let i = 0; i < 40; i++) movers.push({ id: `e${i}`, x: random() * SIZE, y: random() * SIZE, vx: (random() - 0.5) * 0.1, vy: (random() - 0.5) * 0.1, ...(i < 8 ? { team: `t${i}` } : {}) });
    addAll(sight, movers, new Map(movers.filter((m) => m.team).map((m) => [m.team!, 0.3])));
    let tested = 0;
    let decided = 0;
    for (let tick = 0; tick < 100; tick++) {
      for (const m of movers) {
        m.x = Math.min(SIZE, Math.max(0, m.x + m.vx));
        m.y = Math.min(SIZE, Math.max(0, m.y + m.vy));
        sight.moveEntity(m.id, m.x, m.y);
      }
      sight.update();
      if (tick > 0) {
        tested += sight.occluderTests;
        decided += sight.pairsTested;
      }
    }
    expect(decided).toBeGreaterThan(1000);
    expect(tested / decided).toBeLessThan(0.5);
  });
});
