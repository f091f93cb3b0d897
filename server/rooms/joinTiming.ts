import type { Client, Room } from "@colyseus/core";
import type { RoomStats } from "./roomStats.js";

/**
 * What each join costs the process's loop: the room's `onJoin`, then the full state Colyseus encodes and
 * sends when the client acknowledges the join. Both block every room of the process, so their sum per
 * join goes to {@link RoomStats.recordJoin}. Reconnections send a full state too, but no `onJoin` ran for
 * them: they are not counted.
 */
export class JoinTiming {
  private readonly onJoinMs = new Map<string, number>();

  constructor(room: Room, private readonly stats: RoomStats) {
    // `sendFullState` is how Colyseus answers the join ack; it is declared private, so it is timed by
    // wrapping this room's own copy rather than by overriding it.
    const host = room as unknown as { sendFullState(client: Client): void };
    const send = host.sendFullState.bind(room);
    host.sendFullState = (client: Client) => {
      const started = performance.now();
      send(client);
      const onJoin = this.onJoinMs.get(client.sessionId);
      if (onJoin === undefined) return;
      this.onJoinMs.delete(client.sessionId);
      this.stats.recordJoin(onJoin + performance.now() - started);
    };
  }

  /** The room's `onJoin` for `sessionId` started at `startedMs` (`performance.now()`) and has just ended. */
  joined(sessionId: string, startedMs: number): void {
    this.onJoinMs.set(sessionId, performance.now() - startedMs);
  }

  /** The session left before its join was acknowledged. */
  forget(sessionId: string): void {
    this.onJoinMs.delete(sessionId);
  }
}
