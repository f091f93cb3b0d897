import { Encoder } from "@colyseus/schema";
import { describe, expect, it } from "vitest";
import { RoomStats } from "../../server/ops/roomStats.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { StateMirror } from "../../server/rooms/stateMirror.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { StealthState } from "../../shared/schema.js";
import { FACING_STEP, syncedFacing } from "../../shared/syncedFacing.js";

describe("facings reach the synced state in steps no screen tells apart", () => {
  it("a facing is rounded to the nearest step, at most half a step off, and a synced one stays as it is", () => {
    for (const f of [0, 0.001, -0.001, Math.PI / 2, -Math.PI, Math.PI, 2.7182818, -1.2345, FACING_STEP * 0.5001, FACING_STEP * 0.4999]) {
      const s = syncedFacing(f);
      expect(Math.abs(s - f)).toBeLessThanOrEqual(FACING_STEP / 2 + 1e-12);
      expect(Math.abs(s / FACING_STEP - Math.round(s / FACING_STEP))).toBeLessThan(1e-9);
      expect(syncedFacing(s)).toBe(s);
    }
    expect(syncedFacing(Math.PI / 2)).toBeCloseTo(Math.PI / 2, 12);
    expect(FACING_STEP).toBeCloseTo((0.35 * Math.PI) / 180, 3);
  });

  it("patrolling guards' course corrections do not change the state, their turns do", () => {
    const map = MapCatalog.bundled().get("compound")!;
    const sim = new StealthSimulation(map, { extraGuards: 64 - map.guards.length });
    const state = new StealthState();
    new Encoder(state);
    const mirror = new StateMirror(sim, state, new RoomStats());
    const brainWas = new Map<string, number>();
    const syncedWas = new Map<string, number>();
    let brainChanges = 0;
    let syncedChanges = 0;
    let turnsSeen = 0;
    for (let tick = 0; tick < 300; tick++) {
      mirror.syncBodies(sim.step());
      for (const g of sim.guards) {
        const brain = g.brain.facing;
        const synced = state.guards.get(g.id)!.facing;
        // float32 on the wire: the state holds the number written; the step is what it is rounded to.
        expect(Math.abs(synced - brain)).toBeLessThanOrEqual(FACING_STEP / 2 + 1e-9);
        const before = brainWas.get(g.id);
        if (before !== undefined && before !== brain) brainChanges++;
        if (before !== undefined && Math.abs(brain - before) > FACING_STEP) turnsSeen++;
        const syncedBefore = syncedWas.get(g.id);
        if (syncedBefore !== undefined && syncedBefore !== synced) syncedChanges++;
        brainWas.set(g.id, brain);
        syncedWas.set(g.id, synced);
      }
    }
    // Every turn of more than a step reaches the state; most of the brain's changes are drift below one.
    expect(turnsSeen).toBeGreaterThan(0);
    expect(syncedChanges).toBeGreaterThanOrEqual(turnsSeen);
    expect(syncedChanges).toBeLessThan(brainChanges / 2);
  });
});
