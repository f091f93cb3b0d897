import { describe, expect, it } from "vitest";
import { InputIntake, type FrameQueue } from "../../server/rooms/inputIntake.js";
import { RoomStats } from "../../server/ops/roomStats.js";
import { DEFAULT_MOVEMENT_RULES, type Motion } from "../../shared/movement/applyInput.js";
import type { StealthSimulation } from "../../server/sim/stealthSimulation.js";

type Frame = { seq: number; moveX: number; moveY: number; facing: number; crouch: boolean; rejected: boolean };

/** A client's Colyseus input buffer as the intake sees it. */
class Buffer implements FrameQueue {
  frames: Frame[] = [];
  get size(): number {
    return this.frames.length;
  }
  drain(): Frame[] {
    return this.frames.splice(0);
  }
  send(seq: number, moveX = 1, rejected = false): void {
    this.frames.push({ seq, moveX, moveY: 0, facing: 0, crouch: false, rejected });
  }
}

function intakeWith(backlog = 3, hold = 5) {
  const motions: { sid: string; vx: number }[] = [];
  const sim = { movement: DEFAULT_MOVEMENT_RULES, setMotion: (sid: string, m: Motion) => motions.push({ sid, vx: m.vx }) } as unknown as StealthSimulation;
  const stats = new RoomStats();
  const intake = new InputIntake(sim, stats, { inputBacklog: backlog, inputHoldTicks: hold });
  const buffer = new Buffer();
  const acks: number[] = [];
  const broken: string[] = [];
  intake.add("p");
  const tick = () => intake.consume(() => buffer, (_sid, seq) => acks.push(seq), (sid) => broken.push(sid));
  return { intake, stats, buffer, acks, broken, motions, tick };
}

describe("input intake", () => {
  it("applies one frame per tick, oldest first", () => {
    const { buffer, acks, tick } = intakeWith();
    buffer.send(1);
    buffer.send(2);
    tick();
    expect(acks).toEqual([1]);
    tick();
    expect(acks).toEqual([1, 2]);
    tick();
    expect(acks).toEqual([1, 2]);
  });

  it("a burst is cut to the backlog: the oldest frames are skipped and counted", () => {
    const { buffer, acks, stats, tick } = intakeWith(3);
    for (let seq = 1; seq <= 8; seq++) buffer.send(seq);
    tick();
    tick();
    tick();
    tick();
    expect(acks).toEqual([6, 7, 8]);
    expect(stats.inputsSkipped).toBe(5);
  });

  it("frames arriving while a backlog waits join it behind the older ones", () => {
    const { buffer, acks, stats, tick } = intakeWith(3);
    buffer.send(1);
    buffer.send(2);
    buffer.send(3);
    tick(); // takes 1, keeps 2 and 3
    buffer.send(4);
    buffer.send(5);
    tick(); // 2..5 is one too many: 2 is skipped, 3 taken
    tick();
    expect(acks).toEqual([1, 3, 4]);
    expect(stats.inputsSkipped).toBe(1);
  });

  it("a rejected frame stops the character and is reported; the next good frame moves it again", () => {
    const { buffer, broken, motions, stats, tick } = intakeWith();
    buffer.send(1, 1);
    tick();
    buffer.send(2, 1, true);
    tick();
    expect(broken).toEqual(["p"]);
    expect(stats.inputsNonFinite).toBe(1);
    expect(motions.at(-1)?.vx).toBe(0);
    buffer.send(3, 1);
    tick();
    expect(motions.at(-1)?.vx).toBeGreaterThan(0);
  });

  it("a NaN that slipped past the sanitizer never reaches the simulation", () => {
    const { buffer, broken, motions, tick } = intakeWith();
    buffer.send(1, Number.NaN);
    tick();
    expect(broken).toEqual(["p"]);
    expect(motions.every((m) => Number.isFinite(m.vx))).toBe(true);
  });

  it("without input the last intent holds for the hold ticks, then the character stops", () => {
    const { buffer, motions, tick } = intakeWith(3, 2);
    buffer.send(1, 1);
    tick();
    const moves = motions.length;
    tick();
    expect(motions.length).toBe(moves);
    tick();
    expect(motions.at(-1)?.vx).toBe(0);
  });

  it("a backlog below one frame is refused, naming the setting", () => {
    expect(() => intakeWith(0)).toThrow(/inputBacklog/);
  });
});
