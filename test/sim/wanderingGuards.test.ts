import { describe, expect, it, vi } from "vitest";
import type { Waypoint } from "../../server/sim/navGrid.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { wanderingGuardPlacements } from "../../server/sim/wanderingGuards.js";
import { GuardBrain, type GuardCommand } from "../../server/sim/guardBrain.js";
import { PatrolRoute } from "../../server/sim/patrolRoute.js";

const demo = loadMapFile("server/maps/demo.tmj");
const compound = loadMapFile("server/maps/compound.tmj");

describe("wandering guards (rooms with more guards than the map places)", () => {
  it("places each on a free cell with a walkable patrol loop, the same for the same seed", () => {
    const sim = new StealthSimulation(demo);
    const placed = wanderingGuardPlacements(sim.nav, 58, 7919, 1000);
    expect(placed).toHaveLength(58);
    expect(new Set(placed.map((g) => g.name)).size).toBe(58);
    expect(placed.map((g) => g.id)).toEqual(Array.from({ length: 58 }, (_, i) => 1000 + i));
    const path: Waypoint[] = [];
    for (const g of placed) {
      expect(sim.nav.isFree(g.x, g.y)).toBe(true);
      expect(g.patrol.length).toBeGreaterThanOrEqual(3);
      expect(g.patrolLoop).toBe(true);
      for (let k = 1; k < g.patrol.length; k++) {
        expect(sim.nav.findPath(g.patrol[k - 1]!.x, g.patrol[k - 1]!.y, g.patrol[k]!.x, g.patrol[k]!.y, path)).toBe(true);
      }
    }
    expect(wanderingGuardPlacements(sim.nav, 58, 7919, 1000)).toEqual(placed);
    expect(wanderingGuardPlacements(sim.nav, 58, 7920, 1000)).not.toEqual(placed);
  });

  it("refuses a count that is not a whole number in [0, 1024]", () => {
    const sim = new StealthSimulation(demo);
    for (const bad of [-1, 1.5, 1025, NaN]) expect(() => wanderingGuardPlacements(sim.nav, bad, 1, 1)).toThrow(RangeError);
    expect(() => new StealthSimulation(demo, { extraGuards: -2 })).toThrow(/wanderingGuardPlacements count must be an integer of guards in \[0, 1024\]/);
  });

  it("are ordinary guards in the simulation: they look through the vision engine and walk their loops", () => {
    const sim = new StealthSimulation(demo, { extraGuards: 58 });
    expect(sim.guards).toHaveLength(64);
    expect(sim.guards.filter((g) => g.id.startsWith("guard:wander-"))).toHaveLength(58);
    const start = sim.guards.map((g) => ({ ...g.body.getPosition() }));
    sim.addPlayer("p");
    for (let i = 0; i < 100; i++) sim.step();
    const moved = sim.guards.filter((g, i) => Math.hypot(g.body.getPosition().x - start[i]!.x, g.body.getPosition().y - start[i]!.y) > 1);
    expect(moved.length).toBeGreaterThan(50);
    // Each looks through the vision engine: a player put 1 m from one (inside its all-around sense) is seen.
    const player = sim.players.get("p")!;
    let checked = 0;
    for (const g of sim.guards.filter((g) => g.id.startsWith("guard:wander-")).slice(0, 10)) {
      const at = g.body.getPosition();
      const spot = [[1, 0], [-1, 0], [0, 1], [0, -1]].map(([dx, dy]) => ({ x: at.x + dx!, y: at.y + dy! })).find((q) => sim.nav.walkable(at.x, at.y, q.x, q.y));
      if (spot === undefined) continue;
      player.body.setPosition(spot);
      sim.step();
      sim.step();
      expect(sim.vision.canSee(g.id, "p"), g.id).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("a guard held in place re-plans its pursuit about once a second, whatever its seed", () => {
    const sim = new StealthSimulation(demo);
    const start = sim.guards[0]!.body.getPosition();
    const goal = demo.spawns[0]!;
    const walkable = vi.spyOn(sim.nav, "walkable"); // each plan first tests the straight walk to the goal
    const plans = () => walkable.mock.calls.filter((c) => c[0] === start.x && c[1] === start.y && c[2] === goal.x && c[3] === goal.y).length;
    for (const seed of [1, 2, 7919, -3, 2 ** 40, NaN]) {
      const brain = new GuardBrain("g", new PatrolRoute([{ x: start.x, y: start.y }], false), sim.nav, 0, {}, seed);
      const out: GuardCommand = { vx: 0, vy: 0, facing: 0 };
      walkable.mockClear();
      // plansBy[t]: the ticks up to t in which the guard planned (a plan may test that walk more than once).
      const plansBy: number[] = [0];
      for (let t = 1; t <= 200; t++) {
        const before = plans();
        brain.think(0.05, start.x, start.y, { alert: "alerted", lastKnown: goal }, out); // it never gets anywhere
        plansBy[t] = plansBy[t - 1]! + (plans() > before ? 1 : 0);
      }
      expect(out.vx ** 2 + out.vy ** 2, `seed ${seed}`).toBeGreaterThan(0);
      expect(plansBy[1], `seed ${seed}`).toBe(1);
      expect(plansBy[40], `seed ${seed}: re-planned within 2 s`).toBeGreaterThanOrEqual(2);
      expect(plansBy[200], `seed ${seed}: once a second, not every tick`).toBeGreaterThanOrEqual(9);
      expect(plansBy[200], `seed ${seed}`).toBeLessThanOrEqual(11);
    }
  });

  it("a crowd of 512 does not re-plan its paths in one tick: each guard checks its progress on a phase of its own", () => {
    // Jammed guards re-plan when a second brings no progress. Checked on one shared second, a few hundred
    // of them re-planned in the same tick, once a second, and that tick took several times as long.
    const sim = new StealthSimulation(compound, { extraGuards: 512 - compound.guards.length });
    const findPath = vi.spyOn(sim.nav, "findPath");
    const perTick: number[] = [];
    for (let t = 0; t < 400; t++) {
      findPath.mockClear();
      sim.step();
      if (t >= 100) perTick.push(findPath.mock.calls.length);
    }
    const total = perTick.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(50); // the crowd does jam and re-plan
    expect(Math.max(...perTick)).toBeLessThanOrEqual(6);
  });
});
