import { matchMaker } from "@colyseus/core";
import { AsyncLocalStorage } from "node:async_hooks";
import { Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { integer } from "../shared/validation/rangeChecks.js";

/** Defaults of {@link FrontDoorServer}. */
const DEFAULT_FRONT_DOOR = Object.freeze({
  trustProxyHops: 0,
  maxBodyBytes: 4096,
});

export interface FrontDoorOptions {
  /**
   * Reverse proxies in front of this server that append the address they saw to `X-Forwarded-For`. With
   * 0, a request's client address is the socket's peer and every forwarding header is ignored, since any
   * client can write one. With n, it is the n-th entry from the end of `X-Forwarded-For` (what the
   * outermost trusted proxy saw), or the peer when the header has fewer entries.
   * @default 0
   */
  trustProxyHops?: number;
  /**
   * Largest request body, bytes. The bodies this server takes are matchmaking options (a few short strings
   * and numbers) and small monitor calls; Colyseus itself reads a matchmaking body of any size into memory
   * and keeps the options of each seat reservation until it is used or expires. A larger body is answered
   * with 413 and discarded unparsed, a body without `Content-Length` (chunked) with 411.
   * @default 4096
   */
  maxBodyBytes?: number;
  /**
   * Why matchmaking (`POST /matchmake/...`) cannot be served right now, or undefined when it can: such a
   * request is then answered 503 with this message and `Retry-After`, before Colyseus starts on it (a
   * scaled-out process whose Redis is away would otherwise hold the request until Redis is back).
   * @default always served
   */
  matchmakingClosed?: () => { message: string; retryAfterSeconds: number } | undefined;
}

const addresses = new AsyncLocalStorage<string>();

/**
 * The client address of the HTTP request being handled, for code Colyseus calls deep inside matchmaking
 * (a room's `onCreate`); undefined outside a request (a room the server creates itself, a test).
 * Colyseus's own `context.ip` cannot serve: it comes from forwarding headers any client can set, and is
 * undefined without them.
 *
 * It follows the request through awaits and the timers it sets (an `AsyncLocalStorage`), not through
 * event listeners, which run in the context of whoever emits. Colyseus 0.18's router awaits the body, so
 * `onCreate` sees it; `test/rooms/roomCreation.test.ts` would notice if that changed.
 */
export function requestAddress(): string | undefined {
  return addresses.getStore();
}

/**
 * Runs `fn` outside any request, so what it schedules (a room's game loop started in `onCreate`) does not
 * carry the address of the request that happened to create it.
 */
export function outsideRequest<T>(fn: () => T): T {
  return addresses.exit(fn);
}

/**
 * The HTTP server under the WebSocket transport (`new WebSocketTransport({ server })`). Before any
 * listener sees a request (Colyseus puts its matchmaking router first, ahead of express) it refuses a
 * body over {@link FrontDoorOptions.maxBodyBytes}, and runs the listeners with the
 * request's client address available through {@link requestAddress}.
 */
export class FrontDoorServer extends HttpServer {
  readonly trustProxyHops: number;
  readonly maxBodyBytes: number;
  private readonly matchmakingClosed: NonNullable<FrontDoorOptions["matchmakingClosed"]>;

  constructor(options: FrontDoorOptions = {}) {
    super();
    this.matchmakingClosed = options.matchmakingClosed ?? (() => undefined);
    this.trustProxyHops = integer("FrontDoorOptions.trustProxyHops", options.trustProxyHops ?? DEFAULT_FRONT_DOOR.trustProxyHops, 0, 16);
    this.maxBodyBytes = integer("FrontDoorOptions.maxBodyBytes", options.maxBodyBytes ?? DEFAULT_FRONT_DOOR.maxBodyBytes, 2, 64 * 1024 * 1024, "bytes");
  }

  override emit(event: string | symbol, ...args: any[]): boolean {
    if (event !== "request") return super.emit(event as string, ...args); // http.Server types emit with string events only
    const req = args[0] as IncomingMessage;
    const res = args[1] as ServerResponse;
    if (this.refusedBody(req, res) || this.refusedMatchmaking(req, res)) return true;
    return addresses.run(this.clientAddress(req), () => super.emit("request", req, res));
  }

  /** The address limits apply to (see {@link FrontDoorOptions.trustProxyHops}). */
  clientAddress(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? "unknown";
    if (this.trustProxyHops === 0) return peer;
    const header = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : header ?? "").split(",");
    const entry = hops.length >= this.trustProxyHops ? hops[hops.length - this.trustProxyHops]!.trim() : "";
    return entry === "" ? peer : entry;
  }

  /** Answers 503 with `Retry-After` to a matchmaking request while matchmaking is closed. */
  private refusedMatchmaking(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "POST" || !req.url?.startsWith("/matchmake/")) return false;
    const closed = this.matchmakingClosed();
    if (closed === undefined) return false;
    this.answer(req, res, 503, closed.message, { "retry-after": String(closed.retryAfterSeconds) });
    return true;
  }

  /** Answers 411 or 413 (with the CORS headers Colyseus would send) when the body is not acceptable. */
  private refusedBody(req: IncomingMessage, res: ServerResponse): boolean {
    const declared = req.headers["content-length"];
    let status: number;
    let error: string;
    if (declared === undefined) {
      if (req.headers["transfer-encoding"] === undefined) return false; // no body at all
      status = 411;
      error = "requests with a body must declare its Content-Length";
    } else if (Number(declared) > this.maxBodyBytes) {
      status = 413;
      error = `request bodies (matchmaking options) must be at most ${this.maxBodyBytes} bytes`;
    } else {
      return false;
    }
    this.answer(req, res, status, error);
    return true;
  }

  /** An error answer in Colyseus's shape (the SDK reads `error` into its MatchMakeError), CORS headers included. */
  private answer(req: IncomingMessage, res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): void {
    const body = JSON.stringify({ code: status, error });
    const cors = { ...matchMaker.controller.DEFAULT_CORS_HEADERS, ...matchMaker.controller.getCorsHeaders(new Headers(req.headers as Record<string, string>)) };
    // The body is left unread: once the answer is sent, Node discards what follows of it without parsing
    // it, and the connection stays usable (closing it instead could reset it before the client reads this).
    res.writeHead(status, { ...cors, ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }
}

