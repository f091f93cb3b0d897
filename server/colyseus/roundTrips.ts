import type { Client } from "@colyseus/core";
import { RoundTripProbe, type PingableSocket } from "./roundTripProbe.js";

/** Round-trip figures over the clients with a view, ms. */
export interface RoundTripCounts {
  p50: number;
  max: number;
  /** Clients with a measured round trip. */
  measured: number;
  /**
   * Clients counted at the culling's `maxRoundTripMs` (the widest look-ahead): no pong yet, or a
   * transport without WebSocket pings.
   */
  capped: number;
}

/** What round trips are applied to. @internal */
export interface RoundTripSink {
  setRoundTrip(clientId: string, roundTripMs: number | undefined): void;
}

/**
 * The round trips of a room's clients, by WebSocket ping frames every `intervalMs`. The socket of each
 * session is looked up at every round, so a reconnected client (same session, new socket) is measured
 * again on its new connection without a hook. On a transport whose connections have no `ping`, the
 * client counts at the culling's cap (the safe side: the widest look-ahead), and the room says so once.
 * @internal
 */
export class RoundTrips {
  private readonly probe: RoundTripProbe;
  /** The connection each session was last watched on (undefined: not seen connected yet). */
  private readonly sockets = new Map<string, unknown>();
  private readonly noPing = new Set<string>();
  private readonly timer: NodeJS.Timeout | undefined;
  private warned = false;

  /** @param own the room's own measure, if it has one (then no pings are sent) */
  constructor(
    intervalMs: number,
    private readonly capMs: number,
    private readonly clientOf: (sessionId: string) => Client | undefined,
    blockedWithin: (fromMs: number, toMs: number) => number,
    private readonly own?: (sessionId: string) => number | undefined,
  ) {
    this.probe = new RoundTripProbe(4, undefined, blockedWithin);
    if (own === undefined) {
      this.timer = setInterval(() => this.round(), intervalMs);
      this.timer.unref();
    }
  }

  /** Starts measuring a session (pinged at once when connected). */
  watch(sessionId: string): void {
    if (this.own !== undefined) return;
    if (!this.sockets.has(sessionId)) this.sockets.set(sessionId, undefined);
    this.reconnect(sessionId);
    // Its view may be new to the culling: its estimate so far goes to it at the next update.
    this.probe.refresh(sessionId);
  }

  unwatch(sessionId: string): void {
    this.sockets.delete(sessionId);
    this.noPing.delete(sessionId);
    this.probe.unwatch(sessionId);
  }

  /**
   * Each session's estimate into the culling (unknown: counted at the cap). Measured by pings, only those
   * that changed since they were last applied; the room's own measure, every session every time.
   */
  apply(sessionIds: Iterable<string>, sink: RoundTripSink): void {
    if (this.own === undefined) this.probe.applyChanged(sink);
    else for (const id of sessionIds) sink.setRoundTrip(id, this.own(id));
  }

  /** A session's round trip, ms, or undefined before the first measure. */
  estimate(sessionId: string): number | undefined {
    return this.own !== undefined ? this.own(sessionId) : this.probe.estimate(sessionId);
  }

  counts(sessionIds: Iterable<string>): RoundTripCounts {
    const rtts: number[] = [];
    let capped = 0;
    for (const id of sessionIds) {
      const rtt = this.estimate(id);
      if (rtt === undefined) capped++;
      else rtts.push(rtt);
    }
    rtts.sort((a, b) => a - b);
    return { p50: rtts[Math.floor(rtts.length / 2)] ?? 0, max: rtts.at(-1) ?? 0, measured: rtts.length, capped };
  }

  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    for (const id of [...this.sockets.keys()]) this.unwatch(id);
  }

  private round(): void {
    for (const id of this.sockets.keys()) this.reconnect(id);
    this.probe.pingAll();
  }

  /** Watches the session's current connection if it changed (a join, a reconnection). */
  private reconnect(sessionId: string): void {
    const client = this.clientOf(sessionId);
    if (client === undefined) return; // away: keeps its last estimate until it is back or leaves
    const socket = client.ref as unknown;
    if (this.sockets.get(sessionId) === socket) return;
    this.sockets.set(sessionId, socket);
    if (isPingable(socket)) {
      this.noPing.delete(sessionId);
      this.probe.watch(sessionId, socket);
      return;
    }
    this.noPing.add(sessionId);
    this.probe.unwatch(sessionId);
    if (!this.warned) {
      this.warned = true;
      console.warn(`sightline: this transport's connections have no WebSocket ping, so round trips are not measured; each client counts at maxRoundTripMs (${this.capMs} ms), the widest look-ahead`);
    }
  }
}

function isPingable(socket: unknown): socket is PingableSocket {
  const s = socket as Partial<PingableSocket> | null;
  return typeof s === "object" && s !== null && typeof s.ping === "function" && typeof s.on === "function";
}
