import { attachToTestRoom, type Client } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";
import { describe, expect, it, vi } from "vitest";
import { SightlinePlugin } from "sightline/colyseus";
import { seededRandom } from "../../shared/seededRandom.js";
import { PlayerState, StealthState } from "../../shared/schema.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { RoomStats } from "../../server/ops/roomStats.js";
import { StateMirror } from "../../server/rooms/stateMirror.js";
import { cullingFor, declarePlayer, declareScenery, followTeleports, type CullingOptions } from "../../server/rooms/stealthViews.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { VisionSystem } from "sightline";
import { arenaMap } from "../fixtures/arenaMap.js";

/**
 * The stealth room's culling, step by step without a server: the simulation mirrored into its schema and
 * culled by the `sightline/colyseus` plugin on a stand-in room, with the round trips the test chooses.
 */
function culled(sim: StealthSimulation, options: CullingOptions = {}, enabled = true) {
  const state = new StealthState();
  // The state a room would encode: the plugin refuses instances that are not in one.
  new Encoder(state);
  const mirror = new StateMirror(sim, state, new RoomStats());
  const roundTrips = new Map<string, number>();
  const plugin = new SightlinePlugin();
  attachToTestRoom(plugin, { patchRate: 50, roomId: "test", clients: { getById: () => undefined } } as never);
  plugin.start({ ...cullingFor(sim, { audit: true, ...options }, enabled), roundTrip: (id) => roundTrips.get(id) });
  declareScenery(plugin, sim, state);
  followTeleports(plugin, sim);
  const declare = (id: string) => {
    if (state.players.has(id)) return;
    const ps = new PlayerState();
    const at = sim.players.get(id)!.body.getPosition();
    Object.assign(ps, { x: at.x, y: at.y });
    state.players.set(id, ps);
    declarePlayer(plugin, sim, id, ps);
  };
  for (const id of sim.players.keys()) declare(id);
  const culling = {
    addClient(id: string) {
      declare(id);
      // A view that only records: these tests read the plugin's decisions, not encoded patches.
      plugin.setCharacter({ sessionId: id, view: { add() {}, remove() {} } } as unknown as Client, id);
    },
    setRoundTrip: (id: string, ms: number) => roundTrips.set(id, ms),
    has: (id: string, entity: string) => plugin.has(id, entity),
    get audit() {
      return plugin.audit;
    },
    get culling() {
      return plugin.culling!;
    },
  };
  const step = () => {
    const r = sim.step();
    for (const id of sim.players.keys()) declare(id);
    mirror.syncBodies(r);
    return plugin.update();
  };
  return { culling, step, plugin };
}

describe("anti-wallhack culling", () => {
  it("player behind the wall does not receive the guard; a player in the open does", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("hidden", { spawn: "cover", team: "a" });
    sim.addPlayer("open", { spawn: "far", team: "b" });
    const { culling, step } = culled(sim);
    culling.addClient("hidden");
    culling.addClient("open");
    step();
    expect(culling.has("hidden", "hidden")).toBe(true);
    expect(culling.has("hidden", "guard:Watcher")).toBe(false);
    expect(culling.has("open", "guard:Watcher")).toBe(true);
    // Different teams, but nothing stands between (12, 9) and (17, 5): they are in each other's views.
    expect(culling.has("open", "hidden")).toBe(true);
    expect(culling.has("hidden", "open")).toBe(true);
    sim.dispose();
  });

  it("with culling off, no occluders are read, every view holds every entity, and the plugin says it is off with nothing to measure", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("hidden", { spawn: "cover", team: "a" });
    sim.addPlayer("open", { spawn: "far", team: "b" });
    expect(cullingFor(sim, {}, false)).not.toHaveProperty("occluders");
    expect(culled(sim).plugin.enabled).toBe(true);
    const { culling, step, plugin } = culled(sim, {}, false);
    culling.addClient("hidden");
    culling.addClient("open");
    const report = step();
    expect(culling.has("hidden", "guard:Watcher")).toBe(true);
    expect(culling.has("hidden", "open")).toBe(true);
    expect(report).toMatchObject({ pairsTested: 0, occluderTests: 0 });
    expect(plugin.enabled).toBe(false);
    expect(plugin.culling).toBeNull();
    expect(plugin.range).toBe(Infinity);
    expect(plugin.audit).toBeNull();
    expect(plugin.counters.audit).toBeNull();
    sim.dispose();
  });

  it("teammates always see each other and share what they see", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("hidden", { spawn: "cover", team: "a" });
    sim.addPlayer("mate", { spawn: "far", team: "a" });
    const { culling, step } = culled(sim);
    culling.addClient("hidden");
    step();
    expect(culling.has("hidden", "mate")).toBe(true);
    // The teammate in the open sees the guard, so the hidden player's view holds it too.
    expect(culling.has("hidden", "guard:Watcher")).toBe(true);
    sim.dispose();
  });

  it("an enemy walking out from behind the wall enters the view before it is truly visible, and leaves only after the linger", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("watcher", { spawn: "front", team: "a" }); // (7, 5), west of the wall at x = 10..10.5, y = 7..11
    sim.addPlayer("enemy", { spawn: "cover", team: "b" }); // (12, 9), behind it
    const { culling, step } = culled(sim, { lingerSeconds: 0.25 });
    culling.addClient("watcher");
    culling.setRoundTrip("watcher", 100);
    let enteredAt = -1;
    let seenAt = -1;
    // The enemy walks north, past the wall's end at y = 7, into the watcher's sight.
    for (let t = 1; t <= 40 && seenAt < 0; t++) {
      sim.setMotion("enemy", { vx: 0, vy: -3, facing: 0, crouch: false });
      step();
      expect(culling.audit!.counts).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
      if (enteredAt < 0 && culling.has("watcher", "enemy")) enteredAt = t;
      if (seenAt < 0 && culling.audit !== null && trueSight(sim, "watcher", "enemy")) seenAt = t;
    }
    expect(enteredAt).toBeGreaterThan(0);
    expect(seenAt).toBeGreaterThan(0);
    // Early by at least the 50 ms a patch takes to arrive at a 100 ms round trip, plus a tick.
    expect(seenAt - enteredAt).toBeGreaterThanOrEqual(2);
    // Back behind the wall: gone only once the linger (5 ticks) has passed.
    let lastQualified = 0;
    let leftAt = -1;
    for (let t = 1; t <= 60 && leftAt < 0; t++) {
      sim.setMotion("enemy", { vx: 0, vy: 3, facing: 0, crouch: false });
      step();
      if (culling.culling.qualifies("watcher", "enemy")) lastQualified = t;
      if (!culling.has("watcher", "enemy")) leftAt = t;
    }
    expect(leftAt).toBeGreaterThan(0);
    expect(leftAt - lastQualified).toBe(culling.culling.lingerTicks + 1);
    sim.dispose();
  });

  it("an enemy sent back to a spawn the watcher cannot see leaves its view at once, rather than lingering there", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("watcher", { spawn: "cover", team: "a" }); // (12, 9), east of the wall at x = 10..10.5, y = 7..11
    sim.addPlayer("enemy", { spawn: "far", team: "b" }); // (17, 5), in the open
    const { culling, step } = culled(sim);
    culling.addClient("watcher");
    culling.setRoundTrip("watcher", 100);
    step();
    step();
    expect(culling.has("watcher", "enemy")).toBe(true);
    // Caught (or escaped): back to "behind" (1.5, 5), on the far side of the wall. Lingering would send that spot.
    sim.respawn("enemy", "behind");
    step();
    expect(culling.culling.qualifies("watcher", "enemy")).toBe(false);
    expect(culling.has("watcher", "enemy")).toBe(false);
    expect(culling.audit!.counts.leaks, culling.audit!.failures.join("\n")).toBe(0);
    sim.dispose();
  });

  it("a player caught on its own spawn is handed to the culling as teleported, though it moved less than a step", () => {
    const sim = new StealthSimulation(arenaMap());
    sim.addPlayer("p", { spawn: "front" }); // 3 m in front of the guard, who comes and catches it there
    const { culling, step, plugin } = culled(sim);
    culling.addClient("p");
    const told = vi.spyOn(plugin, "teleported");
    for (let i = 0; i < 200 && sim.players.get("p")!.caught === 0; i++) step();
    expect(sim.players.get("p")!.caught).toBe(1);
    expect(told.mock.calls).toEqual([["p"]]);
    expect(culling.audit!.counts, culling.audit!.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    sim.dispose();
  });

  it("a client's look-ahead grows with its round trip, up to the cap, and unknown counts as the cap", () => {
    const sim = new StealthSimulation(arenaMap());
    const { culling } = culled(sim, { maxRoundTripMs: 300 });
    const speed = culling.culling.maxSpeed;
    expect(culling.culling.lookaheadFor(0)).toBeCloseTo(speed * sim.dt, 9);
    expect(culling.culling.lookaheadFor(120)).toBeCloseTo(speed * (0.06 + sim.dt), 9);
    expect(culling.culling.lookaheadFor(5000)).toBeCloseTo(culling.culling.lookaheadFor(300), 9);
    expect(culling.culling.lookaheadFor(undefined)).toBeCloseTo(culling.culling.lookaheadFor(300), 9);
    expect(culling.culling.lookaheadFor(300)).toBeLessThanOrEqual(3);
    expect(() => culled(sim, { lingerSeconds: -1 })).toThrow(/ViewCullingOptions.lingerSeconds/);
    sim.dispose();
  });

  it("randomized runs on the demo map: several thousand client-ticks with latency up to 120 ms, no leak, no pop-in", () => {
    const map = MapCatalog.bundled().get("demo")!;
    let clientTicks = 0;
    let potentiallyVisible = 0;
    let churn = 0;
    for (const seed of [1, 2]) {
      const random = seededRandom(seed);
      const sim = new StealthSimulation(map);
      const { culling, step } = culled(sim);
      const bots: { id: string; vx: number; vy: number; crouch: boolean }[] = [];
      for (let i = 0; i < 8; i++) {
        const id = `p${i}`;
        sim.addPlayer(id, { team: ["red", "blue", "green"][i % 3]! });
        culling.addClient(id);
        culling.setRoundTrip(id, Math.round(random() * 120));
        bots.push({ id, vx: 0, vy: 0, crouch: false });
      }
      for (let t = 0; t < 400; t++) {
        for (const b of bots) {
          if (random() < 0.1) {
            const a = random() * 2 * Math.PI;
            const moving = random() < 0.8;
            b.crouch = random() < 0.3;
            const speed = b.crouch ? sim.movement.crouchSpeed : sim.movement.walkSpeed;
            b.vx = moving ? Math.cos(a) * speed : 0;
            b.vy = moving ? Math.sin(a) * speed : 0;
          }
          sim.setMotion(b.id, { vx: b.vx, vy: b.vy, facing: Math.atan2(b.vy, b.vx), crouch: b.crouch });
        }
        const r = step();
        potentiallyVisible += r.potentiallyVisible;
        churn += r.adds + r.removes;
      }
      const audit = culling.audit!.counts;
      expect(audit.leaks, culling.audit!.failures.join("\n")).toBe(0);
      expect(audit.popIns, culling.audit!.failures.join("\n")).toBe(0);
      expect(audit.misses, culling.audit!.failures.join("\n")).toBe(0);
      clientTicks += audit.clientTicks - audit.excused;
      sim.dispose();
    }
    expect(clientTicks).toBeGreaterThan(6000);
    // Not vacuous: the runs did put entities into views and take them out again.
    expect(potentiallyVisible).toBeGreaterThan(1000);
    expect(churn).toBeGreaterThan(100);
  });
});


/** Whether nothing that blocks sight lies on the line between the two characters' centres (the simulation's occluders). */
function trueSight(sim: StealthSimulation, from: string, to: string): boolean {
  const a = sim.players.get(from)!.body.getPosition();
  const b = sim.players.get(to)!.body.getPosition();
  const line = new VisionSystem(sim.occluders, { raysPerTick: Infinity });
  line.addObserver("a", { position: { x: a.x, y: a.y }, facing: 0, fov: 2 * Math.PI, range: Infinity });
  line.addObservable("b", { position: { x: b.x, y: b.y } });
  const clear = line.check("a", "b");
  line.dispose();
  return clear;
}
