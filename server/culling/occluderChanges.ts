import type { OccluderChange } from "../occluders/changeFeed.js";
import type { Occluders } from "../occluders/occluders.js";
import { segmentTouchesBox } from "../../shared/math/rayCast.js";

/** Boxes of new or stronger pieces tracked one by one per update; past this, every visible verdict is tested again. */
const MAX_BOXES = 64;

/**
 * What changed in the occluders since the last culling update, in the form the remembered verdicts need,
 * so a door or a smoke cloud voids only the verdicts it can change rather than all of them:
 * - a piece that blocks more (added, a door shut, a cloud grown) can only hide a pair whose centre segment
 *   it touches: off that segment its margin exceeds any visible verdict's travel allowance. Those visible
 *   verdicts are void ({@link strongerAcross});
 * - a piece that blocks less (a door opened, a cloud thinned, a wall removed) can only turn visible a pair
 *   it was the remembered blocker of, which the verdicts see for themselves: the piece is no longer active;
 * - a compaction renumbers the pieces: every verdict is void ({@link layoutChanged}).
 * @internal
 */
export class OccluderChanges {
  /** Flat (minX, minY, maxX, maxY) boxes of pieces that block more since the last update. */
  private readonly boxes: number[] = [];
  private tooMany = false;
  private layout: number;
  private readonly stop: () => void;
  /** Set by {@link begin}: the pieces were renumbered, nothing remembered holds. */
  layoutChanged = false;
  /** Set by {@link begin}: some piece blocks more than at the last update. */
  anyStronger = false;

  constructor(private readonly occluders: Occluders) {
    this.layout = occluders.layout;
    this.stop = occluders.onChange((minX, minY, maxX, maxY, change: OccluderChange) => {
      if (!change.stronger) return;
      if (this.boxes.length >= 4 * MAX_BOXES) this.tooMany = true;
      else this.boxes.push(minX, minY, maxX, maxY);
    });
  }

  /** Takes in the changes since the last update. */
  begin(): void {
    this.layoutChanged = this.occluders.layout !== this.layout;
    this.layout = this.occluders.layout;
    this.anyStronger = this.tooMany || this.boxes.length > 0;
  }

  /** Forgets this update's changes (after it has used them). */
  end(): void {
    this.boxes.length = 0;
    this.tooMany = false;
    this.anyStronger = false;
  }

  /** Whether a piece that blocks more since the last update may touch the segment (ax, ay)-(bx, by). */
  strongerAcross(ax: number, ay: number, bx: number, by: number): boolean {
    if (this.tooMany) return true;
    const b = this.boxes;
    for (let i = 0; i < b.length; i += 4) {
      if (segmentTouchesBox(ax, ay, bx - ax, by - ay, 1, b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!)) return true;
    }
    return false;
  }

  /** Whether a piece that blocks more since the last update may lie within `reach` meters of (x, y). */
  strongerNear(x: number, y: number, reach: number): boolean {
    if (this.tooMany) return true;
    const b = this.boxes;
    for (let i = 0; i < b.length; i += 4) {
      if (b[i]! <= x + reach && b[i + 2]! >= x - reach && b[i + 1]! <= y + reach && b[i + 3]! >= y - reach) return true;
    }
    return false;
  }

  dispose(): void {
    this.stop();
  }
}
