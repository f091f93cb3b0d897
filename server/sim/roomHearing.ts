import { Hearing, type Earshot, type Heard, type Noise } from "sightline";
import type { Occluders } from "sightline/occluders";
import { DISTRACTION, FOOTSTEPS } from "../../shared/gameRules.js";
import type { SimGuard, SimPlayer } from "./simEntities.js";

/**
 * The noises of one room and who among the guards hears them: footsteps by gait (every character), the
 * thuds of thrown distractions (`request`, checked at once and landing at the next step), and, for each
 * noise a player made, the guards in earshot through the level (`Hearing`). Cameras are deaf; guards do
 * not listen to each other. The noises go on to the room, which sends each client what its character
 * could hear.
 */
export class RoomHearing {
  readonly hearing: Hearing;
  /** This step's noises (valid until the next step; the objects are reused). */
  readonly noises: Noise[] = [];
  /** What guards heard this step, for the awareness model (reused alike). */
  readonly heard: Heard[] = [];
  private readonly noisePool: Noise[] = [];
  private readonly heardPool: Heard[] = [];
  private readonly ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  private readonly pending: { thrower: SimPlayer; x: number; y: number }[] = [];

  constructor(occluders: Occluders, private readonly bounds: { width: number; height: number }, readonly enabled: boolean) {
    this.hearing = new Hearing(occluders);
  }

  /**
   * A player asks to throw a distraction to (x, y), meters. Throws a RangeError saying why when it may
   * not: none left, too far, or off the map.
   */
  request(thrower: SimPlayer, x: number, y: number): void {
    if (!this.enabled) throw new RangeError("this room has no hearing: distractions do nothing here");
    const pendingOfThrower = this.pending.filter((p) => p.thrower === thrower).length;
    if (thrower.distractions - pendingOfThrower <= 0) throw new RangeError(`no distraction left (each life carries ${DISTRACTION.count})`);
    if (x < 0 || y < 0 || x > this.bounds.width || y > this.bounds.height) throw new RangeError(`(${x.toFixed(1)}, ${y.toFixed(1)}) is off the map (0..${this.bounds.width} x 0..${this.bounds.height} m)`);
    const at = thrower.body.getPosition();
    const distance = Math.hypot(x - at.x, y - at.y);
    if (distance > DISTRACTION.throwRange) throw new RangeError(`a distraction reaches ${DISTRACTION.throwRange} m (that spot is ${distance.toFixed(1)} m away)`);
    this.pending.push({ thrower, x, y });
  }

  /** Forgets what a player threw that has not landed (it left). */
  forget(thrower: SimPlayer): void {
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.thrower === thrower) this.pending.splice(i, 1);
  }

  /** After physics: this step's footsteps and thuds, and what the guards heard of the players' ones. */
  step(players: Iterable<SimPlayer>, guards: readonly SimGuard[], dt: number): void {
    this.noises.length = 0;
    this.heard.length = 0;
    if (!this.enabled) return;
    for (const { thrower, x, y } of this.pending) {
      if (thrower.distractions <= 0) continue;
      thrower.distractions--;
      this.make(x, y, DISTRACTION.loudness, "thud", thrower.id);
    }
    this.pending.length = 0;
    for (const p of players) this.footstep(p, p.crouch, dt);
    const fromPlayers = this.noises.length;
    for (const g of guards) this.footstep(g, false, dt);
    for (let i = 0; i < fromPlayers; i++) this.listen(this.noises[i]!, guards);
  }

  private footstep(walker: SimPlayer | SimGuard, crouch: boolean, dt: number): void {
    const v = walker.body.getLinearVelocity();
    const speed = Math.hypot(v.x, v.y);
    if (speed < FOOTSTEPS.stillBelow) return;
    const moved = walker.stride + speed * dt;
    if (moved < FOOTSTEPS.stride) {
      walker.stride = moved;
      return;
    }
    walker.stride = moved - FOOTSTEPS.stride;
    const at = walker.body.getPosition();
    const loudness = crouch ? FOOTSTEPS.crouch : speed >= FOOTSTEPS.runFrom ? FOOTSTEPS.run : FOOTSTEPS.walk;
    this.make(at.x, at.y, loudness, "footstep", walker.id);
  }

  private make(x: number, y: number, loudness: number, kind: string, emitter: string): void {
    const i = this.noises.length;
    const n = (this.noisePool[i] ??= { x: 0, y: 0, loudness: 0, kind: "", emitter: "" });
    n.x = x;
    n.y = y;
    n.loudness = loudness;
    n.kind = kind;
    n.emitter = emitter;
    this.noises.push(n);
  }

  private listen(noise: Noise, guards: readonly SimGuard[]): void {
    const reach = noise.loudness * noise.loudness;
    for (const g of guards) {
      const at = g.body.getPosition();
      const dx = at.x - noise.x;
      const dy = at.y - noise.y;
      if (dx * dx + dy * dy >= reach) continue;
      if (!this.hearing.hears(noise, at.x, at.y, this.ear)) continue;
      const i = this.heard.length;
      const h = (this.heardPool[i] ??= { observerId: "", targetId: "", level: 0, position: { x: 0, y: 0 }, salience: 1 });
      h.observerId = g.id;
      h.targetId = noise.emitter;
      h.level = this.ear.level;
      h.position.x = noise.x;
      h.position.y = noise.y;
      h.salience = noise.kind === "thud" ? DISTRACTION.salience : 1;
      this.heard.push(h);
    }
  }
}
