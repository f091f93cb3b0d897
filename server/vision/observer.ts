import type { Body } from "planck";
import type { Blocker } from "./sightMedium.js";
import type { Observable } from "./observable.js";
import type { PairSighting } from "./pairSighting.js";
import { Sector } from "../../shared/math/sector.js";

/** The engine's record of one observer: its spec, its cone, and what it saw at its last evaluation. @internal */
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
  /** The cone's half angle, radians (`sector.halfAngle`, kept here so `sightings()` need not reach the sector). */
  halfFov = 0;
  /** Ids seen at the last evaluation. */
  readonly visible = new Set<string>();
  /** The same pairs as engine sightings, chained in the same order (what `sightings()` walks, no id lookups). */
  firstSeen: PairSighting | null = null;
  /** Tick its results were last known exact (evaluated, or checked and nothing had changed). */
  freshAt = 0;
  /** Tick stamp of its last own change (pose or spec); compared with `freshAt`. */
  changedAt = 0;
  /** Has pending work that survives until it is evaluated (sticky across ticks). */
  dirty = true;
  /** Slot in the engine's dense observer array. */
  slot = -1;
  /** Slot in the engine's list of observers that see someone, or -1. */
  seeingSlot = -1;
  /** The cone widened by the lose-sight margins, for targets it already sees; synced lazily. */
  readonly loseSector = new Sector();
  loseSynced = false;
  /**
   * Candidates in view found by this tick's scan, so an evaluation in the same tick goes straight to the
   * rays (poses cannot change inside a tick). Reused between ticks; `candidateCount` entries are valid.
   */
  readonly candidates: Observable[] = [];
  candidateCount = 0;
  /** Temporal coherence: the fixture that last hid each target from this observer. */
  readonly blockers = new Map<Observable, Blocker>();

  constructor(id: string) {
    this.id = id;
  }

  /** Reach of the widest sense, meters: how far a candidate query must look. */
  get reach(): number {
    return this.range > this.proximityRadius ? this.range : this.proximityRadius;
  }

  syncSector(): void {
    this.sector.set(this.x, this.y, this.facing, this.fov, this.range);
    this.halfFov = this.sector.halfAngle;
    this.loseSynced = false;
  }

  /** The widened cone (see `loseSector`), brought up to date with the pose if needed. */
  lose(rangeMargin: number, angleMargin: number): Sector {
    if (!this.loseSynced) {
      const wide = this.fov >= 2 * Math.PI ? this.fov : this.fov + 2 * angleMargin;
      this.loseSector.set(this.x, this.y, this.facing, wide, this.range * (1 + rangeMargin));
      this.loseSynced = true;
    }
    return this.loseSector;
  }
}
