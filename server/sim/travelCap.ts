import { Vec2, type Body } from "planck";

/**
 * The speed limit every body keeps, pushed or not: the culling sizes what a client is sent ahead of sight
 * on the simulation's top speed, so a collision push that would carry a body farther in one step is cut
 * back along its path. Record where the bodies are before the physics step, cap after it.
 */
export class TravelCap {
  /** Each body's position before the step, as (x, y) pairs in the order given, grown on demand. */
  private start = new Float64Array(64);
  private readonly cutBack = Vec2(0, 0);

  /** Notes where `bodies` are, before the physics step. */
  record(bodies: readonly Body[]): void {
    if (this.start.length < 2 * bodies.length) this.start = new Float64Array(4 * bodies.length);
    const start = this.start;
    for (let b = 0; b < bodies.length; b++) {
      const at = bodies[b]!.getPosition();
      start[2 * b] = at.x;
      start[2 * b + 1] = at.y;
    }
  }

  /** Pulls every body (the same, in the same order) that travelled farther than `most` meters back along its path to `most`. */
  cap(bodies: readonly Body[], most: number): void {
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      const at = body.getPosition();
      const x0 = this.start[2 * b]!;
      const y0 = this.start[2 * b + 1]!;
      const dx = at.x - x0;
      const dy = at.y - y0;
      const d2 = dx * dx + dy * dy;
      if (d2 <= most * most) continue;
      const k = most / Math.sqrt(d2);
      this.cutBack.x = x0 + dx * k;
      this.cutBack.y = y0 + dy * k;
      body.setPosition(this.cutBack);
    }
  }
}
