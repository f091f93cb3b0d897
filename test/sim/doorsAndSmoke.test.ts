import { describe, expect, it } from "vitest";
import { VisionSystem } from "sightline";
import { OccluderOpacity, TileVision } from "sightline/fov";
import { SMOKE } from "../../shared/gameRules.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { DOOR_ID, doorMap } from "../fixtures/doorMap.js";

const still = { vx: 0, vy: 0, facing: 0, crouch: false };

/** Whether nothing that blocks sight (the simulation's occluders) lies between the two centres now. */
function lineClear(sim: StealthSimulation, observer: string, player: string): boolean {
  const a = sim.guards.find((g) => g.id === observer)!.body.getPosition();
  const b = sim.players.get(player)!.body.getPosition();
  const line = new VisionSystem(sim.occluders, { raysPerTick: Infinity });
  line.addObserver("a", { position: { x: a.x, y: a.y }, facing: 0, fov: 2 * Math.PI, range: Infinity });
  line.addObservable("b", { position: { x: b.x, y: b.y } });
  const clear = line.check("a", "b");
  line.dispose();
  return clear;
}

/** Steps `n` times (or until `until` holds); returns the steps taken. */
function steps(sim: StealthSimulation, n: number, until: () => boolean = () => false): number {
  for (let i = 1; i <= n; i++) {
    sim.step();
    if (until()) return i;
  }
  return n;
}

describe("doors in the simulation", () => {
  it("a guard behind a shut door does not see the player; the player opens it and the guard sees it the next step", () => {
    const sim = new StealthSimulation(doorMap());
    sim.addPlayer("p", { spawn: "doorway" });
    steps(sim, 20);
    expect(sim.vision.canSee("guard:Keeper", "p")).toBe(false);
    expect(sim.doors.get(DOOR_ID)!.open).toBe(false);
    sim.requestDoor("p", DOOR_ID, true);
    // Asked between steps, done at the start of the next one: that step's sight sees through.
    expect(sim.doors.get(DOOR_ID)!.open).toBe(false);
    const result = sim.step();
    expect(result.doorsToggled).toBe(1);
    expect(sim.doors.get(DOOR_ID)!.open).toBe(true);
    expect(sim.vision.canSee("guard:Keeper", "p")).toBe(true);
    expect(sim.occluders.isOpen(sim.doors.get(DOOR_ID)!.occluderId)).toBe(true);
  });

  it("a shut door stops a walker; opened, it lets it through", () => {
    const sim = new StealthSimulation(doorMap({ guard: false }));
    sim.addPlayer("p", { spawn: "doorway" });
    sim.setMotion("p", { vx: 3, vy: 0, facing: 0, crouch: false });
    steps(sim, 40);
    expect(sim.players.get("p")!.body.getPosition().x).toBeLessThan(12);
    sim.requestDoor("p", DOOR_ID, true);
    steps(sim, 40);
    expect(sim.players.get("p")!.body.getPosition().x).toBeGreaterThan(13);
  });

  it("a guard whose patrol runs through a shut door opens it on its way and walks on", () => {
    const sim = new StealthSimulation(doorMap({ patrol: true }));
    const passed = steps(sim, 600, () => sim.guards[0]!.body.getPosition().x < 10);
    expect(passed).toBeLessThan(600);
    expect(sim.doors.get(DOOR_ID)!.open).toBe(true);
  });

  it("doors are refused with the reason: unknown, out of reach, or shut on someone in the doorway", () => {
    const sim = new StealthSimulation(doorMap({ open: true, guard: false }));
    sim.addPlayer("far", { spawn: "west" });
    sim.addPlayer("near", { spawn: "doorway" });
    expect(() => sim.requestDoor("near", 999, false)).toThrow(`there is no door 999 on this map (its doors: ${DOOR_ID})`);
    expect(() => sim.requestDoor("far", DOOR_ID, false)).toThrow(`door ${DOOR_ID} is 6.0 m away: it can be reached from 1.5 m`);
    // Someone walks into the doorway: the door will not shut on them.
    sim.setMotion("far", { vx: 5, vy: 0, facing: 0, crouch: false });
    steps(sim, 100, () => sim.players.get("far")!.body.getPosition().x > 11.9);
    sim.setMotion("far", still);
    sim.step();
    expect(() => sim.requestDoor("near", DOOR_ID, false)).toThrow(`door ${DOOR_ID} cannot shut: someone is in the doorway`);
    expect(sim.doors.get(DOOR_ID)!.open).toBe(true);
  });
});

describe("smoke in the simulation", () => {
  it("a cloud between a guard and the player hides the player and the guard's awareness falls; the line clears once the cloud thins", () => {
    const sim = new StealthSimulation(doorMap({ open: true }));
    sim.addPlayer("p", { spawn: "west" });
    steps(sim, 40);
    expect(sim.vision.canSee("guard:Keeper", "p")).toBe(true);
    const aware = sim.awareness.level("guard:Keeper", "p");
    expect(aware).toBeGreaterThan(0);
    sim.throwSmoke("p", 12.25, 6);
    sim.step();
    expect(sim.smokes.clouds.size).toBe(1);
    // Hidden once it has grown across the line (a few steps), and for as long as it is dense: the guard
    // goes to look, loses interest and walks back, never seeing the player through it.
    steps(sim, 10);
    let lowest = aware;
    const clearAfter = steps(sim, 400, () => {
      expect(sim.vision.canSee("guard:Keeper", "p")).toBe(false);
      lowest = Math.min(lowest, sim.awareness.level("guard:Keeper", "p"));
      return lineClear(sim, "guard:Keeper", "p");
    });
    expect(lowest).toBe(0);
    // It blocks until its density falls below SMOKE.opaqueDensity: (seconds - fadeSeconds / 2) after it landed.
    const blockingSteps = (SMOKE.seconds - SMOKE.fadeSeconds * (1 - SMOKE.opaqueDensity)) * 20;
    expect(11 + clearAfter).toBeGreaterThanOrEqual(blockingSteps - 1);
    expect(11 + clearAfter).toBeLessThanOrEqual(blockingSteps + 1);
  });

  it("a guard inside a cloud sees nothing, even the player standing next to it", () => {
    const sim = new StealthSimulation(doorMap({ open: true }));
    sim.addPlayer("p", { spawn: "east" });
    // The guard looks west; the player is 2 m east of it, behind its back but within its proximity sense.
    const guard = sim.guards[0]!;
    steps(sim, 10);
    expect(sim.vision.canSee(guard.id, "p")).toBe(true);
    sim.throwSmoke("p", 20, 6);
    steps(sim, 30);
    expect(sim.vision.canSee(guard.id, "p")).toBe(false);
  });

  it("three grenades a life, thrown within range and on the map, refilled at a respawn", () => {
    const sim = new StealthSimulation(doorMap({ guard: false }));
    const p = sim.addPlayer("p", { spawn: "west" });
    expect(p.smokes).toBe(SMOKE.grenades);
    expect(() => sim.throwSmoke("p", 6, 6 + SMOKE.throwRange + 0.5)).toThrow(/off the map/);
    expect(() => sim.throwSmoke("p", 6 + SMOKE.throwRange + 0.5, 6)).toThrow(/reaches 10 m \(that spot is 10\.5 m away\)/);
    for (let i = 0; i < SMOKE.grenades; i++) sim.throwSmoke("p", 4 + i, 4);
    expect(() => sim.throwSmoke("p", 8, 8)).toThrow(/no smoke grenade left/);
    sim.step();
    expect(p.smokes).toBe(0);
    expect(sim.smokes.added.length).toBe(SMOKE.grenades);
    sim.respawn("p");
    expect(p.smokes).toBe(SMOKE.grenades);
  });

  it("clouds go after their lifetime, and are listed as removed then", () => {
    const sim = new StealthSimulation(doorMap({ guard: false }));
    sim.addPlayer("p", { spawn: "west" });
    sim.throwSmoke("p", 8, 6);
    sim.step();
    const id = [...sim.smokes.clouds.keys()][0]!;
    const gone = steps(sim, SMOKE.seconds * 20 + 5, () => sim.smokes.removed.some((c) => c.id === id));
    // It ages its first tick in the step it lands.
    expect(gone).toBe(SMOKE.seconds * 20 - 1);
    expect(sim.smokes.clouds.size).toBe(0);
  });
});

describe("explored memory", () => {
  it("a player's explored tiles grow the step a door opens", () => {
    const sim = new StealthSimulation(doorMap({ guard: false }));
    sim.addPlayer("p", { spawn: "doorway" });
    const opacity = new OccluderOpacity(sim.occluders, sim.map);
    const eye = new TileVision(opacity.grid, { radius: 20 });
    eye.update(11, 6);
    expect(eye.isExplored(18, 6)).toBe(false);
    sim.requestDoor("p", DOOR_ID, true);
    sim.step();
    eye.update(11, 6);
    expect(eye.isExplored(18, 6)).toBe(true);
    opacity.dispose();
  });
});
