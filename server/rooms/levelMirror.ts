import type { SightlinePlugin } from "sightline/colyseus";
import { SMOKE } from "../../shared/gameRules.js";
import type { SmokeState } from "sightline/occluders";
import { DoorState, SmokeCloud, type StealthState } from "../../shared/schema.js";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { SimSmoke } from "../sim/smokeGrenades.js";

/** What the level mirror asks of the culling: doors and clouds are culled entities. */
type Culling = Pick<SightlinePlugin, "addEntity" | "removeEntity">;

/**
 * The level's moving parts mirrored into the synced state: each door's open flag and each smoke cloud.
 * Both are culled entities, fixed (a door at the centre of its outline, a cloud at its centre with its
 * full radius: neither moves, so the plugin never reads their places again), so a client hears of a door
 * or a cloud only while it could see it: a door opened far away, or
 * a grenade thrown behind a wall, is no news of who is there. Runs after the step, before the culling.
 */
export class LevelMirror {
  /** Each door's state, in the order of the simulation's doors: no key to build per tick. */
  private readonly doorStates: DoorState[] = [];
  /** Each cloud with its synced state, in the order thrown: no key to look up per tick. */
  private readonly clouds: { cloud: SimSmoke; sc: SmokeCloud; radius: number; density: number }[] = [];
  /** Each door's open flag as last written to its state. */
  private readonly doorOpen: Uint8Array;
  private readonly cloud: SmokeState = { x: 0, y: 0, radius: 0, density: 0, blocking: false, ageSeconds: 0, seconds: 0 };

  constructor(private readonly sim: StealthSimulation, private readonly state: StealthState, private readonly culling: Culling) {
    this.doorOpen = Uint8Array.from(sim.doors.list, (d) => (d.open ? 1 : 0));
    for (const door of sim.doors.list) {
      const ds = new DoorState();
      Object.assign(ds, { x: door.x, y: door.y, open: door.open });
      const key = String(door.objectId);
      state.doors.set(key, ds);
      culling.addEntity(key, ds, { radius: door.radius, fixed: true });
      this.doorStates.push(ds);
    }
  }

  /** Doors opened and shut (`doorsToggled` of them, at the start of the step), clouds thrown, grown, thinned and gone. */
  sync(doorsToggled: number): void {
    const state = this.state;
    const doors = this.sim.doors.list;
    // What was last written is kept beside the state: a schema field read costs like a write's check.
    for (let i = 0; i < doors.length && doorsToggled > 0; i++) {
      const open = doors[i]!.open;
      if (this.doorOpen[i] === (open ? 1 : 0)) continue;
      this.doorOpen[i] = open ? 1 : 0;
      this.doorStates[i]!.open = open;
    }
    const smokes = this.sim.smokes;
    for (const cloud of smokes.removed) {
      // Out of every view before it leaves the state.
      this.culling.removeEntity(cloud.id);
      state.smokes.delete(cloud.id);
      const at = this.clouds.findIndex((c) => c.cloud === cloud);
      if (at >= 0) this.clouds.splice(at, 1);
    }
    for (const cloud of smokes.added) {
      const sc = new SmokeCloud();
      sc.x = cloud.x;
      sc.y = cloud.y;
      state.smokes.set(cloud.id, sc);
      this.culling.addEntity(cloud.id, sc, { radius: SMOKE.radius, fixed: true });
      this.clouds.push({ cloud, sc, radius: sc.radius, density: sc.density });
    }
    for (let i = 0; i < this.clouds.length; i++) {
      const synced = this.clouds[i]!;
      const now = this.sim.occluders.smoke(synced.cloud.occluderId, this.cloud);
      if (now === undefined) continue;
      // The radius changes at each of the cloud's few growth steps. The density in eighths: enough to
      // draw a cloud thinning out, and a change every quarter second of the fade rather than every tick
      // (each a patch to every client that sees the cloud). Rounded down, so it reads at least
      // SMOKE.opaqueDensity (four eighths) exactly while the cloud blocks.
      const radius = Math.round(now.radius * 100) / 100;
      const density = Math.floor(now.density * 8) / 8;
      if (synced.radius !== radius) synced.sc.radius = synced.radius = radius;
      if (synced.density !== density) synced.sc.density = synced.density = density;
    }
  }
}
