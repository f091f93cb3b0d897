import { roomWeight, type ProcessLoad } from "../../server/scaleOut/processLoad.js";
import { busyOf, lagP99Ms, roomCpuPercent, type CostModel } from "./costModel.js";

/** A live room on a simulated process. */
export interface SimRoom {
  guards: number;
  clients: number;
  /** Players it fills to. */
  targetClients: number;
  /** Its CPU now, % of one core. */
  cpuPercent: number;
  disposed: boolean;
}

/** Colyseus writes a process's room count to Redis at most once per this, ms (`Stats.persist`). */
const PERSIST_INTERVAL_MS = 1000;

/**
 * One server process in simulated time: its rooms and what they cost (the modelled "truth"), what it last
 * published to the load board (`ProcessLoadBoard.measure`), and the room count Colyseus last wrote for it
 * (`stats.persist`). State only changes through its methods, each given the simulated time, and every one
 * first catches the publications up to that time, so a publication always sees the state it was due on.
 */
export class SimProcess {
  readonly rooms: SimRoom[] = [];
  /** CPU of its rooms, % of one core (above 100 when they ask more than a core). */
  cpuPercent = 0;
  /** Its heaviest room's CPU, fraction of a core. */
  heaviestShare = 0;
  guards = 0;
  ccu = 0;
  /** Modelled weight of its rooms (`roomWeight`), as the server publishes it. */
  weight = 0;
  /** Expected weight of every create request it took in, thousandths (the server's `absorbed`). */
  absorbed = 0;
  /** Its last publication. */
  published: ProcessLoad;
  /** The room count its matchmaker last wrote, as other processes' `stats.fetchAll()` read it. */
  persistedRooms = 0;
  /** When Colyseus's trailing write is due, ms (undefined: none pending). */
  trailingPersistAt: number | undefined;

  private nextPublishAt: number;
  /** Integral of the CPU share over time, share * ms, up to `integratedTo`. */
  private shareIntegral = 0;
  private integratedTo = 0;
  private integralAtPublication = 0;
  private lastPersistedAt = -Infinity;

  /**
   * @param id its process id (ids sort as the processes registered)
   * @param publishMs how often it publishes its load, ms
   * @param phaseMs when its first publication after 0 is due, ms in [0, publishMs): processes start at
   *   different times; each has published once, with no rooms, before the workload starts
   * @param draining whether it publishes `draining: true`
   */
  constructor(
    readonly id: string,
    private readonly model: CostModel,
    private readonly publishMs: number,
    phaseMs: number,
    readonly draining: boolean,
  ) {
    this.nextPublishAt = phaseMs;
    this.published = this.measure(phaseMs - publishMs, 0);
  }

  /** Its busy share now, 0..1. */
  get busy(): number {
    return busyOf(this.cpuPercent / 100);
  }

  /** Its loop-lag p99 now, ms. */
  get lagP99Ms(): number {
    return lagP99Ms(this.model, this.cpuPercent / 100, this.heaviestShare);
  }

  /**
   * Publishes what was due by `now`. The state has not changed since the last call, so a publication due
   * in between sees the state as it is now, and its busy share is the mean over the interval it covers, as
   * `eventLoopUtilization` since the previous one is.
   */
  catchUp(now: number): void {
    const share = this.cpuPercent / 100;
    if (this.nextPublishAt <= now) {
      const missed = Math.floor((now - this.nextPublishAt) / this.publishMs);
      const last = this.nextPublishAt + missed * this.publishMs;
      const integralAtLast = this.shareIntegral + share * (last - this.integratedTo);
      const meanShare = missed > 0 ? share : (integralAtLast - this.integralAtPublication) / this.publishMs;
      this.published = this.measure(last, meanShare);
      this.integralAtPublication = integralAtLast;
      this.nextPublishAt = last + this.publishMs;
    }
    this.shareIntegral += share * (now - this.integratedTo);
    this.integratedTo = now;
  }

  /** Takes a create request in (created or refused, it counts in `absorbed`). */
  takeRequest(now: number, tally: number): void {
    this.catchUp(now);
    this.absorbed += tally;
  }

  /** Hosts a new room with its creator. */
  addRoom(now: number, guards: number, targetClients: number): SimRoom {
    this.catchUp(now);
    const room: SimRoom = { guards, clients: 1, targetClients, cpuPercent: roomCpuPercent(this.model, guards, 1), disposed: false };
    this.rooms.push(room);
    this.cpuPercent += room.cpuPercent;
    this.heaviestShare = Math.max(this.heaviestShare, room.cpuPercent / 100);
    this.guards += guards;
    this.ccu += 1;
    this.weight += roomWeight(guards, 1);
    return room;
  }

  /** One more player in `room`. */
  join(now: number, room: SimRoom): void {
    this.catchUp(now);
    const before = room.cpuPercent;
    room.clients++;
    room.cpuPercent = roomCpuPercent(this.model, room.guards, room.clients);
    this.cpuPercent += room.cpuPercent - before;
    this.heaviestShare = Math.max(this.heaviestShare, room.cpuPercent / 100);
    this.ccu += 1;
    this.weight += roomWeight(room.guards, room.clients) - roomWeight(room.guards, room.clients - 1);
  }

  /** Its players leave `room` and it is disposed. */
  dispose(now: number, room: SimRoom): void {
    this.catchUp(now);
    room.disposed = true;
    this.rooms.splice(this.rooms.indexOf(room), 1);
    // Summed afresh rather than subtracted, so an empty process is exactly empty.
    this.cpuPercent = 0;
    this.heaviestShare = 0;
    this.guards = 0;
    this.ccu = 0;
    this.weight = 0;
    for (const r of this.rooms) {
      this.cpuPercent += r.cpuPercent;
      this.heaviestShare = Math.max(this.heaviestShare, r.cpuPercent / 100);
      this.guards += r.guards;
      this.ccu += r.clients;
      this.weight += roomWeight(r.guards, r.clients);
    }
  }

  /**
   * Colyseus's `stats.persist()`, called on every room and player change: writes the room count at once if
   * the last write is over a second old, else (re)arms a trailing write a second from now. Returns when a
   * trailing write is newly armed, for the caller to schedule.
   */
  persist(now: number): number | undefined {
    if (now - this.lastPersistedAt > PERSIST_INTERVAL_MS) {
      this.lastPersistedAt = now;
      this.persistedRooms = this.rooms.length;
      return undefined;
    }
    const armed = this.trailingPersistAt === undefined;
    this.trailingPersistAt = now + PERSIST_INTERVAL_MS;
    return armed ? this.trailingPersistAt : undefined;
  }

  /**
   * The trailing write's timer firing at `now`: if it was re-armed later, returns when to look again; else
   * runs `persist` as the timer does (which may arm the next one, also returned).
   */
  trailingPersist(now: number): number | undefined {
    if (this.trailingPersistAt === undefined) return undefined;
    if (this.trailingPersistAt > now) return this.trailingPersistAt;
    this.trailingPersistAt = undefined;
    return this.persist(now);
  }

  /** What `ProcessLoadBoard.measure` would publish at `at` with a mean CPU share of `meanShare` since the last. */
  private measure(at: number, meanShare: number): ProcessLoad {
    return {
      processId: this.id,
      at,
      busy: Math.round(busyOf(meanShare) * 1000) / 1000,
      lagP99Ms: lagP99Ms(this.model, meanShare, this.heaviestShare),
      ccu: this.ccu,
      rooms: this.rooms.length,
      guards: this.guards,
      weight: this.weight,
      absorbed: this.absorbed,
      draining: this.draining,
    };
  }
}
