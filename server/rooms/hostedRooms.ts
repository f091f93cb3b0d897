import type { StealthRoom } from "./StealthRoom.js";

/** Told of every create request a process takes in, with the options it was asked with. */
export type CreateRequestListener = (options: unknown) => void;

/**
 * The `stealth` rooms this process hosts, read synchronously (no presence or driver round trip), and the
 * create requests it has taken in. The server adds a room when its `onCreate` has finished and removes it
 * in `onDispose`; it reports a create request before anything can refuse it, so a listener hears of every
 * request once, created or refused. Both happen within one synchronous `onCreate`, so whoever reads the
 * rooms and what listeners were told in one turn of the loop sees them agree.
 */
export class HostedRooms {
  private readonly live = new Set<StealthRoom>();
  private readonly listeners = new Set<CreateRequestListener>();

  /** The rooms, in creation order. */
  list(): StealthRoom[] {
    return [...this.live];
  }

  get size(): number {
    return this.live.size;
  }

  /** Reports a create request this process took in (before the room may refuse it). */
  requested(options: unknown): void {
    for (const listener of this.listeners) listener(options);
  }

  add(room: StealthRoom): void {
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
