import type { Occluders } from "../occluders/occluders.js";
import { segmentTouchesBox } from "../../shared/math/rayCast.js";

/**
 * The truth audit's memory of where the occluders changed and when: a door opened, a cloud thinned, a wall
 * added or taken away. A change tells the clients of itself in the patch after the update it falls before,
 * so what it reveals must be in the views from that update on: the audit holds the views to it (see
 * {@link lagNear}) rather than to the view a round trip old.
 * @internal
 */
export class RecentOccluderChanges {
  /** Boxes (meters) where occluders changed, with the audit tick they took effect at, oldest first. */
  private readonly changes: { at: number; minX: number; minY: number; maxX: number; maxY: number }[] = [];
  private readonly stop: () => void;

  /**
   * @param now the audit's tick: a change made after the audit of tick t takes effect at t + 1
   * @param history ticks a change is remembered
   */
  constructor(occluders: Occluders, private readonly now: () => number, private readonly history: number) {
    this.stop = occluders.onChange((minX, minY, maxX, maxY) => this.changes.push({ at: now() + 1, minX, minY, maxX, maxY }));
  }

  /** Whether occluders changed anywhere within the last `delay` ticks (this one included). */
  within(delay: number): boolean {
    const changes = this.changes;
    const tick = this.now();
    while (changes.length > 0 && tick - changes[0]!.at >= this.history) changes.shift();
    return changes.length > 0 && tick - changes[changes.length - 1]!.at <= delay;
  }

  /**
   * How many ticks old the view is that must hold an entity the character sees now: `delay` (what the
   * client has received by now), or fewer when occluders changed since near enough to the segment between
   * the two (grown by `reach`, how far both could have moved meanwhile, and their radii) to have hidden one
   * from the other: then the ticks since the latest such change, whose patch told the client of it.
   */
  lagNear(a: { x: number; y: number }, b: { x: number; y: number }, reach: number, delay: number): number {
    const tick = this.now();
    const changes = this.changes;
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!;
      const age = tick - c.at;
      if (age > delay) break;
      if (segmentTouchesBox(a.x, a.y, b.x - a.x, b.y - a.y, 1, c.minX - reach, c.minY - reach, c.maxX + reach, c.maxY + reach)) return Math.max(0, age);
    }
    return delay;
  }

  dispose(): void {
    this.stop();
  }
}
