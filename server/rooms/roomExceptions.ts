import type { RoomException, RoomMethodName } from "@colyseus/core";
import { Refusal } from "./refusal.js";
import type { RoomStats } from "../ops/roomStats.js";

/** Log lines a room writes before it logs only every 1000th exception. */
const LOGGED_IN_FULL = 20;

/**
 * A room's `onUncaughtException`: a {@link Refusal} is the client's answer, not a fault (counted as a
 * refused join when it came from `onJoin`); anything else is counted in {@link RoomStats.exceptions} and
 * logged, boundedly, so a client that triggers a bug every frame does not flood the log as well.
 */
export class RoomExceptions {
  private logged = 0;

  /** @param label what the log lines start with, e.g. "stealth" */
  constructor(
    private readonly label: string,
    private readonly stats: RoomStats,
  ) {}

  handle(roomId: string, error: RoomException, method: RoomMethodName): void {
    if (error.cause instanceof Refusal) {
      if (method === "onJoin") this.stats.joinsRefused++;
      return;
    }
    this.stats.exceptions++;
    if (this.logged < LOGGED_IN_FULL || this.stats.exceptions % 1000 === 0) {
      this.logged++;
      console.error(`[${this.label} ${roomId}] ${method} threw (${this.stats.exceptions} so far): ${error.cause instanceof Error ? error.cause.stack : error.message}`);
    }
  }
}
