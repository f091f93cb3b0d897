import { describe, expect, it } from "vitest";
import { LoopTurns } from "../../server/loop/loopTurns.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("loop turns", () => {
  it("rooms due together run one per turn: work queued by the first runs before the second room", async () => {
    const turns = new LoopTurns();
    const order: string[] = [];
    turns.enqueue(() => {
      order.push("room 1");
      setImmediate(() => order.push("a socket read"));
      setTimeout(() => order.push("a timer"), 0);
      // The room's firing takes a few milliseconds: the timer is due before the next turn.
      const until = performance.now() + 3;
      while (performance.now() < until);
    });
    turns.enqueue(() => order.push("room 2"));
    expect(turns.waiting).toBe(2);
    await settle();
    expect(order).toEqual(["room 1", "a timer", "a socket read", "room 2"]);
    expect(turns.waiting).toBe(0);
  });

  it("keeps the order work was queued in, past its first capacity", async () => {
    const turns = new LoopTurns();
    const ran: number[] = [];
    for (let i = 0; i < 40; i++) turns.enqueue(() => ran.push(i));
    await settle();
    expect(ran).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it("a cancelled firing does not run; the others still do", async () => {
    const turns = new LoopTurns();
    const ran: string[] = [];
    const stopped = () => ran.push("stopped room");
    turns.enqueue(() => ran.push("room 1"));
    turns.enqueue(stopped);
    turns.enqueue(() => ran.push("room 3"));
    turns.cancel(stopped);
    await settle();
    expect(ran).toEqual(["room 1", "room 3"]);
  });
});
