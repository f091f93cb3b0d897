/** The part of a WebSocket (the `ws` package's) the probe uses. @internal */
export interface PingableSocket {
  ping(data?: Uint8Array, mask?: boolean, callback?: (err?: Error) => void): void;
  on(event: "pong", listener: (data: Uint8Array) => void): unknown;
  off?(event: "pong", listener: (data: Uint8Array) => void): unknown;
  readyState?: number;
}

interface Probe {
  readonly sessionId: string;
  socket: PingableSocket;
  listener: (data: Uint8Array) => void;
  /** Id and send time (ms) of the ping in flight, or -1. */
  pendingId: number;
  sentAt: number;
  /** Recent round trips, ms (a ring). */
  readonly samples: number[];
  next: number;
  /** The estimate last handed on by {@link RoundTripProbe.applyChanged} (NaN: none yet, or to hand on again). */
  applied: number | undefined;
}

/** Where {@link RoundTripProbe.applyChanged} hands estimates. @internal */
export interface EstimateSink {
  setRoundTrip(sessionId: string, roundTripMs: number | undefined): void;
}

/**
 * Measures each client's round trip with WebSocket ping frames. Every client answers pings by itself
 * (browsers and the `ws` package reply with a pong carrying the same payload), so it needs no cooperation
 * from game code. Each ping carries a fresh 4-byte id; only the pong echoing the ping in flight counts, so
 * a client cannot report a round trip it did not have, only delay its pongs (which the culling caps).
 *
 * The estimate is the largest of the last `samples` round trips, or the age of the ping in flight if that
 * is larger: culling prefers sending a little early over sending late when the latency jitters.
 *
 * Time the server's own event loop spent blocked while a ping was out (`blockedWithin`, e.g. from
 * `LoopStalls`, fed by a `LoopWatch`) is taken off: a 500 ms GC pause with a pong waiting in the socket would otherwise
 * read as a 500 ms round trip, and the culling audit would then judge the client against views half a
 * second old (the load tests' only pop-ins came from exactly that). Nothing the server sent during the
 * stall reached the client late because of the network, and the first patch after it carries the state
 * the catch-up steps produced.
 * @internal
 */
export class RoundTripProbe {
  private readonly probes = new Map<string, Probe>();
  private nextId = 1;

  /**
   * @param samples round trips remembered per client (default 4, one a second)
   * @param now the clock, ms (default `performance.now`)
   * @param blockedWithin ms the event loop was blocked within [from, to] on that clock (default: never)
   */
  constructor(
    private readonly samples = 4,
    private readonly now: () => number = () => performance.now(),
    private readonly blockedWithin: (fromMs: number, toMs: number) => number = () => 0,
  ) {}

  /** Starts measuring a client (again, after a reconnection: the socket changed) and pings it at once. */
  watch(sessionId: string, socket: PingableSocket): void {
    this.unwatch(sessionId);
    const probe: Probe = { sessionId, socket, listener: () => {}, pendingId: -1, sentAt: 0, samples: [], next: 0, applied: NaN };
    probe.listener = (data: Uint8Array) => {
      if (probe.pendingId < 0 || data === undefined || data.length !== 4) return;
      const id = new DataView(data.buffer, data.byteOffset, 4).getUint32(0);
      if (id !== probe.pendingId) return;
      const rtt = this.networkTime(probe.sentAt);
      probe.pendingId = -1;
      if (probe.samples.length < this.samples) probe.samples.push(rtt);
      else probe.samples[probe.next] = rtt;
      probe.next = (probe.next + 1) % this.samples;
    };
    socket.on("pong", probe.listener);
    this.probes.set(sessionId, probe);
    this.ping(probe);
  }

  unwatch(sessionId: string): void {
    const probe = this.probes.get(sessionId);
    if (probe === undefined) return;
    probe.socket.off?.("pong", probe.listener);
    this.probes.delete(sessionId);
  }

  /** Pings every watched client (call it about once a second). */
  pingAll(): void {
    for (const probe of this.probes.values()) this.ping(probe);
  }

  /** The round-trip estimate, ms, or undefined before the first pong. */
  estimate(sessionId: string): number | undefined {
    const probe = this.probes.get(sessionId);
    return probe === undefined ? undefined : this.estimateOf(probe, this.now());
  }

  /**
   * Hands `sink` the estimate of each client whose estimate changed since it was last handed on (or that
   * {@link refresh} marked): between pongs, and while no pong is late, nothing changes, so a culling
   * update a step costs no lookup per client.
   */
  applyChanged(sink: EstimateSink): void {
    const now = this.now();
    for (const probe of this.probes.values()) {
      const estimate = this.estimateOf(probe, now);
      if (estimate === probe.applied) continue;
      probe.applied = estimate;
      sink.setRoundTrip(probe.sessionId, estimate);
    }
  }

  /** The client's estimate is handed on at the next {@link applyChanged}, changed or not (its view is new). */
  refresh(sessionId: string): void {
    const probe = this.probes.get(sessionId);
    if (probe !== undefined) probe.applied = NaN;
  }

  private estimateOf(probe: Probe, now: number): number | undefined {
    if (probe.samples.length === 0) return undefined;
    let max = 0;
    for (const s of probe.samples) if (s > max) max = s;
    // A pong that is late already says the round trip is at least this long (never more than its age, so
    // the stalls need counting only once the age is past the samples).
    if (probe.pendingId >= 0 && now - probe.sentAt > max) max = Math.max(max, this.networkTime(probe.sentAt, now));
    return max;
  }

  /** Time since `sentAt`, less the time the loop was blocked meanwhile. */
  private networkTime(sentAt: number, now = this.now()): number {
    return Math.max(0, now - sentAt - this.blockedWithin(sentAt, now));
  }

  private ping(probe: Probe): void {
    // A ping still unanswered after a whole interval is counted as that long when its pong comes: no new one.
    if (probe.pendingId >= 0 && this.now() - probe.sentAt < 5000) return;
    if (probe.socket.readyState !== undefined && probe.socket.readyState !== 1) return;
    const id = this.nextId++ >>> 0;
    const payload = new Uint8Array(4);
    new DataView(payload.buffer).setUint32(0, id);
    probe.pendingId = id;
    probe.sentAt = this.now();
    try {
      probe.socket.ping(payload, undefined, () => {});
    } catch {
      probe.pendingId = -1; // the socket closed meanwhile
    }
  }
}
