/** What the truth audit of a culling found, summed since it started. Leaks, pop-ins and misses must all be 0. */
export interface AuditCounts {
  /** Entities in a view that were neither potentially visible (exact oracle) nor lingering. Must be 0. */
  leaks: number;
  /** Entities a character truly saw (exact sight) missing from what its client had received. Must be 0. */
  popIns: number;
  /**
   * Entities the exact oracle finds potentially visible that the view lacks right now: the fast path
   * (grid, cached blockers, travel allowances) deciding "hidden" wrongly. Stricter than pop-ins; must be 0.
   */
  misses: number;
  /** Client-ticks audited. */
  clientTicks: number;
  /** Client-ticks skipped while a teleport (or a fresh join) was still travelling to the client. */
  excused: number;
  /** Exact sight checks made for pop-ins (entities in range and out of the view). */
  truthChecks: number;
  /** Oracle evaluations made for leaks. */
  oracleChecks: number;
  /** Client-sends audited between two updates (`ViewCulling.settle`): views checked for teleports and team changes not yet applied. */
  sends: number;
  /** Noises delivered that the client's team could not hear, or that named an emitter its view lacked. Must be 0. */
  soundLeaks: number;
  /** Noise deliveries audited. */
  soundsAudited: number;
}
