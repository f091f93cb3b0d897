// PM2 in fork mode (not cluster mode: each process must own its port, its rooms and its public address):
// two stealth server processes on 2567 and 2568 sharing one Redis. Run from the repository root:
//   pm2 start examples/scale-out/ecosystem.config.cjs
// PUBLIC_ADDRESS is what a client dials for a room on that process; "{port}" becomes the process's port.
// Behind the nginx configuration beside this file it is the proxy's host and a path per process; on one
// machine without a proxy, leave it unset (each process then announces HOST:PORT).
module.exports = {
  apps: [
    {
      name: "stealth",
      script: "server/index.ts",
      interpreter: "./node_modules/.bin/node", // the pinned Node 24 (Colyseus 0.18 needs 22 or later)
      interpreter_args: "--import tsx",
      exec_mode: "fork",
      instances: 2,
      increment_var: "PORT", // 2567 for the first instance, 2568 for the second
      kill_timeout: 10000, // SIGTERM first: rooms are disposed and their Redis entries removed
      env: {
        HOST: "127.0.0.1",
        PORT: 2567,
        REDIS_URL: "redis://127.0.0.1:6379",
        PUBLIC_ADDRESS: "game.example.com/{port}",
        TRUST_PROXY_HOPS: 1,
        PLACEMENT: "load",
      },
    },
  ],
};
