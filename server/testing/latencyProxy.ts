import { connect, createServer, type Server, type Socket } from "node:net";
import { describeValue, func, integer } from "../../shared/validation/rangeChecks.js";

/**
 * A TCP proxy on 127.0.0.1 that delays every byte by a fixed time each way, chosen per connection: SDK
 * clients that connect through it have a real round trip of twice that, which the server measures with
 * its own pings, so the culling's look-ahead and the audit's pop-in check see real latency. Order is kept
 * (one constant delay per direction). Close it with {@link close}.
 *
 * ```ts
 * const proxy = await LatencyProxy.start(serverPort, () => 40); // 80 ms round trips
 * const sdk = new Client(`http://127.0.0.1:${proxy.port}`);
 * ```
 */
export class LatencyProxy {
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server, readonly port: number) {}

  /**
   * @param targetPort the server's port on 127.0.0.1
   * @param oneWayMs the delay of each new connection, ms each way (called once per connection), in [0, 10000]
   */
  static async start(targetPort: number, oneWayMs: () => number): Promise<LatencyProxy> {
    integer("LatencyProxy.start targetPort", targetPort, 1, 65535);
    func("LatencyProxy.start oneWayMs", oneWayMs, "() => milliseconds");
    let proxy: LatencyProxy | undefined;
    const server = createServer((inbound) => {
      const delay = oneWayMs();
      if (typeof delay !== "number" || !(delay >= 0 && delay <= 10_000)) {
        // Thrown here, it would escape the server's connection event and end the process.
        console.error(new RangeError(`LatencyProxy oneWayMs() must return milliseconds in [0, 10000] (got ${describeValue(delay)}): connection refused`).message);
        inbound.destroy();
        return;
      }
      const outbound = connect(targetPort, "127.0.0.1");
      for (const s of [inbound, outbound]) {
        proxy!.sockets.add(s);
        s.on("close", () => proxy!.sockets.delete(s));
        s.on("error", () => {});
      }
      const pipe = (from: Socket, to: Socket) => {
        from.on("data", (chunk) => setTimeout(() => { if (!to.destroyed) to.write(chunk); }, delay));
        from.on("end", () => setTimeout(() => to.end(), delay));
        from.on("close", () => setTimeout(() => to.destroy(), delay));
      };
      pipe(inbound, outbound);
      pipe(outbound, inbound);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new LatencyProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** Cuts every connection and stops listening. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
