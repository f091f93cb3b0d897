import { matchMaker, RoomInternalState, type Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import type { ProcessLoadBoard } from "./processLoad.js";
import { hostedRooms, type HostedRooms } from "../rooms/hostedRooms.js";
import { inRange } from "../../shared/validation/rangeChecks.js";

/** The hash Colyseus keeps each process's room count and clients in (`Stats.ts`). */
const ROOM_COUNT_KEY = "roomcount";

/** What a process re-registered after Redis lost it. */
export interface RecoveryCounts {
  /** Times this process found Redis had lost its registration, and registered again. */
  recoveries: number;
  /** When the last one finished, ms since the epoch (0: never). */
  lastAt: number;
}

/**
 * Puts back what this process keeps in Redis when Redis has lost it: a Redis restarted without
 * persistence comes back empty, and Colyseus 0.18 lists a room once (and its process's room count on a
 * join, a leave, or a minute later), so a room that was running before the restart could not be joined by
 * id through another process, nor placed beside. Each time the connection is ready again, and every
 * `intervalMs` in case the data went without the connection (a flush, a failover), it asks Redis for this
 * process's room listings and room count (one HMGET, one HGET); whatever is missing is put back: the
 * listings by Colyseus's own `restoreMissingRoomCaches` (which it runs after a sweep), the room count at
 * once, then the load figures, which also reseed the placement tally. Both are checked, not one for the
 * other: a room count persisted late (Colyseus defers them) can land first in a fresh Redis. Pub/sub
 * subscriptions come back by themselves: Colyseus's Redis presence subscribes again on every reconnect.
 */
export class RedisRecovery {
  readonly counts: RecoveryCounts = { recoveries: 0, lastAt: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly onReady = () => void this.check();

  /**
   * @param client the presence's command connection (its `ready` event starts a look)
   * @param intervalMs how often to look for a lost registration without a reconnect, ms
   * @default intervalMs 1000
   */
  constructor(
    private readonly client: Redis,
    private readonly presence: Presence,
    private readonly board: ProcessLoadBoard,
    readonly intervalMs = 1000,
    private readonly rooms: HostedRooms = hostedRooms,
  ) {
    inRange("RedisRecovery intervalMs", intervalMs, 100, Infinity, "milliseconds", "[)");
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.client.on("ready", this.onReady);
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.client.off("ready", this.onReady);
  }

  /** Whether Redis answers now. */
  get ready(): boolean {
    return this.client.status === "ready";
  }

  /** One look, and a re-registration if this process's entry is gone. Never rejects. */
  async check(): Promise<void> {
    if (this.running || !this.ready || matchMaker.state !== matchMaker.MatchMakerState.READY) return;
    this.running = true;
    try {
      // A disposing room has taken its listing out already, and stays in the registry until its onDispose:
      // not lost, and not restored (Colyseus's restore leaves it out on the same test).
      const ids = this.rooms.list().filter((room) => room["_internalState"] === RoomInternalState.CREATED).map((room) => room.roomId);
      const listed = await matchMaker.driver.findByIds(ids);
      const unlisted = ids.filter((id) => !listed.has(id)).length;
      const counted = (await this.presence.hget(ROOM_COUNT_KEY, matchMaker.processId)) !== null;
      if (unlisted === 0 && counted) return;
      if (!counted) await matchMaker.stats.persist(true);
      if (unlisted > 0) await matchMaker.restoreMissingRoomCaches();
      await this.board.publish();
      this.counts.recoveries++;
      this.counts.lastAt = Date.now();
      console.warn(`scale-out: Redis had lost ${unlisted} of this process's ${ids.length} room listings${counted ? "" : " and its room count"}; put back`);
    } catch (err) {
      console.warn(`scale-out: re-registration failed, retried in ${this.intervalMs} ms: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
