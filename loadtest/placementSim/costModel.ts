/**
 * What a room costs a process, as fitted on the recorded load-test runs (`calibrate.ts` writes
 * `fittedCosts.ts`). CPU adds up over rooms; loop lag follows from the process's CPU share and its heaviest
 * room, whose step every other timer on the loop waits behind.
 */
export interface CostModel {
  /** CPU % of one core = perRoom + perGuard * guards + perClient * clients, summed over a process's rooms. */
  cpu: { perRoom: number; perGuard: number; perClient: number };
  /**
   * ln(loop-lag p99 in ms) = intercept + perShare * share + perHeaviestShare * heaviestShare, where share is
   * the process's modelled CPU as a fraction of a core and heaviestShare that of its heaviest room.
   */
  lag: { intercept: number; perShare: number; perHeaviestShare: number };
}

/** The model and what it was fitted on, as committed. */
export interface CostFit {
  model: CostModel;
  fittedOn: {
    /** Results files that gave records, and the process records in them. */
    files: number;
    /** The last results file read (by name, which starts with its date): runs recorded later are not in the fit. */
    upTo: string;
    records: number;
    /** CPU fit: R^2 and mean absolute error in % of a core. */
    cpu: { rSquared: number; meanAbsErrorPercent: number };
    /** Lag fit: R^2 of ln(lag), R^2 of lag in ms, mean absolute error in ms. */
    lag: { rSquaredLog: number; rSquaredMs: number; meanAbsErrorMs: number };
  };
}

/** One room's CPU, % of one core. */
export function roomCpuPercent(model: CostModel, guards: number, clients: number): number {
  return model.cpu.perRoom + model.cpu.perGuard * guards + model.cpu.perClient * clients;
}

/**
 * Loop-lag p99 of a process, ms.
 * @param share the process's CPU, fraction of a core (above 1 when its rooms ask more than a core)
 * @param heaviestShare its heaviest room's CPU, fraction of a core
 */
export function lagP99Ms(model: CostModel, share: number, heaviestShare: number): number {
  return Math.exp(model.lag.intercept + model.lag.perShare * share + model.lag.perHeaviestShare * heaviestShare);
}

/**
 * Event-loop busy share, 0..1, for a CPU share: the loop is taken as busy for all the CPU its rooms use. It
 * reads a little high (a recorded process's CPU also counts GC threads), so the saturation rule fires a
 * little early rather than late.
 */
export function busyOf(share: number): number {
  return Math.min(1, share);
}
