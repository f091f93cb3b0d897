import { applyInput, type Motion } from "../../shared/movement/applyInput.js";
import { sanitizeMoveFrame, type MoveIntent } from "../../shared/protocol.js";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { RoomStats } from "../ops/roomStats.js";
import { integer } from "../../shared/validation/rangeChecks.js";

/**
 * How a room's `defineInput` buffers move frames for the intake (the room adds its tick rate): frames are
 * de-duplicated on `seq`, sanitized on arrival, and at most 16 wait per client.
 */
export const MOVE_INPUT_OPTIONS = Object.freeze({ seqField: "seq", sanitize: sanitizeMoveFrame, bufferMaxSize: 16 } as const);

/** What the intake reads of a frame off the input stream (a decoded `MoveInput`). */
export interface MoveFrame extends MoveIntent {
  readonly seq: number;
  /** Set by the sanitizer on a frame it could not make sense of. */
  readonly rejected?: boolean;
}

/** The part of a client's Colyseus input buffer the intake reads. */
export interface FrameQueue {
  readonly size: number;
  /** Every pending frame, oldest first; the buffer is empty afterwards. */
  drain(): readonly MoveFrame[];
}

/**
 * A player's pending frames, copied out of Colyseus's buffer as plain numbers. Colyseus keeps a consumed
 * frame referenced until its buffer runs empty or 32 reads pile up, so reading one frame a tick from it
 * kept a second's worth of decoded frames alive: they outlived the young generation and were promoted,
 * about a quarter of what the old generation had to collect at 300 clients. Draining it every tick and
 * keeping the newest `capacity` frames here holds no frame object past the tick it arrived in.
 */
class FrameRing {
  private readonly numbers: Float64Array;
  private readonly flags: Uint8Array;
  private head = 0;
  size = 0;

  constructor(readonly capacity: number) {
    this.numbers = new Float64Array(capacity * 4);
    this.flags = new Uint8Array(capacity);
  }

  /** Appends a frame; when full, the oldest is dropped and true is returned. */
  push(frame: MoveFrame): boolean {
    let dropped = false;
    if (this.size === this.capacity) {
      this.shift();
      dropped = true;
    }
    const at = (this.head + this.size) % this.capacity;
    const n = this.numbers;
    n[at * 4] = frame.seq;
    n[at * 4 + 1] = frame.moveX;
    n[at * 4 + 2] = frame.moveY;
    n[at * 4 + 3] = frame.facing;
    this.flags[at] = (frame.crouch === true ? 1 : 0) | (frame.rejected === true ? 2 : 0);
    this.size++;
    return dropped;
  }

  /** Drops the oldest frame. */
  shift(): void {
    this.head = (this.head + 1) % this.capacity;
    this.size--;
  }

  /** Copies the oldest frame into `out` and drops it; returns whether it was marked rejected. */
  take(out: { seq: number; moveX: number; moveY: number; facing: number; crouch: boolean }): boolean {
    const at = this.head;
    const n = this.numbers;
    out.seq = n[at * 4];
    out.moveX = n[at * 4 + 1];
    out.moveY = n[at * 4 + 2];
    out.facing = n[at * 4 + 3];
    out.crouch = (this.flags[at] & 1) !== 0;
    const rejected = (this.flags[at] & 2) !== 0;
    this.shift();
    return rejected;
  }
}

/**
 * What the intake moves: the stealth simulation, or any room with characters that follow the same
 * movement rule (the load test's plain peer room).
 */
export type MotionSink = Pick<StealthSimulation, "setMotion" | "movement">;

interface Intent {
  readonly motion: Motion;
  readonly frames: FrameRing;
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
  /** The frame being applied (reused: the intake allocates nothing per frame). */
  private readonly frame = { seq: 0, moveX: 0, moveY: 0, facing: 0, crouch: false };

  constructor(
    private readonly sim: MotionSink,
    private readonly stats: RoomStats,
    private readonly settings: { readonly inputBacklog: number; readonly inputHoldTicks: number },
  ) {
    integer("StealthRoomSettings.inputBacklog", settings.inputBacklog, 1);
  }

  add(sessionId: string): void {
    this.intents.set(sessionId, {
      motion: { vx: 0, vy: 0, facing: 0, crouch: false },
      frames: new FrameRing(this.settings.inputBacklog),
      idleTicks: 0,
    });
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
    const { inputHoldTicks } = this.settings;
    const frame = this.frame;
    for (const [sid, intent] of this.intents) {
      const ring = intent.frames;
      const input = inputOf(sid);
      if (input.size > 0) {
        const arrived = input.drain();
        // The ring keeps the newest `inputBacklog` frames: older ones are the backlog a burst would build.
        for (let i = 0; i < arrived.length; i++) if (ring.push(arrived[i])) this.stats.inputsSkipped++;
      }
      if (ring.size === 0) {
        if (++intent.idleTicks === inputHoldTicks) this.stop(sid);
        continue;
      }
      intent.idleTicks = 0;
      const rejected = ring.take(frame);
      ack(sid, frame.seq);
      if (rejected || !applyInput(frame, intent.motion, this.sim.movement)) {
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
