// Minimal reproduction: @colyseus/better-call's Node adapter (`setResponse`) never ends a response whose
// body had to wait for `drain`. Plain Node ESM, no Colyseus server: one better-call endpoint served with
// `toNodeHandler`, on 127.0.0.1, and a raw TCP client so we see exactly which bytes arrive.
//
//   node docs/upstream/better-call-drain/repro.mjs
//
// For each body size the client asks twice: once reading at once ("fast reader"), once waiting 500 ms
// before it reads ("slow reader", like a client on a slow link). The body has no Content-Length (as every
// better-call JSON or error response), so Node sends it chunked and only `res.end()` writes the final
// `0\r\n\r\n` chunk. A response counts as complete when that chunk arrives within 3 s.
// What decides it is not the reader but whether `res.write(body)` returned false, i.e. whether the body is
// larger than the response's highWaterMark (64 KiB on Node 22 and later, 16 KiB before).
// Exit code 1 when some response never completed (the bug), 0 otherwise.
import http from "node:http";
import net from "node:net";
import { readFileSync } from "node:fs";
import { createEndpoint, createRouter } from "@colyseus/better-call";
import { toNodeHandler } from "@colyseus/better-call/node";

const WAIT_MS = 3000;
const SLOW_READER_DELAY_MS = 500;
const SIZES = [1024, 16 * 1024, 64 * 1024, 1024 * 1024];

const body = createEndpoint("/body/:size", { method: "GET" }, async (ctx) => {
  // What Colyseus's matchmaker does with a refusal: an error whose JSON body quotes the client's input.
  throw ctx.error(400, { error: "x".repeat(Number(ctx.params.size)) });
});
const router = createRouter({ body });

/** Server side: did `res.end()` ever run for each request? */
const responses = [];
const server = http.createServer((req, res) => {
  responses.push(res);
  void toNodeHandler(router.handler)(req, res);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();

/** Asks for `size` bytes; resolves with what the client saw by the deadline. */
function ask(size, slow) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const received = [];
    let bytes = 0;
    let complete = false;
    const started = performance.now();
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString("latin1");
      resolve({ complete, bytes, ms: Math.round(performance.now() - started), status: text.slice(9, 12) });
    };
    const timer = setTimeout(finish, WAIT_MS);
    socket.on("data", (chunk) => {
      received.push(chunk);
      bytes += chunk.length;
      if (Buffer.concat(received.slice(-2)).toString("latin1").endsWith("\r\n0\r\n\r\n")) {
        complete = true;
        finish();
      }
    });
    socket.write(`GET /body/${size} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    if (slow) {
      socket.pause();
      setTimeout(() => socket.resume(), SLOW_READER_DELAY_MS);
    }
  });
}

const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.resolve("@colyseus/better-call")), "utf8")).version;
console.log(`node ${process.version}, @colyseus/better-call ${version}, ${process.platform}`);
console.log("size      reader  status  complete  bytes received  ms    server: res.writableEnded");
let failures = 0;
for (const size of SIZES) {
  for (const slow of [false, true]) {
    const r = await ask(size, slow);
    const res = responses.at(-1);
    if (!r.complete) failures++;
    console.log(
      `${String(size).padEnd(9)} ${(slow ? "slow" : "fast").padEnd(7)} ${r.status.padEnd(7)} ${String(r.complete).padEnd(9)} ${String(r.bytes).padEnd(15)} ${String(r.ms).padEnd(5)} ${res?.writableEnded}`,
    );
  }
}
console.log(failures === 0 ? "every response completed" : `${failures} response(s) never completed: setResponse() did not call res.end() after waiting for "drain"`);
server.closeAllConnections();
server.close();
process.exitCode = failures === 0 ? 0 : 1;
