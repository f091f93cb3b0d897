import { FixedStepClock, type StepFiring } from "./fixedStepClock.js";
import type { RoomStats } from "../ops/roomStats.js";

/**
 * A room's game loop: at each firing of a drift-free {@link FixedStepClock} (its phase spread over the
 * process's rooms), the steps the firing owes, then one patch, so what clients receive is never older than
 * the step that just ran. A step or patch that throws is reported and the loop goes on.
 */
export class GameLoop {
  /** True while the loop's own patch is being sent (the room lets only that one through). */
  patching = false;
  private readonly clock: FixedStepClock;
  private readonly waiters: (() => void)[] = [];

  constructor(
    stepMs: number,
    private readonly step: () => void,
    private readonly patch: () => void,
    private readonly report: (part: "step" | "patch", err: unknown) => void,
    private readonly stats: RoomStats,
  ) {
    this.clock = new FixedStepClock(stepMs, (firing) => this.fire(firing));
  }

  start(): void {
    this.clock.start();
    this.stats.stepPhaseMs = this.clock.phaseMs;
  }

  stop(): void {
    this.clock.stop();
  }

  /**
   * What the room's `broadcastPatch` override does with Colyseus's call: sends (through `send`, the
   * room's `super.broadcastPatch()`, timed into the stats) only the loop's own patch. Colyseus's patch
   * interval keeps calling too, since the patch rate must stay a number (the SDK learns it from the input
   * handshake); those calls only move the room clock.
   */
  gatePatch(clock: { tick(): void }, send: () => boolean): boolean {
    if (!this.patching) {
      clock.tick();
      return false;
    }
    const started = performance.now();
    const changed = send();
    this.stats.recordPatch(started, performance.now() - started);
    return changed;
  }

  /** Resolves after the next firing has run its steps and sent its patch. */
  afterNext(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private fire(firing: Readonly<StepFiring>): void {
    this.stats.stepsDropped += firing.dropped;
    this.stats.recordLateness(firing.nowMs - firing.dueMs);
    this.stats.stepPhaseMs = this.clock.phaseMs;
    try {
      for (let i = 0; i < firing.steps; i++) this.step();
    } catch (err) {
      this.report("step", err);
    }
    this.patching = true;
    try {
      this.patch();
    } catch (err) {
      this.report("patch", err);
    } finally {
      this.patching = false;
    }
    if (this.waiters.length > 0) for (const resolve of this.waiters.splice(0)) resolve();
  }
}
