// PM2 in fork mode (not cluster mode: each process must own its port, its rooms and its public address):
// two stealth server processes on 2567 and 2568 sharing one Redis. Run from the repository root:
//   pm2 start examples/scale-out/ecosystem.config.cjs
// PUBLIC_ADDRESS is what a client dials for a room on that process; "{port}" becomes the process's port.
// Behind the nginx configuration beside this file it is the proxy's host and a path per process; on one
// machine without a proxy, leave it unset (each process then announces HOST:PORT).
// Deploy without ending games: `pm2 reload stealth` restarts the processes one at a time. Each new process
// says "ready" once it listens (wait_ready); the old one is then signalled (kill_signal), drains (no new
// room or join, its games play on) and exits 0 when its last room ends or DRAIN_SECONDS pass. kill_timeout
// must outlast that drain, or PM2 kills the process (and its games) before it is done.
module.exports = {
  apps: [
    {
      name: "stealth",
      script: "server/index.ts",
      interpreter: "./node_modules/.bin/node", // the pinned Node 24 (Colyseus 0.18 needs 22 or later)
      interpreter_args: "--max-valid-polymorphic-map-count=8 --import tsx", // as npm start: see docs/performance.md
      exec_mode: "fork",
      instances: 2,
      increment_var: "PORT", // 2567 for the first instance, 2568 for the second
      wait_ready: true, // the new process's "ready" (sent once it listens) before the old one is stopped
      listen_timeout: 30000, // how long PM2 waits for that "ready"
      kill_signal: "SIGTERM", // starts the drain (a second signal stops at once)
      kill_timeout: 630000, // DRAIN_SECONDS (600) plus 30 s for the graceful shutdown after it
      env: {
        HOST: "127.0.0.1",
        PORT: 2567,
        REDIS_URL: "redis://127.0.0.1:6379",
        PUBLIC_ADDRESS: "game.example.com/{port}",
        TRUST_PROXY_HOPS: 1,
        PLACEMENT: "load",
        DRAIN_SECONDS: 600,
      },
    },
  ],
};
