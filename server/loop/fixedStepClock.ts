import { LoopTurns } from "./loopTurns.js";
import { StepPhases, type PhaseSlot } from "./stepPhases.js";
import { integer, positive } from "../../shared/validation/rangeChecks.js";

/** The timer functions the clock uses (Node's by default; a test passes its own). */
export interface StepClockTimers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: StepClockTimers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What one firing of a {@link FixedStepClock} asks for. */
export interface StepFiring {
  /** Fixed steps to run now: 1, or more to catch up after a late firing (at most `maxCatchUpSteps`). */
  steps: number;
  /** Steps that were due but are dropped because the firing was later than `maxCatchUpSteps` periods. */
  dropped: number;
  /** When the first of these steps was due, ms on the clock's time base. */
  dueMs: number;
  /** When the firing ran, ms. */
  nowMs: number;
}

/**
 * A room's game loop: fires on a fixed grid of times (`k * stepMs + phase`), without drift, at a phase
 * {@link StepPhases} spreads over the process's rooms.
 *
 * Colyseus's `setFixedTimestep` runs from a `setInterval`, which Node reschedules from whenever the callback
 * ran: each late firing moves all later ones, rooms drift into convoys, and a room's patches (on another
 * interval) fall below its tick rate long before the loop is saturated. This clock aims each firing at its
 * grid time: a late firing runs the steps it owes (up to `maxCatchUpSteps`, like Colyseus's accumulator; the
 * rest are dropped and reported, so real overload shows as slower simulated time, never as a spiral) and the
 * next one comes early.
 */
export class FixedStepClock {
  private timer: unknown;
  private slot: PhaseSlot | undefined;
  private due = 0;
  /** The timer fired and the firing waits for its turn. */
  private turnPending = false;
  private readonly firing: StepFiring = { steps: 0, dropped: 0, dueMs: 0, nowMs: 0 };

  /**
   * @param stepMs time between steps, ms
   * @param fire called at each firing; the object is reused, read it before returning
   * @param options `phases` (default {@link StepPhases.shared}), `turns` (default {@link LoopTurns.shared}: the
   *   firing runs in its own turn of the event loop once the timer fires), `maxCatchUpSteps` (default 5),
   *   `now` (ms, default `performance.now`) and `timers` (default Node's), the last two for tests
   */
  constructor(
    readonly stepMs: number,
    private readonly fire: (firing: Readonly<StepFiring>) => void,
    private readonly options: { phases?: StepPhases; turns?: LoopTurns; maxCatchUpSteps?: number; now?: () => number; timers?: StepClockTimers } = {},
  ) {
    positive("FixedStepClock stepMs", stepMs, "milliseconds");
    const max = options.maxCatchUpSteps ?? 5;
    integer("FixedStepClock options.maxCatchUpSteps", max, 1);
  }

  /** Claims a phase and starts firing, the first time at the phase's first grid time at least one step away. */
  start(): void {
    this.stop();
    this.slot = (this.options.phases ?? StepPhases.shared).claim(this.stepMs);
    this.due = this.aligned(this.now() + this.stepMs, this.now() + this.stepMs / 2);
    this.schedule();
  }

  /** Stops firing and gives the phase back. */
  stop(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    if (this.turnPending) this.turns.cancel(this.onTurn);
    this.turnPending = false;
    this.timer = undefined;
    this.slot?.release();
    this.slot = undefined;
  }

  /** Whether it is running. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Where this clock's firings fall in the period now, ms (0 when stopped). */
  get phaseMs(): number {
    return this.slot?.offsetMs ?? 0;
  }

  private get turns(): LoopTurns {
    return this.options.turns ?? LoopTurns.shared;
  }

  private get timers(): StepClockTimers {
    return this.options.timers ?? NODE_TIMERS;
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }

  /** `t` moved to the nearest time on this clock's phase grid (by at most half a step), but after `notBefore`. */
  private aligned(t: number, notBefore: number): number {
    const period = this.stepMs;
    const offset = this.slot?.offsetMs ?? 0;
    let shift = (((offset - t) % period) + period) % period; // 0 .. period, forward to the grid
    if (shift > period / 2) shift -= period;
    let at = t + shift;
    while (at <= notBefore) at += period;
    return at;
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(this.onTimer, Math.max(0, this.due - this.now()));
  }

  private readonly onTimer = (): void => {
    this.turnPending = true;
    this.turns.enqueue(this.onTurn);
  };

  /** The firing, in its turn: the steps owed by now (the turn may come a little after the timer). */
  private readonly onTurn = (): void => {
    this.turnPending = false;
    const now = this.now();
    const owed = Math.max(1, 1 + Math.floor((now - this.due) / this.stepMs));
    const max = this.options.maxCatchUpSteps ?? 5;
    const f = this.firing;
    f.steps = Math.min(owed, max);
    f.dropped = owed - f.steps;
    f.dueMs = this.due;
    f.nowMs = now;
    // The next grid time after the ones just served, following the phase if the rooms re-spread.
    this.due = this.aligned(this.due + owed * this.stepMs, now);
    // Rescheduled before firing: a step that throws must not stop the loop.
    this.schedule();
    this.fire(f);
  };
}
