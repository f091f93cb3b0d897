import type { Body } from "planck";
import { Sector } from "../../shared/math/sector.js";

/** The engine's record of one observer: its spec, its cone, and what it saw at its last evaluation. */
export class Observer {
  readonly id: string;
  x = 0;
  y = 0;
  facing = 0;
  range = 0;
  fov = 0;
  proximityRadius = 0;
  body: Body | null = null;
  priority = 1;

  /** The cone, kept in step with the pose. */
  readonly sector = new Sector();
  /** Ids seen at the last evaluation. */
  readonly visible = new Set<string>();
  /** Engine tick of the last evaluation; -1 before the first. */
  lastEvaluated = -1;
  /** Slot in the engine's dense observer array. */
  slot = -1;

  constructor(id: string) {
    this.id = id;
  }

  /** Reach of the widest sense, meters: how far a candidate query must look. */
  get reach(): number {
    return this.range > this.proximityRadius ? this.range : this.proximityRadius;
  }

  syncSector(): void {
    this.sector.set(this.x, this.y, this.facing, this.fov, this.range);
  }
}
