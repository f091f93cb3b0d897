import type { Occluders } from "../occluders/occluders.js";
import type { OccluderPiece } from "../occluders/occluderPiece.js";
import { EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import { MISS } from "../../shared/math/rayCast.js";
import type { AreaListener, Blocker, SightMedium } from "./sightMedium.js";

/**
 * Sight rays through an {@link Occluders}: any-hit walks of its grid, with Box2D's shape rules, so a
 * level given as occluders answers as the same level built of static planck fixtures does. There are no
 * bodies here: observers and observables are points and circles. Allocation-free per ray.
 * @internal
 */
export class OccluderSight implements SightMedium {
  readonly hasBodies = false;
  readonly opaqueMask = EVERY_CATEGORY;
  segments = 0;
  lastBlocker: OccluderPiece | null = null;
  private stopListening: (() => void) | null = null;

  constructor(private readonly occluders: Occluders) {}

  refresh(): void {
    // Changes are announced by the occluders themselves, as they happen.
  }

  dispose(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  onAreaChanged(listener: AreaListener): void {
    this.stopListening?.();
    this.stopListening = this.occluders.onChange(listener);
  }

  blocked(x1: number, y1: number, x2: number, y2: number, _ignoreA: unknown, _ignoreB: unknown, maxFraction = 1): boolean {
    this.segments++;
    const packed = this.occluders.packed;
    const k = packed.firstBlocker(x1, y1, x2 - x1, y2 - y1, maxFraction);
    if (k < 0) return false;
    this.lastBlocker = packed.pieceAt(k);
    return true;
  }

  canBlock(blocker: Blocker): boolean {
    void this.occluders.packed; // re-packs after a change, so a live piece's index is current
    // An open door, a thinned cloud or a broken wall is still a piece, but blocks nothing.
    return (blocker as OccluderPiece).active;
  }

  crosses(blocker: Blocker, x1: number, y1: number, x2: number, y2: number, maxFraction = 1): boolean {
    const packed = this.occluders.packed;
    const piece = blocker as OccluderPiece;
    const k = piece.index;
    return k >= 0 && piece.active && packed.cast(k, x1, y1, x2 - x1, y2 - y1, maxFraction) !== MISS;
  }

  entryFraction(): number {
    return 1;
  }

  movingBodyAt(): null {
    return null;
  }
}
