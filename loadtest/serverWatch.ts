import type { LagWindow } from "../server/ops/eventLoopLag.js";

/** The parts of `GET /stats` a load test reads (see server/ops/serverFigures.ts). */
export interface StatsReading {
  /** The server's Colyseus process id (absent from servers older than the field). */
  processId?: string;
  sampledAtMs: number;
  cpu: { userSeconds: number; systemSeconds: number };
  memory: { rss: number; heapUsed: number; heapTotal: number };
  /** Absent from servers older than the field. */
  heapAfterMajorGc?: { heapUsed: number; atMs: number; count: number } | null;
  eventLoopLagMs: { windowSeconds: number; last: LagWindow | null; current: LagWindow };
  rooms: RoomReading[];
}

export interface RoomReading {
  roomId: string;
  clients: number;
  guards: number;
  cullingEnabled: boolean;
  cullingRange?: number;
  ticks: number;
  /** Steps the room's game loop dropped after firing more than 5 steps late (absent from older servers). */
  stepsDropped?: number;
  patches: number;
  tickMs: { p50: number; p99: number; max: number };
  /** How late the room's game-loop firings ran after their grid times (absent from older servers). */
  lateMs?: { p50: number; p99: number; max: number };
  /** What joins cost the loop (`onJoin` plus the first full state), over the room's last 256 joins. */
  joinMs: { p50: number; p99: number; max: number; samples: number };
  /** The same joins without the garbage-collection pauses that fell inside them. */
  joinWorkMs?: { p50: number; p99: number; max: number; samples: number };
  /** The room's recent joins one by one, ms (pooled over rooms for the load test's percentiles). */
  joinSamplesMs?: number[];
  joinWorkSamplesMs?: number[];
  patchMs: { p50: number; p99: number; max: number };
  /** Vision, awareness and culling figures: absent from a server without them (the plain peer). */
  rays?: number;
  stalenessMax?: number;
  detectionEvents?: number;
  /** `soundLeaks` and `soundsAudited`: the audit of the noises each client was told (absent from servers older than hearing). */
  culling?: { churnPerClientTick: number; leaks: number; popIns: number; misses: number; auditedClientTicks: number; soundLeaks?: number; soundsAudited?: number; auditFailures?: string[] };
  /**
   * Play over the room's life: doors opened or shut (by players and guards), smoke grenades that landed,
   * round outcomes. Absent from servers older than the fields (and `captures` from the plain peer).
   */
  doorsToggled?: number;
  smokesThrown?: number;
  escapes?: number;
  captures?: number;
  /** Footsteps and thuds made over the room's life (absent from servers older than hearing, and from the plain peer). */
  noises?: number;
  inputsApplied: number;
  rejected: { total: number };
  errorDisconnects: number;
  exceptions: number;
}

/** Seconds between polls. */
const POLL_SECONDS = 2;

/**
 * Polls the server's own figures (`GET /stats`) through a run: every couple of seconds for loop-lag
 * windows and heap samples, and on demand at the marks the summary compares (start, end of warm-up, end).
 * A failed poll is remembered, not fatal: the run's own figures stand without the server's.
 */
export class ServerWatch {
  /** Every completed loop-lag window seen, by sequence number. */
  readonly lagWindows = new Map<number, LagWindow>();
  /** Heap used at each poll, with when (the server's clock, ms). */
  readonly heap: { atMs: number; heapUsed: number }[] = [];
  /** The heap right after each major GC seen (the server's clock, ms), one entry per collection. */
  readonly heapAfterGc: { atMs: number; heapUsed: number }[] = [];
  private majorGcsSeen = 0;
  readonly marks = new Map<string, StatsReading>();
  failures = 0;
  lastFailure: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly url: string) {}

  /** Reads `GET /stats` once; returns undefined (with the reason) when the server does not serve it. */
  static async open(httpBase: string): Promise<{ watch?: ServerWatch; reason?: string }> {
    const watch = new ServerWatch(`${httpBase}/stats`);
    const first = await watch.read();
    if (first === undefined) return { reason: watch.lastFailure ?? "no reading" };
    watch.marks.set("start", first);
    watch.timer = setInterval(() => void watch.read(), POLL_SECONDS * 1000);
    watch.timer.unref();
    return { watch };
  }

  /** Reads now and keeps the reading under `name`. */
  async mark(name: string): Promise<StatsReading | undefined> {
    const reading = await this.read();
    if (reading !== undefined) this.marks.set(name, reading);
    return reading;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<StatsReading | undefined> {
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const reading = (await response.json()) as StatsReading;
      if (typeof reading.sampledAtMs !== "number" || !Array.isArray(reading.rooms)) throw new Error("not the stealth server's /stats (no sampledAtMs or rooms)");
      const last = reading.eventLoopLagMs?.last;
      if (last != null) this.lagWindows.set(last.seq, last);
      this.heap.push({ atMs: reading.sampledAtMs, heapUsed: reading.memory.heapUsed });
      const gc = reading.heapAfterMajorGc;
      if (gc != null && gc.count > this.majorGcsSeen) {
        this.majorGcsSeen = gc.count;
        this.heapAfterGc.push({ atMs: gc.atMs, heapUsed: gc.heapUsed });
      }
      return reading;
    } catch (err) {
      this.failures++;
      this.lastFailure = `${this.url}: ${(err as Error).message}`;
      return undefined;
    }
  }
}
