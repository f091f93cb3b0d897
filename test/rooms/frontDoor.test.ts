import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FrontDoorServer, outsideRequest, requestAddress } from "../../server/frontDoor.js";

let server: FrontDoorServer | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * A front door on 127.0.0.1 whose one listener answers with the address it saw, the one a timer it set saw,
 * and the one after awaiting the body (as Colyseus's router does). Event listeners are another matter: an
 * emitter calls them in the context of whoever emits, so code that reads a request through `on("data")`
 * loses the address.
 */
async function listening(options: ConstructorParameters<typeof FrontDoorServer>[0] = {}): Promise<string> {
  server = new FrontDoorServer(options);
  server.on("request", async (req, res) => {
    const seen = requestAddress();
    const timer = new Promise((resolve) => setTimeout(() => resolve(requestAddress()), 1));
    const outside = outsideRequest(() => new Promise((resolve) => setTimeout(() => resolve(requestAddress()), 1)));
    let body = "";
    await new Promise((resolve) => {
      req.on("data", (chunk) => (body += chunk));
      req.on("end", resolve);
    });
    res.end(JSON.stringify({ seen, timer: await timer, outside: await outside, afterBody: requestAddress(), bytes: body.length }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request (node:http, so the source address and the framing can be chosen). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string; chunked?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "POST", headers: options.headers, localAddress: options.localAddress }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    if (options.body !== undefined && options.chunked !== true) req.setHeader("content-length", Buffer.byteLength(options.body));
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

describe("the front door", () => {
  it("handlers, their timers and their awaits see the socket's peer as the request's address; outside a request there is none", async () => {
    const url = await listening();
    const answer = await send(`${url}/matchmake/create/stealth`, { body: "{}" });
    expect(JSON.parse(answer.body)).toEqual({ seen: "127.0.0.1", timer: "127.0.0.1", afterBody: "127.0.0.1", bytes: 2 }); // outside: undefined
    expect(requestAddress()).toBeUndefined();
    const other = await send(`${url}/anything`, { method: "GET", localAddress: "127.0.0.2" });
    expect(JSON.parse(other.body).seen).toBe("127.0.0.2");
  });

  it("ignores forwarding headers unless told how many proxies to trust", async () => {
    const direct = await listening();
    const spoofed = await send(`${direct}/matchmake/create/stealth`, { body: "{}", headers: { "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.7", "x-client-ip": "6.6.6.8" } });
    expect(JSON.parse(spoofed.body).seen).toBe("127.0.0.1");
    await new Promise((resolve) => server!.close(resolve));
    server!.closeAllConnections();

    const proxied = await listening({ trustProxyHops: 1 });
    // The proxy appends the peer it saw; whatever the client wrote before it is not trusted.
    const viaProxy = await send(`${proxied}/x`, { method: "GET", headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.5" } });
    expect(JSON.parse(viaProxy.body).seen).toBe("203.0.113.5");
    const noHeader = await send(`${proxied}/x`, { method: "GET" });
    expect(JSON.parse(noHeader.body).seen).toBe("127.0.0.1");
  });

  it("answers a body over the cap with 413 and one without a length with 411, before any listener, and the connection stays usable", async () => {
    const url = await listening({ maxBodyBytes: 64 });
    const started = performance.now();
    const big = await send(`${url}/matchmake/create/stealth`, { body: JSON.stringify({ guards: "x".repeat(100_000) }), headers: { "content-type": "application/json", origin: "http://game.example" } });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ code: 413, error: "request bodies (matchmaking options) must be at most 64 bytes" });
    expect(big.headers["access-control-allow-origin"]).toBe("http://game.example"); // a browser client can read why
    const chunked = await send(`${url}/matchmake/create/stealth`, { body: "{}", chunked: true });
    expect(chunked.status).toBe(411);
    expect(JSON.parse(chunked.body).error).toMatch(/Content-Length/);
    const fine = await send(`${url}/matchmake/create/stealth`, { body: "x".repeat(64) });
    expect(fine.status).toBe(200);
    expect(JSON.parse(fine.body).bytes).toBe(64);
  });

  it("misuse is a RangeError naming the field", () => {
    expect(() => new FrontDoorServer({ trustProxyHops: -1 })).toThrow(/^FrontDoorOptions\.trustProxyHops must be an integer in \[0, 16\]/);
    expect(() => new FrontDoorServer({ maxBodyBytes: 1.5 })).toThrow(RangeError);
    expect(() => new FrontDoorServer({ maxBodyBytes: "4096" as unknown as number })).toThrow(/^FrontDoorOptions\.maxBodyBytes must be an integer of bytes in \[2, 67108864\] \(got "4096"\)/);
  });
});
