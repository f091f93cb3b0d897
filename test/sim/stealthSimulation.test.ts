import { Circle, Transform, Vec2, testOverlap } from "planck";
import { describe, expect, it } from "vitest";
import type { DetectionEvent } from "../../server/vision/awareness/types.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { loadMapFile, parseTiledMap } from "../../server/sim/tiledMap.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { objectLayer, point, prop, PX, rect, tiledJson } from "../fixtures/tiledJson.js";

/** Whether a guard-sized circle at (x, y), shrunk by 2 cm of contact slop, overlaps a wall or a pane. */
function wallOverlap(sim: StealthSimulation, x: number, y: number): boolean {
  const probe = new Circle(sim.characterRadius - 0.02);
  const at = new Transform(Vec2(x, y));
  for (let f = sim.guards[0]!.body.getWorld().getBodyList(); f !== null; f = f.getNext()) {
    if (!f.isStatic()) continue;
    for (let fx = f.getFixtureList(); fx !== null; fx = fx.getNext()) {
      if (!fx.isSensor() && testOverlap(probe, 0, fx.getShape(), 0, at, f.getTransform())) return true;
    }
  }
  return false;
}

const still = { vx: 0, vy: 0, facing: 0, crouch: false };

/** One step, adding to `travelled[k]` the meters guard k moved in it. */
function stepTracking(sim: StealthSimulation, travelled: number[]): void {
  const before = sim.guards.map((g) => ({ x: g.body.getPosition().x, y: g.body.getPosition().y }));
  sim.step();
  sim.guards.forEach((g, k) => {
    const at = g.body.getPosition();
    travelled[k]! += Math.hypot(at.x - before[k]!.x, at.y - before[k]!.y);
  });
}

/** Steps until `until` holds (or `max` ticks), collecting detection events and round outcomes. */
function run(sim: StealthSimulation, max: number, until: () => boolean = () => false) {
  const events: DetectionEvent[] = [];
  const round: { type: string; playerId: string; by?: string; tick: number }[] = [];
  for (let i = 0; i < max; i++) {
    const r = sim.step();
    events.push(...r.events.map((e) => ({ ...e, position: { ...e.position } })));
    round.push(...r.round.map((e) => ({ ...e, tick: r.tick })));
    if (until()) break;
  }
  return { events, round };
}

describe("guards, cameras and the round", () => {
  it("guard sees player in front of it: noticed, suspicious, spotted, then pursues and catches", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "front" });
    const { events, round } = run(sim, 200, () => sim.players.get("p")!.caught > 0);
    const mine = events.filter((e) => e.targetId === "p").map((e) => e.type);
    expect(mine.slice(0, 3)).toEqual(["noticed", "suspicious", "spotted"]);
    const spottedAt = events.find((e) => e.type === "spotted")!.tick;
    expect(spottedAt / sim.tickRate).toBeLessThan(1); // 3 m away, dead centre: well under a second
    expect(round).toEqual([expect.objectContaining({ type: "caught", playerId: "p", by: "guard:Watcher" })]);
    // The catcher stands down at once, and the player is back at its own spawn.
    expect(events.at(-1)).toMatchObject({ type: "cleared", observerId: "guard:Watcher" });
    expect(sim.alertOf("guard:Watcher")).toBe("idle");
    const at = sim.players.get("p")!.body.getPosition();
    expect([at.x, at.y]).toEqual([7, 5]);
  });

  it("a player caught standing on its spawn is put back within a step of where it was, and the respawn is announced as a teleport", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "front" });
    const teleports: { id: string; jump: number }[] = [];
    let before = { x: 0, y: 0 };
    sim.onTeleport = (id) => {
      const at = sim.players.get(id)!.body.getPosition();
      teleports.push({ id, jump: Math.hypot(at.x - before.x, at.y - before.y) });
    };
    for (let i = 0; i < 200 && teleports.length === 0; i++) {
      before = { ...sim.players.get("p")!.body.getPosition() };
      sim.step();
    }
    // Too short to be told from a walk by its length: only the announcement says it was no walk.
    expect(teleports).toEqual([{ id: "p", jump: expect.any(Number) }]);
    expect(teleports[0]!.jump).toBeLessThan(2 * sim.topSpeed * sim.dt);
    sim.respawn("p", "far");
    expect(teleports.map((t) => t.id)).toEqual(["p", "p"]);
  });

  it("a spotting guard walks to the player: pursuit is what closes the distance", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "far" }); // 13 m: beyond the 12 m range, the guard never reacts
    run(sim, 100);
    expect(sim.alertOf("guard:Watcher")).toBe("idle");
    expect(sim.guards[0]!.body.getPosition().x).toBeCloseTo(4, 5);
    sim.respawn("p", "front");
    run(sim, 20, () => sim.alertOf("guard:Watcher") === "alerted");
    expect(sim.guards[0]!.brain.activity).toBe("pursue");
    run(sim, 5);
    expect(sim.guards[0]!.body.getPosition().x).toBeGreaterThan(4.3);
  });

  it("player behind the guard is not noticed", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "behind" });
    const { events } = run(sim, 100);
    expect(events).toEqual([]);
    expect(sim.guards[0]!.brain.activity).toBe("patrol");
  });

  it("player behind the wall is hidden even in the cone's range", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "cover" }); // (12, 9): 8.5 m, 26 degrees off axis, behind the wall at x = 10
    const { events } = run(sim, 60);
    expect(events).toEqual([]);
  });

  it("crouching fills the meter more slowly than standing", () => {
    const time = (crouch: boolean) => {
      const sim = new StealthSimulation(arenaMap());
      sim.addPlayer("p", { spawn: "front" });
      sim.setMotion("p", { ...still, crouch });
      const { events } = run(sim, 200, () => sim.alertOf("guard:Watcher") === "alerted");
      return events.find((e) => e.type === "spotted")!.tick;
    };
    expect(time(true)).toBeGreaterThan(1.5 * time(false));
  });

  it("the guard turns toward what it notices", () => {
    const sim = new StealthSimulation(arenaMap());
    // 40 degrees off axis, 4 m: inside the 45 degree half cone, in the soft periphery.
    const p = sim.addPlayer("p", { spawn: "front" });
    p.body.setPosition(Vec2(4 + 4 * Math.cos(0.7), 5 + 4 * Math.sin(0.7)));
    run(sim, 10);
    const facing = sim.guards[0]!.brain.facing;
    expect(facing).toBeGreaterThan(0.3);
    expect(facing).toBeLessThanOrEqual(0.7 + 1e-9);
  });

  it("reaching the exit counts an escape and sends the player back to its spawn", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "door" });
    sim.setMotion("p", { vx: 3, vy: 0, facing: 0, crouch: false });
    const { round } = run(sim, 40, () => sim.players.get("p")!.escapes > 0);
    expect(round).toEqual([expect.objectContaining({ type: "escaped", playerId: "p" })]);
    const at = sim.players.get("p")!.body.getPosition();
    expect([at.x, at.y]).toEqual([16, 2]);
  });

  it("a camera that spots someone sends the nearest guard to look", () => {
    const sim = new StealthSimulation(arenaMap({ camera: true }));
    // 3 m north of the camera at (17, 11), which looks north; 13.3 m from the guard, out of its 12 m range.
    sim.addPlayer("p", { spawn: "door" });
    sim.players.get("p")!.body.setPosition(Vec2(17, 8));
    const { events } = run(sim, 100, () => sim.guards[0]!.brain.activity === "investigate");
    expect(events.find((e) => e.type === "spotted")).toMatchObject({ observerId: "camera:Eye", targetId: "p" });
    expect(sim.guards[0]!.brain.activity).toBe("investigate");
    expect(sim.alertOf("guard:Watcher")).toBe("idle"); // it has not seen anyone itself
    run(sim, 40);
    const g = sim.guards[0]!.body.getPosition();
    expect(Math.hypot(g.x - 17, g.y - 8)).toBeLessThan(Math.hypot(4 - 17, 5 - 8) - 3);
  });

  it("a pursuit that loses the target searches, clears, and walks back to the route", () => {
    const sim = new StealthSimulation(arenaMap({ patrol: true }));
    sim.addPlayer("p", { spawn: "front" });
    run(sim, 100, () => sim.alertOf("guard:Watcher") === "alerted");
    // Vanish: teleport behind the wall, out of sight, and stay there.
    sim.players.get("p")!.body.setPosition(Vec2(15, 10));
    const activities = new Set<string>();
    const { events } = run(sim, 20 * 30, () => {
      activities.add(sim.guards[0]!.brain.activity);
      return sim.guards[0]!.brain.activity === "patrol";
    });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["lost", "cleared"]));
    expect([...activities]).toEqual(expect.arrayContaining(["search", "return", "patrol"]));
    const g = sim.guards[0]!.body.getPosition();
    expect(Math.abs(g.x - 4)).toBeLessThan(0.5); // back on its route (x = 4, y 5..9)
  });

  it("guards patrol the demo map without ever standing in a wall", () => {
    const sim = new StealthSimulation(loadMapFile("server/maps/demo.tmj"));
    const travelled = sim.guards.map(() => 0);
    for (let i = 0; i < 20 * 60; i++) {
      stepTracking(sim, travelled);
      for (const g of sim.guards) expect(wallOverlap(sim, g.body.getPosition().x, g.body.getPosition().y)).toBe(false);
    }
    for (const d of travelled) expect(d).toBeGreaterThan(30); // a minute of patrol at 1.3 m/s, minus turns and pauses
  });

  it("patrolling guards plan each leg of their loops once: later laps walk the first lap's paths, and arrive as before", () => {
    // The compound map's patrols cross rooms (an A* each leg), with 40 wandering guards more.
    const sim = new StealthSimulation(loadMapFile("server/maps/compound.tmj"), { extraGuards: 40 });
    const nav = sim.nav;
    let plans = 0;
    const findPath = nav.findPath.bind(nav);
    nav.findPath = (...args: Parameters<typeof nav.findPath>) => {
      plans++;
      return findPath(...args);
    };
    const perMinute: number[] = [];
    const travelled = sim.guards.map(() => 0);
    for (let minute = 0; minute < 6; minute++) {
      plans = 0;
      for (let i = 0; i < 20 * 60; i++) stepTracking(sim, travelled);
      perMinute.push(plans);
    }
    // Not vacuous: the first laps planned (72 in the first minute); in the last two minutes, with every loop
    // walked once, a fraction of that (a guard shoved off its line by another still plans its way back).
    // Planning every leg afresh, each minute planned 46-74 times.
    expect(perMinute[0]).toBeGreaterThan(50);
    expect(perMinute[4]! + perMinute[5]!).toBeLessThan(perMinute[0]! / 2);
    // Nobody got stuck on a remembered path: every guard kept walking.
    for (const d of travelled) expect(d).toBeGreaterThan(6 * 60 * 0.5);
  });

  it("the same inputs give the same events, tick for tick", () => {
    const once = () => {
      const sim = new StealthSimulation(loadMapFile("server/maps/demo.tmj"));
      sim.addPlayer("a", { spawn: "A" });
      sim.addPlayer("b", { spawn: "C" });
      const log: string[] = [];
      for (let i = 0; i < 600; i++) {
        const t = i / 20;
        sim.setMotion("a", { vx: 3 * Math.cos(t), vy: -2, facing: 0, crouch: i % 50 < 10 });
        sim.setMotion("b", { vx: 2, vy: -3 * Math.sin(t), facing: 0, crouch: false });
        const r = sim.step();
        for (const e of r.events) log.push(`${r.tick} ${e.seq} ${e.type} ${e.observerId} ${e.targetId} ${e.position.x.toFixed(4)}`);
        for (const e of r.round) log.push(`${r.tick} ${e.type} ${e.playerId} ${e.by ?? ""}`);
      }
      return log;
    };
    const a = once();
    expect(a.length).toBeGreaterThan(0);
    expect(once()).toEqual(a);
  });

  it("rejects an unknown spawn with the names it has, and changes nothing", () => {
    const sim = new StealthSimulation(arenaMap());
    expect(() => sim.addPlayer("p", { spawn: "nowhere" })).toThrow(/unknown spawn "nowhere".*"front"/);
    expect(sim.players.size).toBe(0);
    expect(sim.vision.size.observables).toBe(0);
  });

  it("a crowd shoving apart never carries a body faster than the top speed", () => {
    const sim = new StealthSimulation(arenaMap());
    // Eight bodies piled within 10 cm of one spot: the contact solver pushes them apart as hard as it can.
    for (let i = 0; i < 8; i++) sim.addPlayer(`p${i}`, { spawn: "cover" });
    const bodies = [...sim.players.values()].map((p) => p.body);
    bodies.forEach((b, i) => b.setPosition(Vec2(12 + 0.1 * Math.cos(i), 9 + 0.1 * Math.sin(i))));
    const most = sim.topSpeed * sim.dt;
    let longest = 0;
    for (let t = 0; t < 40; t++) {
      const before = bodies.map((b) => ({ ...b.getPosition() }));
      sim.step();
      bodies.forEach((b, i) => (longest = Math.max(longest, Math.hypot(b.getPosition().x - before[i]!.x, b.getPosition().y - before[i]!.y))));
    }
    expect(longest).toBeGreaterThan(0.5 * most); // they did shove
    expect(longest).toBeLessThanOrEqual(most * (1 + 1e-9));
    // Still apart in the end: cutting a push back slows the separation, it does not stop it.
    const at = bodies.map((b) => b.getPosition());
    let closest = Infinity;
    for (let i = 0; i < at.length; i++) for (let j = i + 1; j < at.length; j++) closest = Math.min(closest, Math.hypot(at[i]!.x - at[j]!.x, at[i]!.y - at[j]!.y));
    expect(closest).toBeGreaterThan(2 * sim.characterRadius - 0.05);
  });

  it("no body gets through a wall 5 cm thin, running into it at every angle or shoved against it by a crowd", () => {
    // The world steps without continuous collision: a body moves at most the top speed a step, far less
    // than its radius, so it meets a wall before it could reach past it.
    const json = tiledJson([
      objectLayer("walls", [rect(1, 0, 0, 20, 0.5), rect(2, 0, 11.5, 20, 0.5), rect(3, 0, 0, 0.5, 12), rect(4, 19.5, 0, 0.5, 12), rect(5, 10, 0.5, 0.05, 11)]),
      objectLayer("actors", [point(10, "spawn", "west", 8, 6)]),
    ], { width: 20, height: 12, properties: [prop("pixelsPerMeter", PX)] });
    const sim = new StealthSimulation(parseTiledMap(json, "thin.tmj"));
    const runners = 12;
    for (let i = 0; i < runners; i++) sim.addPlayer(`p${i}`, { spawn: "west" });
    const bodies = [...sim.players.values()].map((p) => p.body);
    bodies.forEach((b, i) => b.setPosition(Vec2(9.2 - 0.05 * (i % 3), 1.5 + (9 * i) / (runners - 1))));
    let nearest = Infinity;
    for (let t = 0; t < 120; t++) {
      for (let i = 0; i < runners; i++) {
        // Straight at the wall, or slanting along it, and half of them pressed together toward one spot.
        const a = t < 60 ? ((i / (runners - 1)) - 0.5) * 2.6 : Math.atan2(6 - bodies[i]!.getPosition().y, 10 - bodies[i]!.getPosition().x);
        sim.setMotion(`p${i}`, { vx: Math.cos(a) * sim.topSpeed, vy: Math.sin(a) * sim.topSpeed, facing: a, crouch: false });
      }
      sim.step();
      for (const b of bodies) nearest = Math.min(nearest, 10 - b.getPosition().x);
    }
    // They reached the wall (touching it, a radius off), and none is past it.
    expect(nearest).toBeLessThan(sim.characterRadius + 0.05);
    expect(nearest).toBeGreaterThan(0);
  });

  it("walking at full speed is never cut back", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "far" });
    const walk = sim.movement.walkSpeed;
    sim.setMotion("p", { vx: 0, vy: walk, facing: Math.PI / 2, crouch: false });
    const y0 = sim.players.get("p")!.body.getPosition().y;
    run(sim, 10);
    expect(sim.players.get("p")!.body.getPosition().y - y0).toBeCloseTo(10 * walk * sim.dt, 6);
    expect(walk).toBeLessThan(sim.topSpeed);
  });
});
