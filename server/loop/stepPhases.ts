import { positive } from "../../shared/validation/rangeChecks.js";

/**
 * Where each room's fixed step falls inside the step period, spread evenly over every room of the process.
 *
 * Rooms that tick at the same rate from independent `setInterval`s drift into convoys: Node reschedules an
 * interval from when it ran, so a room delayed by another stays right behind it, and after a while every
 * room of the process ticks back to back. Twelve rooms then hold the loop for one long stretch per period,
 * and any timer or socket read that falls in it (a pong, an input, the event-loop-lag probe) waits for all
 * of them. Spread over the period instead, each room's step (and the patch that follows it) is a short
 * slice, and what waits, waits for one room.
 *
 * Offsets are live: when a room comes or goes the others re-spread (slot `i` of `n` sits at
 * `i * period / n`), and each {@link FixedStepClock} follows at its next firing, moving by at most half a
 * period.
 */
export class StepPhases {
  /** The phases of this process's rooms (what {@link FixedStepClock} uses unless told otherwise). */
  static readonly shared = new StepPhases();

  private readonly byPeriod = new Map<number, PhaseSlot[]>();

  /**
   * Claims a phase for a clock firing every `periodMs`.
   * @param periodMs the step interval, ms
   */
  claim(periodMs: number): PhaseSlot {
    positive("StepPhases.claim periodMs", periodMs, "milliseconds");
    let slots = this.byPeriod.get(periodMs);
    if (slots === undefined) this.byPeriod.set(periodMs, (slots = []));
    const slot = new PhaseSlot(periodMs, slots, () => {
      const at = slots.indexOf(slot);
      if (at >= 0) slots.splice(at, 1);
      if (slots.length === 0) this.byPeriod.delete(periodMs);
    });
    slots.push(slot);
    return slot;
  }

  /** Slots held for clocks of `periodMs`. */
  count(periodMs: number): number {
    return this.byPeriod.get(periodMs)?.length ?? 0;
  }
}

/** One clock's share of the period, from {@link StepPhases.claim}. */
export class PhaseSlot {
  private released = false;

  /** @internal */
  constructor(
    readonly periodMs: number,
    private readonly siblings: readonly PhaseSlot[],
    private readonly onRelease: () => void,
  ) {}

  /** Where this slot's firings fall, ms after each multiple of the period (on `performance.now()`'s clock). */
  get offsetMs(): number {
    const i = this.siblings.indexOf(this);
    return i < 0 ? 0 : (i * this.periodMs) / this.siblings.length;
  }

  /** Gives the phase back; the other slots re-spread. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}
