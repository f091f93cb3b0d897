import { Encoder } from "@colyseus/schema";
import { describe, expect, it } from "vitest";
import { RoomStats } from "../../server/ops/roomStats.js";
import { StateMirror } from "../../server/rooms/stateMirror.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { PlayerState, StealthState } from "../../shared/schema.js";
import { arenaMap } from "../fixtures/arenaMap.js";

describe("detection meters in the synced state", () => {
  it("a player's meter follows its guard's awareness tick by tick: level in hundredths, and the guard's state", () => {
    const sim = new StealthSimulation(arenaMap());
    const state = new StealthState();
    new Encoder(state);
    const mirror = new StateMirror(sim, state, new RoomStats());
    sim.addPlayer("p", { spawn: "front" });
    state.players.set("p", new PlayerState());
    const everyoneSeesEveryone = { has: () => true };
    const levels = new Set<number>();
    const states = new Set<string>();
    for (let tick = 0; tick < 80; tick++) {
      const result = sim.step();
      mirror.syncBodies(result);
      mirror.syncAwareness(result, everyoneSeesEveryone);
      const level = sim.awareness.level("guard:Watcher", "p");
      const meter = state.players.get("p")!.meters.get("guard:Watcher");
      if (level <= 0) {
        expect(meter).toBeUndefined();
        continue;
      }
      expect(meter).toBeDefined();
      expect(meter!.level).toBe(Math.round(level * 100) / 100);
      expect(meter!.state).toBe(sim.awareness.state("guard:Watcher"));
      levels.add(meter!.level);
      states.add(meter!.state);
    }
    // The meter rose through many values and the guard's state changed on the way.
    expect(levels.size).toBeGreaterThan(10);
    expect(states.size).toBeGreaterThan(1);
  });
});
