import type { Client, Room } from "@colyseus/core";
import { GcPauses } from "./gcPauses.js";
import type { RoomStats } from "./roomStats.js";

/**
 * What each join costs the process's loop: the room's `onJoin`, then the full state Colyseus encodes and
 * sends when the client acknowledges the join. Both block every room of the process, so their sum per
 * join goes to {@link RoomStats.recordJoin}. Reconnections send a full state too, but no `onJoin` ran for
 * them: they are not counted.
 *
 * A scavenge that falls inside a join pauses it too, though the garbage is everyone's: a second later, once
 * the collector's entries are in, the join is also recorded without the collection pauses inside it
 * ({@link RoomStats.recordJoinWork}), so the two readings tell the join's own work from the collector's.
 */
export class JoinTiming {
  /** Each session's `onJoin` window (start, end), until its full state is sent. */
  private readonly onJoinAt = new Map<string, [number, number]>();
  private readonly gc = GcPauses.shared();

  constructor(room: Room, private readonly stats: RoomStats) {
    // `sendFullState` is how Colyseus answers the join ack; it is declared private, so it is timed by
    // wrapping this room's own copy rather than by overriding it.
    const host = room as unknown as { sendFullState(client: Client): void };
    const send = host.sendFullState.bind(room);
    host.sendFullState = (client: Client) => {
      const started = performance.now();
      send(client);
      const ended = performance.now();
      const onJoin = this.onJoinAt.get(client.sessionId);
      if (onJoin === undefined) return;
      this.onJoinAt.delete(client.sessionId);
      const [a, b] = onJoin;
      const total = b - a + ended - started;
      this.stats.recordJoin(total);
      setTimeout(() => this.stats.recordJoinWork(total - this.gc.within(a, b) - this.gc.within(started, ended)), 1000).unref();
    };
  }

  /** The room's `onJoin` for `sessionId` started at `startedMs` (`performance.now()`) and has just ended. */
  joined(sessionId: string, startedMs: number): void {
    this.onJoinAt.set(sessionId, [startedMs, performance.now()]);
  }

  /** The session left before its join was acknowledged. */
  forget(sessionId: string): void {
    this.onJoinAt.delete(sessionId);
  }
}
