import type { StealthRoom } from "./StealthRoom.js";

/** Told of every create request a process takes in, with the options it was asked with. */
export type CreateRequestListener = (options: unknown) => void;

/**
 * The `stealth` rooms this process hosts, read synchronously (no presence or driver round trip), the
 * create requests it has taken in, and the time its loop spent building rooms. The server runs each
 * `onCreate` through {@link build}, which tells listeners of the request before anything can refuse it (so
 * they hear of every request once, created or refused), then adds the room; it removes it in
 * `onDispose`. Both happen within one synchronous `onCreate`, so whoever reads the rooms and what listeners
 * were told in one turn of the loop sees them agree.
 */
export class HostedRooms {
  private readonly live = new Set<StealthRoom>();
  private readonly listeners = new Set<CreateRequestListener>();
  /** Loop time spent in room builds since the process started, ms (refused ones included). */
  buildMs = 0;
  /** When the last build ended, ms on `performance.now()`; -Infinity before the first. */
  lastBuildEndedAt = -Infinity;

  /** The rooms, in creation order. */
  list(): StealthRoom[] {
    return [...this.live];
  }

  get size(): number {
    return this.live.size;
  }

  /**
   * Runs a room's `onCreate` (`create`): tells listeners of the request, times the build, and adds the room
   * if `create` returns. What `create` throws is rethrown, the room left out.
   */
  build(room: StealthRoom, options: unknown, create: () => void): void {
    for (const listener of this.listeners) listener(options);
    const started = performance.now();
    try {
      create();
    } finally {
      this.lastBuildEndedAt = performance.now();
      this.buildMs += this.lastBuildEndedAt - started;
    }
    this.live.add(room);
  }

  delete(room: StealthRoom): void {
    this.live.delete(room);
  }

  /** Calls `listener` for every create request from now on; returns what stops it. */
  onCreateRequest(listener: CreateRequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** This process's rooms: one registry per process, as there is one matchmaker per process. */
export const hostedRooms = new HostedRooms();
