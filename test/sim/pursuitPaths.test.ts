import { describe, expect, it, vi } from "vitest";
import type { Waypoint } from "../../server/sim/navGrid.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { GuardBrain, type GuardCommand } from "../../server/sim/guardBrain.js";
import { PatrolRoute } from "../../server/sim/patrolRoute.js";

const compound = loadMapFile("server/maps/compound.tmj");

describe("a pursuer's path", () => {
  it("a target that moves on within a straight walk of the path's last turn moves the path's end; one gone round another corner is planned for", () => {
    const sim = new StealthSimulation(compound);
    const nav = sim.nav;
    const guard = sim.guards[0]!.body.getPosition();
    const start = { x: guard.x, y: guard.y };
    // A target the guard reaches only round corners: its path has a last turn.
    const path: Waypoint[] = [];
    const target = compound.spawns.map((s) => ({ x: s.x, y: s.y })).find((s) => !nav.walkable(start.x, start.y, s.x, s.y) && nav.findPath(start.x, start.y, s.x, s.y, path) && path.length >= 2)!;
    expect(target).toBeDefined();
    const turn = path[path.length - 2]!;
    // A step on from there, still in a straight walk of that turn; and a place no straight walk from it reaches.
    const step = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => ({ x: target.x + Math.cos((k * Math.PI) / 4), y: target.y + Math.sin((k * Math.PI) / 4) })).find((p) => nav.isFree(p.x, p.y) && nav.walkable(turn.x, turn.y, p.x, p.y))!;
    expect(step).toBeDefined();
    const away = [...compound.spawns, ...compound.guards.flatMap((g) => g.patrol)].map((p) => ({ x: p.x, y: p.y })).find((p) => !nav.walkable(turn.x, turn.y, p.x, p.y) && !nav.walkable(start.x, start.y, p.x, p.y) && nav.findPath(start.x, start.y, p.x, p.y, []))!;
    expect(away).toBeDefined();

    const findPath = vi.spyOn(nav, "findPath");
    const brain = new GuardBrain("g", new PatrolRoute([start], false), nav, 0, {}, 1);
    const out: GuardCommand = { vx: 0, vy: 0, facing: 0 };
    // Held in place (it never gets anywhere), so only the target's moves decide what it does.
    const chase = (at: Waypoint, ticks: number) => {
      for (let t = 0; t < ticks; t++) brain.think(0.05, start.x, start.y, { alert: "alerted", lastKnown: at }, out);
    };
    chase(target, 1);
    expect(findPath).toHaveBeenCalledTimes(1);
    chase(step, 12); // past the half second between re-plans
    expect(findPath).toHaveBeenCalledTimes(1);
    // It still heads along its path, toward the first turn, not straight at the target through the wall.
    expect(Math.atan2(out.vy, out.vx)).toBeCloseTo(Math.atan2(path[0]!.y - start.y, path[0]!.x - start.x), 6);
    chase(away, 12);
    expect(findPath).toHaveBeenCalledTimes(2);
  });
});
