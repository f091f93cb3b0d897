import { applyInput, type Motion } from "../../shared/movement/applyInput.js";
import type { MoveInput } from "../../shared/protocol.js";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { RoomStats } from "./roomStats.js";

/** A frame off the input stream (`MoveInput` plus what Colyseus adds). */
type MoveFrame = MoveInput & { seq: number; rejected?: boolean };

/** The part of a client's Colyseus input buffer the intake reads. */
interface FrameQueue {
  readonly size: number;
  next(): MoveFrame | undefined;
}

interface Intent {
  readonly motion: Motion;
  /** Ticks since the last input frame. */
  idleTicks: number;
}

/**
 * Each player's movement input, one frame per tick: a backlog beyond `inputBacklog` is skipped (a client
 * that bursts cannot build up lag), a missing frame keeps the last intent for `holdTicks` (jitter) and
 * then stops the character, and a broken frame (NaN, Infinity, rejected by the decoder) stops it too and
 * is reported to its sender. Never guesses at what a broken frame meant.
 */
export class InputIntake {
  private readonly intents = new Map<string, Intent>();

  constructor(
    private readonly sim: StealthSimulation,
    private readonly stats: RoomStats,
    private readonly settings: { readonly inputBacklog: number; readonly inputHoldTicks: number },
  ) {}

  add(sessionId: string): void {
    this.intents.set(sessionId, { motion: { vx: 0, vy: 0, facing: 0, crouch: false }, idleTicks: 0 });
  }

  remove(sessionId: string): void {
    this.intents.delete(sessionId);
  }

  /** The character stops (its client dropped, or sent a broken frame). */
  stop(sessionId: string): void {
    const intent = this.intents.get(sessionId);
    if (intent === undefined) return;
    intent.motion.vx = 0;
    intent.motion.vy = 0;
    this.sim.setMotion(sessionId, intent.motion);
  }

  /**
   * Takes one frame per player into the simulation. `ack` gets each consumed frame's sequence number;
   * `broken` is told of each player whose frame was dropped.
   */
  consume(inputOf: (sessionId: string) => FrameQueue, ack: (sessionId: string, seq: number) => void, broken: (sessionId: string) => void): void {
    const { inputBacklog, inputHoldTicks } = this.settings;
    for (const [sid, intent] of this.intents) {
      const input = inputOf(sid);
      while (input.size > inputBacklog) {
        input.next();
        this.stats.inputsSkipped++;
      }
      const frame = input.next();
      if (frame === undefined) {
        if (++intent.idleTicks === inputHoldTicks) this.stop(sid);
        continue;
      }
      intent.idleTicks = 0;
      ack(sid, frame.seq);
      if (frame.rejected === true || !applyInput(frame, intent.motion, this.sim.movement)) {
        this.stats.inputsNonFinite++;
        this.stop(sid);
        broken(sid);
        continue;
      }
      this.stats.inputsApplied++;
      this.sim.setMotion(sid, intent.motion);
    }
  }
}
