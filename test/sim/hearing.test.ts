import { Vec2 } from "planck";
import { describe, expect, it } from "vitest";
import type { DetectionEvent } from "sightline";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { DISTRACTION } from "../../shared/gameRules.js";
import { DOOR_ID, doorMap } from "../fixtures/doorMap.js";

/**
 * The stealth demo's ears: footsteps by gait, thrown distractions, guards that hear players through the
 * level and go to look. The map: two rooms with a door between them (x = 12..12.5, y = 4..8); guard
 * Keeper at (20, 6) in the east room, looking west.
 */
function roomWithPlayer(at: { x: number; y: number }, options: { open?: boolean } = {}): { sim: StealthSimulation; id: string } {
  const sim = new StealthSimulation(doorMap({ open: options.open ?? false }));
  const id = "thief";
  const p = sim.addPlayer(id, { spawn: "east" });
  p.body.setPosition(Vec2(at.x, at.y));
  return { sim, id };
}

/** Paces the player back and forth along x between `from` and `to` at `speed` m/s for `seconds`. */
function pace(sim: StealthSimulation, id: string, from: number, to: number, speed: number, seconds: number, crouch = false): DetectionEvent[] {
  const events: DetectionEvent[] = [];
  let dir = 1;
  for (let t = 0; t < seconds * sim.tickRate; t++) {
    const x = sim.players.get(id)!.body.getPosition().x;
    if (x > to) dir = -1;
    if (x < from) dir = 1;
    sim.setMotion(id, { vx: dir * speed, vy: 0, facing: 0, crouch });
    events.push(...sim.step().events);
  }
  return events;
}

describe("hearing in the stealth simulation", () => {
  it("a player running behind a guard is heard: the guard grows suspicious and goes to where it heard the steps", () => {
    const { sim, id } = roomWithPlayer({ x: 22, y: 9.5 });
    const events = pace(sim, id, 21.5, 23, 3, 3).filter((e) => e.observerId === "guard:Keeper");
    const suspicious = events.find((e) => e.type === "suspicious");
    expect(suspicious).toMatchObject({ sense: "hearing", targetId: id });
    // Where a step was heard, on the player's line, not where the player stands now.
    expect(suspicious!.position.y).toBeCloseTo(9.5, 1);
    expect(events[0]).toMatchObject({ type: "noticed", sense: "hearing" });
  });

  it("the same player crouching there goes unheard, though its steps are made", () => {
    const { sim, id } = roomWithPlayer({ x: 22, y: 9.5 });
    const events: DetectionEvent[] = [];
    let made = 0;
    for (let t = 0; t < 100; t++) {
      sim.setMotion(id, { vx: t % 20 < 10 ? 1.4 : -1.4, vy: 0, facing: 0, crouch: true });
      events.push(...sim.step().events);
      made += sim.ears.noises.filter((n) => n.emitter === id).length;
    }
    expect(made).toBeGreaterThan(0);
    expect(events.filter((e) => e.observerId === "guard:Keeper")).toEqual([]);
  });

  it("a shut door stops the footsteps that an open one lets through", () => {
    for (const open of [false, true]) {
      const { sim, id } = roomWithPlayer({ x: 10.5, y: 4.5 }, { open });
      let heard = 0;
      for (let t = 0; t < 40; t++) {
        sim.setMotion(id, { vx: 0, vy: t % 20 < 10 ? 3 : -3, facing: 0, crouch: false });
        sim.step();
        heard += sim.ears.heard.filter((h) => h.observerId === "guard:Keeper").length;
      }
      expect(heard > 0, `heard with the door ${open ? "open" : "shut"}`).toBe(open);
      expect(sim.doors.list.find((d) => d.objectId === DOOR_ID)).toBeDefined();
    }
  });

  it("a thrown distraction pulls the guard to the thud, not to the thrower", () => {
    // The thrower hides in the west room behind the shut door; the stone lands in the east room.
    const { sim, id } = roomWithPlayer({ x: 10, y: 10.5 });
    sim.step();
    sim.throwDistraction(id, 19, 3);
    const events: DetectionEvent[] = [];
    for (let t = 0; t < 3; t++) events.push(...sim.step().events);
    expect(sim.players.get(id)!.distractions).toBe(DISTRACTION.count - 1);
    expect(events.find((e) => e.type === "suspicious" && e.observerId === "guard:Keeper")).toMatchObject({ sense: "hearing", position: { x: 19, y: 3 } });
    // It walks there: closer to the thud after a few seconds than it started.
    for (let t = 0; t < 60; t++) sim.step();
    const at = sim.guards[0]!.body.getPosition();
    expect(Math.hypot(at.x - 19, at.y - 3)).toBeLessThan(Math.hypot(20 - 19, 6 - 3) - 1);
  });

  it("refuses a distraction with none left, too far or off the map, saying why", () => {
    const { sim, id } = roomWithPlayer({ x: 14, y: 10.5 });
    expect(() => sim.throwDistraction(id, 14, 10.5 - DISTRACTION.throwRange - 0.5)).toThrow(/off the map|reaches/);
    expect(() => sim.throwDistraction(id, 30, 10)).toThrow(/off the map/);
    for (let i = 0; i < DISTRACTION.count; i++) sim.throwDistraction(id, 15, 10);
    expect(() => sim.throwDistraction(id, 15, 10)).toThrow(/no distraction left/);
  });

  it("guards do not listen to guards, cameras are deaf, and a room without hearing is silent", () => {
    const { sim, id } = roomWithPlayer({ x: 16, y: 6 });
    pace(sim, id, 15, 17, 3, 2);
    expect(sim.ears.heard.every((h) => h.observerId.startsWith("guard:") && h.targetId === id)).toBe(true);
    const silent = new StealthSimulation(doorMap(), { hearing: false });
    silent.addPlayer("p", { spawn: "east" });
    pace(silent, "p", 15, 19, 3, 2);
    expect(silent.ears.noises).toEqual([]);
    expect(() => silent.throwDistraction("p", 18, 6)).toThrow(/no hearing/);
  });
});
