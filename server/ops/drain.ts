import { hostedRooms as thisProcessRooms, type HostedRooms } from "../rooms/hostedRooms.js";
import { inRange } from "../../shared/validation/rangeChecks.js";

/** How far a drain has got, for `GET /health` and `GET /stats`. */
export interface DrainFigures {
  draining: boolean;
  /** Rooms still running here, and the clients in them. */
  rooms: number;
  clients: number;
  /** Seconds since the drain started, and until its deadline (0 when not draining). */
  elapsedSeconds: number;
  deadlineInSeconds: number;
}

/** Why a drain finished: the last room went, or the deadline came first. */
export type DrainEnd = "empty" | "deadline";

/** How often a drain looks at its rooms, ms: ending a drained process a quarter second late costs nothing. */
const POLL_MS = 250;

/**
 * Taking a process out of service without ending the games on it (a deploy, a scale-in). While it
 * drains: no new room is created here (`CreateLimits` refuses, and both placement rules skip a process
 * whose published load says it drains), every room here is locked, so nobody new joins it (a join by id
 * is refused as locked, `joinOrCreate` looks elsewhere), and the games already running play on:
 * reconnections still work, through this process or any other. When its last room has gone, or at the
 * deadline (the rooms left are then closed with Colyseus's shutdown code), `onEnd` runs: the server's
 * graceful shutdown, which takes the process out of Redis and exits 0.
 */
export class ProcessDrain {
  private startedAt = 0;
  private deadlineAt = 0;
  private done: Promise<DrainEnd> | undefined;
  private readonly starters = new Set<() => void>();

  constructor(private readonly rooms: HostedRooms, private readonly now: () => number = () => performance.now()) {}

  get draining(): boolean {
    return this.done !== undefined;
  }

  /**
   * Starts draining, with `deadlineSeconds` (>= 0) before the rooms still running are closed, and resolves
   * once `onEnd` has run. A second call returns the first one's promise.
   */
  start(deadlineSeconds: number, onEnd: (why: DrainEnd) => Promise<void>): Promise<DrainEnd> {
    if (this.done !== undefined) return this.done;
    inRange("ProcessDrain.start deadlineSeconds", deadlineSeconds, 0, 86_400, "seconds");
    this.startedAt = this.now();
    this.deadlineAt = this.startedAt + deadlineSeconds * 1000;
    this.done = new Promise<DrainEnd>((resolve) => {
      const look = () => {
        this.lockAll();
        const why: DrainEnd | undefined = this.rooms.size === 0 ? "empty" : this.now() >= this.deadlineAt ? "deadline" : undefined;
        if (why === undefined) {
          setTimeout(look, POLL_MS);
          return;
        }
        onEnd(why)
          .catch((err: unknown) => console.error(`drain: ending the process failed: ${(err as Error)?.message ?? String(err)}`))
          .finally(() => resolve(why));
      };
      look();
    });
    // After `done` is set, so a listener reading `draining` (the load it publishes) sees the drain.
    for (const listener of this.starters) listener();
    return this.done;
  }

  /** Calls `listener` when a drain starts (to tell the other processes at once); returns what stops it. */
  onStart(listener: () => void): () => void {
    this.starters.add(listener);
    return () => this.starters.delete(listener);
  }

  figures(): DrainFigures {
    let clients = 0;
    for (const room of this.rooms.list()) clients += room.clients.length;
    const now = this.now();
    return {
      draining: this.draining,
      rooms: this.rooms.size,
      clients,
      elapsedSeconds: this.draining ? Math.round((now - this.startedAt) / 100) / 10 : 0,
      deadlineInSeconds: this.draining ? Math.max(0, Math.round((this.deadlineAt - now) / 100) / 10) : 0,
    };
  }

  /** Every room here locked, again at every look: a room's own code could unlock it. */
  private lockAll(): void {
    for (const room of this.rooms.list()) if (!room.locked) void room.lock();
  }
}

/** This process's drain: one per process, as there is one matchmaker per process. */
export const processDrain = new ProcessDrain(thisProcessRooms);
