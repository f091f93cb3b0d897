import type { OccluderId, Occluders } from "sightline/occluders";
import { SMOKE } from "../../shared/gameRules.js";

/** A smoke cloud in the room, as clients are told of it. */
export interface SimSmoke {
  /** `smoke:<n>`, in the order they were thrown. */
  readonly id: string;
  readonly occluderId: OccluderId;
  /** Its centre, meters. */
  readonly x: number;
  readonly y: number;
}

/** Who throws: where it stands and how many grenades it has left. */
export interface Thrower {
  readonly id: string;
  smokes: number;
  body: { getPosition(): { x: number; y: number } };
}

/**
 * The smoke grenades of a room: players throw them (`request`, checked at once and applied at the start of
 * the next step with the step's other inputs), and each lands as a cloud in the room's `Occluders`, which
 * grows, blocks sight and thins as the simulation advances it. Tracks the clouds for the room to sync.
 */
export class SmokeGrenades {
  /** The clouds still there, by id. */
  readonly clouds = new Map<string, SimSmoke>();
  /** Clouds that appeared and went in the last `apply` (read before the next). */
  readonly added: SimSmoke[] = [];
  readonly removed: SimSmoke[] = [];
  private readonly pending: { thrower: Thrower; x: number; y: number }[] = [];
  private next = 1;

  constructor(private readonly occluders: Occluders, private readonly bounds: { width: number; height: number }) {}

  /**
   * A player asks to throw a grenade to (x, y), meters. Throws a RangeError saying why when it may not: no
   * grenade left, too far, or off the map.
   */
  request(thrower: Thrower, x: number, y: number): void {
    const pendingOfThrower = this.pending.filter((p) => p.thrower === thrower).length;
    if (thrower.smokes - pendingOfThrower <= 0) throw new RangeError(`no smoke grenade left (each life carries ${SMOKE.grenades})`);
    if (x < 0 || y < 0 || x > this.bounds.width || y > this.bounds.height) throw new RangeError(`(${x.toFixed(1)}, ${y.toFixed(1)}) is off the map (0..${this.bounds.width} x 0..${this.bounds.height} m)`);
    const at = thrower.body.getPosition();
    const distance = Math.hypot(x - at.x, y - at.y);
    if (distance > SMOKE.throwRange) throw new RangeError(`a smoke grenade reaches ${SMOKE.throwRange} m (that spot is ${distance.toFixed(1)} m away)`);
    this.pending.push({ thrower, x, y });
  }

  /**
   * At the start of a step: lands the grenades thrown since the last one, ages every cloud by `seconds`,
   * and lists the clouds that appeared and went.
   */
  apply(seconds: number): void {
    this.added.length = 0;
    this.removed.length = 0;
    for (const { thrower, x, y } of this.pending) {
      if (thrower.smokes <= 0) continue;
      thrower.smokes--;
      const occluderId = this.occluders.addSmoke(x, y, SMOKE);
      const cloud: SimSmoke = { id: `smoke:${this.next++}`, occluderId, x, y };
      this.clouds.set(cloud.id, cloud);
      this.added.push(cloud);
    }
    this.pending.length = 0;
    this.occluders.advance(seconds);
    for (const cloud of this.clouds.values()) {
      if (this.occluders.has(cloud.occluderId)) continue;
      this.clouds.delete(cloud.id);
      this.removed.push(cloud);
    }
  }

  /** Forgets what a player asked that has not landed yet (it left). */
  forget(thrower: Thrower): void {
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.thrower === thrower) this.pending.splice(i, 1);
  }
}
