import type { Client } from "@colyseus/core";
import { SERVER_MESSAGES } from "../../shared/protocol.js";
import { bounded } from "./refusal.js";
import type { RoomStats } from "../ops/roomStats.js";

/** Protocol codes a client may legitimately send (see @colyseus/shared-types `Protocol`). */
const CLIENT_PROTOCOL_CODES = new Set([10, 12, 13, 17, 18, 19, 20, 21]);
const AFTER_PATCH = Object.freeze({ afterNextPatch: true });

interface Conduct {
  /** Last time (ms, room clock) each error code was sent, for throttling. */
  readonly errorSentAt: Map<string, number>;
  /** Mirror of Colyseus's per-second frame counter, to count flood disconnects. */
  frames: number;
  framesResetAt: number;
  /** Closed by the server for flooding or an oversized frame: no reconnection. */
  kicked: boolean;
}

/**
 * How each client behaves on the wire, and what it is told when it misbehaves. It counts what Colyseus
 * drops silently (frames with a protocol code clients may not send, text frames), the flood disconnects
 * it makes (the same per-second window and limit as Colyseus's check) and oversized frames; it sends
 * `error` messages bounded in size, at most one per code per client per second, after the patch (so an
 * error never overtakes the state it is about).
 */
export class FrameHygiene {
  private readonly clients = new Map<string, Conduct>();

  /** @param now the room clock, ms; `maxMessagesPerSecond` the room's flood limit */
  constructor(private readonly stats: RoomStats, private readonly now: () => number, private readonly maxMessagesPerSecond: () => number) {}

  add(sessionId: string): void {
    this.clients.set(sessionId, { errorSentAt: new Map(), frames: 0, framesResetAt: 0, kicked: false });
  }

  remove(sessionId: string): void {
    this.clients.delete(sessionId);
  }

  /** Whether the server closed the client for misbehaving (its seat is not held for a reconnection). */
  kicked(sessionId: string): boolean {
    return this.clients.get(sessionId)?.kicked ?? false;
  }

  /** Sends an `error` message, at most once per code per client per second. */
  sendError(client: Client, code: string, message: string): void {
    const conduct = this.clients.get(client.sessionId);
    const now = this.now();
    if (conduct !== undefined) {
      const last = conduct.errorSentAt.get(code);
      if (last !== undefined && now - last < 1000) return;
      conduct.errorSentAt.set(code, now);
    }
    client.send(SERVER_MESSAGES.error, { code, message: bounded(message) }, AFTER_PATCH);
  }

  /** Observes the client's raw frames next to Colyseus's own handler (again after a reconnection). */
  watch(client: Client): void {
    const conduct = this.clients.get(client.sessionId);
    if (conduct === undefined) return;
    client.ref.on("message", (data: unknown, isBinary?: boolean) => {
      const now = this.now();
      if (now >= conduct.framesResetAt) {
        conduct.frames = 0;
        conduct.framesResetAt = now + 1000;
      } else if (++conduct.frames > this.maxMessagesPerSecond() && !conduct.kicked) {
        conduct.kicked = true;
        this.stats.floodDisconnects++;
      }
      const first = data instanceof Uint8Array && data.length > 0 ? data[0]! & 0x1f : -1;
      if (isBinary === false || !CLIENT_PROTOCOL_CODES.has(first)) this.stats.framesGarbage++;
    });
    // The WebSocket layer closes on a frame over maxPayload (the client sees 1009, the server only an
    // abnormal close), so the reason is read from its error.
    client.ref.on("error", (err: { code?: string }) => {
      if (err?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" && !conduct.kicked) {
        conduct.kicked = true;
        this.stats.oversizedDisconnects++;
      }
    });
  }
}
