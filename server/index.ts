import { matchMaker, type Server } from "@colyseus/core";
import { createStealthServer } from "./app.js";
import { freePort } from "./freePort.js";
import { derivedPublicAddress, scaleOut, type ScaleOut } from "./scaleOut/scaleOut.js";
import { MapCatalog } from "./rooms/mapCatalog.js";
import { processDrain } from "./ops/drain.js";
import { MIN_SPECTATOR_TOKEN } from "./rooms/spectators.js";

/**
 * `npm start`: runs the stealth server. Environment:
 * - `HOST` (default 127.0.0.1) and `PORT` (default 2567) to listen on;
 * - `MONITOR_AUTH=user:password` mounts @colyseus/monitor at /monitor behind basic auth (off when unset);
 * - `RECONNECT_SECONDS` (default 20): how long a dropped player's character waits for it;
 * - `CULLING_AUDIT=1` runs the culling truth harness every tick (leaks and pop-ins in /stats; costly); a
 *   fraction in (0, 1) audits that share of the clients (e.g. `0.1` for load tests);
 * - `CULLING=off` turns culling off: every client's view holds everything (the load-test baseline);
 * - `SPECTATOR_TOKEN=<token>` turns spectator mode on: the viewer page opened with `?spectate=<token>` (or
 *   any client joining with `{ spectate: token }`) sees every entity and the sight rays (off when unset);
 * - `MAX_ROOMS` (default 64): rooms this process holds at most, whoever creates them;
 * - `MAX_CREATES_PER_MINUTE` (default 10): room creates one client address may make per minute;
 * - `TRUST_PROXY_HOPS` (default 0): reverse proxies in front whose `X-Forwarded-For` names the client.
 * - `REDIS_URL=redis://host:port` shares matchmaking with every process given the same URL (Colyseus's
 *   Redis presence and driver); unset, this is one process with in-memory presence;
 * - `PUBLIC_ADDRESS=host:port` or `host/path` (with REDIS_URL): where clients reach this process, `{port}`
 *   standing for its port (default: HOST:PORT, the machine's host name for a wildcard HOST);
 *   `PLACEMENT=load|rooms` (default load): where new rooms go;
 * - `DRAIN_SECONDS` (default 600): how long a drain lets running games go on before it closes them.
 * SIGTERM or SIGINT drains: no new room or join here, running games play on (reconnections included)
 * until their rooms empty or `DRAIN_SECONDS` pass, then a graceful shutdown (out of Redis, exit 0). A
 * second SIGTERM or SIGINT, or SIGUSR2, shuts down at once. Under PM2 the process says `ready` once it
 * listens (`wait_ready`).
 */
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 2567);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer in 0..65535 (got ${JSON.stringify(process.env.PORT)})`);
  process.exit(2);
}
const reconnect = process.env.RECONNECT_SECONDS === undefined ? undefined : Number(process.env.RECONNECT_SECONDS);
if (reconnect !== undefined && !(reconnect >= 0 && reconnect <= 3600)) {
  console.error(`RECONNECT_SECONDS must be a number of seconds in 0..3600 (got ${JSON.stringify(process.env.RECONNECT_SECONDS)})`);
  process.exit(2);
}

const audit = process.env.CULLING_AUDIT;
const auditShare = audit === undefined || audit.trim() === "" ? 0 : Number(audit);
if (!(auditShare >= 0 && auditShare <= 1)) {
  console.error(`CULLING_AUDIT must be 0, 1, or the fraction of clients to audit in between (got ${JSON.stringify(audit)})`);
  process.exit(2);
}
const culling = process.env.CULLING ?? "on";
if (culling !== "on" && culling !== "off") {
  console.error(`CULLING must be on or off (got ${JSON.stringify(culling)})`);
  process.exit(2);
}
const spectatorToken = process.env.SPECTATOR_TOKEN ?? "";
if (spectatorToken !== "" && (spectatorToken.length < MIN_SPECTATOR_TOKEN || spectatorToken.length > 256 || /[\s\p{Cc}]/u.test(spectatorToken))) {
  console.error(`SPECTATOR_TOKEN must be ${MIN_SPECTATOR_TOKEN} to 256 characters, without spaces or control characters (a spectator sees everything)`);
  process.exit(2);
}
const maxGuards = process.env.MAX_GUARDS === undefined || process.env.MAX_GUARDS === "" ? 0 : Number(process.env.MAX_GUARDS);
if (!(Number.isInteger(maxGuards) && maxGuards >= 0 && maxGuards <= 1024)) {
  console.error(`MAX_GUARDS must be an integer in 0..1024 (got ${JSON.stringify(process.env.MAX_GUARDS)})`);
  process.exit(2);
}
const maxRooms = integerFromEnv("MAX_ROOMS", 64, 1, 100_000);
const drainSeconds = integerFromEnv("DRAIN_SECONDS", 600, 0, 86_400);
const createsPerAddressPerMinute = integerFromEnv("MAX_CREATES_PER_MINUTE", 10, 1, 100_000);
const trustProxyHops = integerFromEnv("TRUST_PROXY_HOPS", 0, 0, 16);
const room = {
  ...(reconnect !== undefined ? { reconnectSeconds: reconnect } : {}),
  ...(spectatorToken !== "" ? { spectatorToken } : {}),
  ...(maxGuards > 0 ? { maxGuards } : {}),
  ...(auditShare > 0 ? { culling: { audit: true, auditSample: auditShare } } : {}),
  ...(culling === "off" ? { cullingEnabled: false } : {}),
};

const redisUrl = process.env.REDIS_URL ?? "";
let scaled: ScaleOut | undefined;
let listenPort = port;
if (redisUrl !== "") {
  // The public address is fixed before listening, so a port the OS picks must be known first.
  if (port === 0) listenPort = await freePort(host);
  const placement = process.env.PLACEMENT ?? "load";
  try {
    scaled = scaleOut({
      redisUrl,
      // "{port}" stands for this process's port, so N processes can share one setting (behind a proxy).
      publicAddress: process.env.PUBLIC_ADDRESS ? process.env.PUBLIC_ADDRESS.replaceAll("{port}", String(listenPort)) : derivedPublicAddress(host, listenPort),
      placement: placement as "load" | "rooms",
    });
  } catch (err) {
    console.error((err as Error).message.replace(/^placement/, "PLACEMENT"));
    process.exit(2);
  }
}

let server: Server;
try {
  server = createStealthServer({
    monitorAuth: process.env.MONITOR_AUTH,
    room,
    maxRooms,
    createsPerAddressPerMinute,
    trustProxyHops,
    scaleOut: scaled,
    colyseusSignals: false,
  });
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const catalog = MapCatalog.bundled();
// Colyseus's listen() neither rejects nor returns when the port is taken: it only logs. Say so and stop.
const http = (server.transport as unknown as { server?: import("node:http").Server }).server;
http?.once("error", (err: NodeJS.ErrnoException) => {
  console.error(`cannot listen on ${host}:${port}: ${err.code === "EADDRINUSE" ? "the port is in use (set PORT)" : err.message}`);
  process.exit(1);
});
await server.listen(listenPort, host);
const address = http?.address();
const actualPort = typeof address === "object" && address !== null && "port" in address ? (address as { port: number }).port : listenPort;
// Before the "listening" line, which launchers wait for: by then they can read the process id too.
if (scaled !== undefined) console.log(`scale-out: process ${matchMaker.processId} at ${scaled.publicAddress} through ${redactedUrl(redisUrl)}`);
console.log(`stealth server listening on http://${host}:${actualPort} (node ${process.version})`);
console.log(`  maps: ${catalog.names.join(", ") || "none"}${catalog.errors.length > 0 ? ` (${catalog.errors.length} failed to load, see above)` : ""}`);
console.log(`  join: new Client("ws://${host}:${actualPort}").joinOrCreate("stealth", { spawn: "A" })`);
console.log(`  limits: ${maxRooms} rooms, ${createsPerAddressPerMinute} creates per client address per minute${trustProxyHops > 0 ? ` (client address from X-Forwarded-For, ${trustProxyHops} trusted prox${trustProxyHops === 1 ? "y" : "ies"})` : ""}`);
console.log(`  viewer: http://${host}:${actualPort}/${spectatorToken !== "" ? `   spectate: http://${host}:${actualPort}/?spectate=<SPECTATOR_TOKEN>` : ""}`);
console.log(`  stats: http://${host}:${actualPort}/stats${process.env.MONITOR_AUTH ? `   monitor: http://${host}:${actualPort}/monitor/` : ""}`);
server.onShutdown(() => console.log("stealth server stopped"));
// PM2's wait_ready: the old process of a reload is told to stop only once this one listens.
process.send?.("ready");

/**
 * Seconds a shutdown may take before the process exits anyway, with code 1. It only takes that long when
 * Redis cannot be reached (the Redis connections wait for it): what the process leaves there, the other
 * processes sweep, as they do for a process that died.
 */
const SHUTDOWN_LIMIT_SECONDS = 10;
let shutdown: Promise<void> | undefined;
/** The one graceful shutdown (Colyseus's would run its steps twice if called again while under way). */
function shutDown(err?: Error): Promise<void> {
  if (shutdown !== undefined) return shutdown;
  setTimeout(() => {
    console.error(`shutdown did not finish in ${SHUTDOWN_LIMIT_SECONDS} s (is Redis reachable?): exiting now`);
    process.exit(1);
  }, SHUTDOWN_LIMIT_SECONDS * 1000);
  const started = server.gracefullyShutdown(true, err);
  shutdown = started;
  return started;
}
// What Colyseus's own signal handling would do on an uncaught exception (it is off: signals drain here).
process.on("uncaughtException", (err) => {
  console.error("uncaught exception:", err);
  void shutDown(err);
});
let signalled = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (signalled) {
      console.log(shutdown === undefined ? `${signal} again: stopping now, closing the games still running` : `${signal} again: already stopping`);
      void shutDown();
      return;
    }
    signalled = true;
    const { rooms, clients } = processDrain.figures();
    console.log(`${signal}: draining ${rooms} rooms (${clients} clients): no new room or join here; running games go on for up to ${drainSeconds} s (signal again to stop now)`);
    void processDrain.start(drainSeconds, async (why) => {
      if (shutdown !== undefined) return;
      console.log(why === "empty" ? "drained: every room has ended" : `drain deadline: closing the ${processDrain.figures().rooms} rooms still running`);
      await shutDown();
    });
  });
}
process.once("SIGUSR2", () => void shutDown());

/** An integer environment variable in min..max, `fallback` when unset or empty; exits with a message otherwise. */
function integerFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === "" ? fallback : Number(raw);
  if (!(Number.isInteger(value) && value >= min && value <= max)) {
    console.error(`${name} must be an integer in ${min}..${max} (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
}

/** The Redis URL without its password, for the log. */
function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}
