/**
 * A stealth server whose event loop is blocked on purpose, to check the culling through stalls (a long
 * GC pause, a slow handler): every `STALL_EVERY` seconds, right after a round of WebSocket pings (so pings
 * are in flight, the worst case for round-trip estimates) the loop spins for `STALL_MS`. The culling audit runs
 * on every client; read the outcome from the load test's summary (`server.culling`).
 *
 *   PORT=2601 STALL_MS=500 STALL_EVERY=2 npx tsx loadtest/stalledServer.ts &
 *   npm run loadtest -- --endpoint ws://127.0.0.1:2601 --clients 50 --rooms 2 --duration 45 --map compound --guards 64
 *
 * It listens on 127.0.0.1 only and exits by itself after `LIFETIME_S` seconds (default 90).
 */
import { createStealthServer } from "../server/app.js";
import { WebSocket } from "ws";

const setting = (name: string, fallback: number, min: number, max: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!(Number.isInteger(value) && value >= min && value <= max)) {
    console.error(`${name} must be an integer in ${min}..${max} (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
};
const port = setting("PORT", 2601, 1, 65535);
const stallMs = setting("STALL_MS", 500, 0, 5000);
const every = setting("STALL_EVERY", 2, 1, 1000);
const lifetime = setting("LIFETIME_S", 90, 1, 3600);

// The culling pings every client of a room in one go: the stall is queued behind the first ping of a
// round, so it starts once the whole round is out.
const ping = WebSocket.prototype.ping;
let stallDue = performance.now() + every * 1000;
WebSocket.prototype.ping = function (this: WebSocket, ...args: Parameters<WebSocket["ping"]>): void {
  ping.apply(this, args);
  if (performance.now() < stallDue) return;
  stallDue = performance.now() + every * 1000;
  queueMicrotask(() => {
    const until = performance.now() + stallMs;
    while (performance.now() < until);
  });
};

const server = createStealthServer({ room: { maxGuards: 64, culling: { audit: true, auditSample: 1 } } });
await server.listen(port, "127.0.0.1");
console.log(`stalled stealth server on ws://127.0.0.1:${port}: ${stallMs} ms after every ${every} ping rounds, for ${lifetime} s`);
setTimeout(() => process.exit(0), lifetime * 1000).unref();
