import { matchMaker, type Presence } from "@colyseus/core";
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import type { EventLoopLag } from "../ops/eventLoopLag.js";
import { processLoopLag } from "../ops/serverFigures.js";
import { hostedRooms as thisProcessRooms, type HostedRooms } from "../rooms/hostedRooms.js";
import { inRange } from "../../shared/validation/rangeChecks.js";

/** The presence hash every process writes its load into, one field per process id. */
const LOAD_KEY = "sightline:load";
/**
 * The presence hash of room weight placed on each process so far, in thousandths, by every matchmaker
 * (only ever incremented, so concurrent placements add up).
 */
const PLACED_KEY = "sightline:placed";

/** What one process says about its own load, published through presence about once a second. */
export interface ProcessLoad {
  processId: string;
  /** When it was published, ms since the epoch (`Date.now()`: the processes share no other clock). */
  at: number;
  /**
   * Share of wall time the event loop was busy over the last interval, 0..1 (`eventLoopUtilization`),
   * less the time spent building rooms: the load of playing them.
   */
  busy: number;
  /**
   * Event-loop lag p99 of the last completed window with no room build in it, ms (0 before there is
   * one): the lag of playing the rooms, not of building them.
   */
  lagP99Ms: number;
  /** Clients in its stealth rooms. */
  ccu: number;
  rooms: number;
  guards: number;
  /** Modelled cost of its rooms, in room weights (see {@link roomWeight}). */
  weight: number;
  /**
   * The expected weight (thousandths, as {@link PLACED_KEY} counts it) of every create request this process
   * has taken in, created or refused. What was placed on it beyond this is on its way and not in `weight`.
   */
  absorbed: number;
  /** It is draining for a restart: no new room goes there (its running rooms play on until they empty). */
  draining: boolean;
}

/**
 * What a room costs, in units of an empty room without guards. Guards weigh most (a body, a sight check
 * and a meter for each player every step); players weigh for their view, their culling and their share
 * of the patch. A 64-guard room of 25 players weighs about 15 empty rooms.
 * @param guards guards in the room
 * @param players clients in the room
 */
export function roomWeight(guards: number, players: number): number {
  return 1 + guards / 8 + players / 4;
}

/** The weight a room about to be created will have soon: its guards (when asked for) and its creator. */
export function expectedWeight(clientOptions: unknown): number {
  const guards = (clientOptions as { guards?: unknown } | null | undefined)?.guards;
  return roomWeight(typeof guards === "number" && Number.isFinite(guards) && guards > 0 ? guards : 0, 1);
}

/** {@link expectedWeight} in the thousandths the placement tally counts in (the placement simulator counts with it too). */
export function tallyOf(clientOptions: unknown): number {
  return Math.round(expectedWeight(clientOptions) * 1000);
}

/**
 * Publishes this process's {@link ProcessLoad} through presence every `intervalMs` and reads everyone's.
 * Placement reads the figures (see `loadAwarePlacement`); they are advice, so a read that fails or finds
 * garbage gives no entry for that process rather than an error.
 */
export class ProcessLoadBoard {
  private timer: NodeJS.Timeout | undefined;
  private lastElu: EventLoopUtilization = performance.eventLoopUtilization();
  private lastBuildMs: number;
  /** Loop-lag p99 of the last window with no room build in it, ms. */
  private playLagP99 = 0;
  private publishing: Promise<void> = Promise.resolve();
  /** The round queued behind the one under way and not started yet, if any. */
  private waiting: Promise<void> | undefined;
  private stopped = false;
  private absorbed = 0;
  private readonly stopCounting: () => void;
  private readonly rooms: HostedRooms;
  private readonly lag: EventLoopLag;
  private readonly processId: () => string;
  private readonly draining: () => boolean;

  /**
   * @param presence the presence the matchmaker uses (Redis when scaled out)
   * @param intervalMs how often the figures are published, ms
   * @param sources where the figures come from: this process's by default (tests pass their own)
   * @default intervalMs 1000
   */
  constructor(
    private readonly presence: Presence,
    readonly intervalMs = 1000,
    sources: { rooms?: HostedRooms; lag?: EventLoopLag; processId?: () => string; draining?: () => boolean } = {},
  ) {
    inRange("ProcessLoadBoard intervalMs", intervalMs, 50, Infinity, "milliseconds", "[)");
    this.rooms = sources.rooms ?? thisProcessRooms;
    this.lag = sources.lag ?? processLoopLag();
    this.processId = sources.processId ?? (() => matchMaker.processId);
    this.draining = sources.draining ?? (() => false);
    this.lastBuildMs = this.rooms.buildMs;
    this.stopCounting = this.rooms.onCreateRequest((options) => {
      this.absorbed += tallyOf(options);
    });
  }

  /** Starts publishing (once the matchmaker has its process id, i.e. after `listen`). */
  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    void this.publish();
    this.timer = setInterval(() => void this.publish(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops publishing and removes this process's entry, so nobody places rooms on a process that is leaving. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopCounting();
    clearInterval(this.timer);
    this.timer = undefined;
    await this.publishing;
    await this.presence.hdel(LOAD_KEY, this.processId()).catch(() => undefined);
    await this.presence.hdel(PLACED_KEY, this.processId()).catch(() => undefined);
  }

  /**
   * Records that a room created with `clientOptions` was placed on `processId`, for every matchmaker to see
   * at once: it counts as pending there until that process has taken the create request in.
   */
  async recordPlacement(processId: string, clientOptions: unknown): Promise<void> {
    await this.presence.hincrby(PLACED_KEY, processId, tallyOf(clientOptions));
  }

  /** Weight placed on each process so far, thousandths. */
  async readPlaced(): Promise<Map<string, number>> {
    const raw = (await this.presence.hgetall(PLACED_KEY)) ?? {};
    const placed = new Map<string, number>();
    for (const [id, text] of Object.entries(raw)) {
      const n = Number(text);
      if (Number.isFinite(n)) placed.set(id, n);
    }
    return placed;
  }

  /**
   * This process's figures, now. Synchronous on purpose: the rooms and the create requests taken in are
   * read in one turn of the loop, so a room is either pending (requested, not counted) or counted, never
   * both or neither.
   */
  measure(): ProcessLoad {
    // Building a room stalls the loop for tens of ms; a burst of creates would make a process look
    // saturated just when rooms are being placed. So build time is taken out of the busy share, and a lag
    // window with a build in it is passed over (the last window without one stands).
    const elu = performance.eventLoopUtilization(this.lastElu);
    this.lastElu = performance.eventLoopUtilization();
    const built = this.rooms.buildMs - this.lastBuildMs;
    this.lastBuildMs = this.rooms.buildMs;
    const wall = elu.active + elu.idle;
    const busy = wall > 0 ? Math.max(0, elu.active - built) / wall : 0;
    const window = this.lag.last;
    if (window !== null && this.rooms.lastBuildEndedAt < window.endedAtMs - this.lag.windowSeconds * 1000) this.playLagP99 = window.p99;
    const rooms = this.rooms.list();
    let ccu = 0;
    let guards = 0;
    let weight = 0;
    for (const room of rooms) {
      const g = room.sim.guards.length;
      ccu += room.clients.length;
      guards += g;
      weight += roomWeight(g, room.clients.length);
    }
    return {
      processId: this.processId(),
      at: Date.now(),
      busy: Math.round(busy * 1000) / 1000,
      lagP99Ms: this.playLagP99,
      ccu,
      rooms: rooms.length,
      guards,
      weight,
      absorbed: this.absorbed,
      draining: this.draining(),
    };
  }

  /** Every process's last published figures, by process id (entries that do not parse are left out). */
  async readAll(): Promise<Map<string, ProcessLoad>> {
    const raw = (await this.presence.hgetall(LOAD_KEY)) ?? {};
    const loads = new Map<string, ProcessLoad>();
    for (const [id, text] of Object.entries(raw)) {
      const load = parseLoad(id, text);
      if (load !== undefined) loads.set(id, load);
    }
    return loads;
  }

  /** Removes the entries of processes that are not in `alive` and have not published for `staleMs`. */
  async sweep(alive: ReadonlySet<string>, staleMs: number, now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    for (const [id, load] of await this.readAll()) {
      if (alive.has(id) || now - load.at < staleMs) continue;
      await this.presence.hdel(LOAD_KEY, id);
      removed.push(id);
    }
    for (const id of (await this.readPlaced()).keys()) {
      if (!alive.has(id) && !removed.includes(id)) {
        await this.presence.hdel(PLACED_KEY, id);
        removed.push(id);
      }
    }
    return removed;
  }

  /**
   * Publishes this process's figures now (after any publication still under way), and brings the placement
   * tally back up to what this process has taken in if it fell below it, which only a Redis that lost its
   * data does (a placement is tallied before its create request is sent). Never rejects.
   */
  publish(): Promise<void> {
    // One round waiting is enough: it measures when it starts. While Redis is away a round waits for it,
    // and without this a round a second would pile up behind it, all published at once on its return.
    if (this.waiting !== undefined) return this.waiting;
    const round = this.publishing
      .then(async () => {
        this.waiting = undefined;
        if (this.stopped || this.processId() === undefined) return;
        const load = this.measure();
        if (this.stopped) return;
        await this.presence.hset(LOAD_KEY, load.processId, JSON.stringify(load));
        // Relative, so a placement tallied meanwhile by another matchmaker stays counted.
        const placed = Number((await this.presence.hget(PLACED_KEY, load.processId)) ?? 0);
        if (placed < load.absorbed && !this.stopped) await this.presence.hincrby(PLACED_KEY, load.processId, load.absorbed - placed);
      })
      .catch((err: unknown) => console.warn(`load figures not published: ${(err as Error).message}`));
    this.waiting = round;
    this.publishing = round;
    return round;
  }

}

/** A published entry, or undefined when it is not one (another version, or garbage). */
function parseLoad(processId: string, text: string): ProcessLoad | undefined {
  try {
    const v = JSON.parse(text) as Partial<ProcessLoad>;
    const numbers = [v.at, v.busy, v.lagP99Ms, v.ccu, v.rooms, v.guards, v.weight, v.absorbed];
    if (!numbers.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0)) return undefined;
    return { ...(v as ProcessLoad), processId, draining: v.draining === true };
  } catch {
    return undefined;
  }
}
