import { Client, type Room } from "@colyseus/sdk";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster } from "../../loadtest/cluster/localCluster.js";
import { startArguments } from "../../loadtest/localServer.js";
import { checkPublicAddress } from "../../server/scaleOut/scaleOut.js";
import { PathProxy } from "../fixtures/pathProxy.js";

/**
 * Two processes behind one reverse proxy, as `examples/scale-out/` deploys them: clients know only the
 * proxy, and each process announces the proxy's address with its own path (PUBLIC_ADDRESS=<proxy>/{port}).
 */
let proxy: PathProxy;
let cluster: LocalCluster;
const rooms: Room[] = [];

beforeAll(async () => {
  proxy = await PathProxy.start();
  cluster = await LocalCluster.start(2, { PUBLIC_ADDRESS: `127.0.0.1:${proxy.port}/{port}`, TRUST_PROXY_HOPS: "1" });
  proxy.backends = cluster.members.map((m) => m.server.port);
}, 60_000);

afterAll(async () => {
  for (const room of rooms) if (room.connection.isOpen) await room.leave().catch(() => undefined);
  await cluster?.stop();
  await proxy?.close();
}, 30_000);

describe("behind a reverse proxy", () => {
  it("clients that know only the proxy play in rooms on both processes, each socket routed by its process's path", async () => {
    const client = new Client(`ws://127.0.0.1:${proxy.port}`);
    for (let i = 0; i < 4; i++) rooms.push(await client.create("stealth", { map: "demo", spawn: "A" }));
    for (const room of rooms) {
      await new Promise<void>((resolve) => room.onStateChange.once(() => resolve()));
      expect((room.state as { players: Map<string, unknown> }).players.has(room.sessionId)).toBe(true);
    }
    const sockets = proxy.routed.filter((r) => r.upgrade);
    expect(sockets).toHaveLength(4);
    expect(sockets.every((s) => s.prefixed)).toBe(true);
    // Both processes host rooms, and every socket went to the port its process announced.
    expect(new Set(sockets.map((s) => s.port))).toEqual(new Set(cluster.members.map((m) => m.server.port)));
  }, 30_000);

  it("the PM2 example runs the server in fork mode, one port and one public address per process", () => {
    const config = createRequire(import.meta.url)("../../examples/scale-out/ecosystem.config.cjs") as { apps: Record<string, unknown>[] };
    const app = config.apps[0]!;
    expect(app).toMatchObject({ exec_mode: "fork", increment_var: "PORT", script: "server/index.ts" });
    // The same Node arguments as npm start, V8 flags included.
    expect([...String(app.interpreter_args).split(" "), app.script]).toEqual(startArguments());
    expect(existsSync(app.script as string)).toBe(true);
    const env = app.env as Record<string, string | number>;
    expect(String(env.REDIS_URL)).toMatch(/^redis:\/\//);
    for (const port of [2567, 2568]) expect(() => checkPublicAddress(String(env.PUBLIC_ADDRESS).replaceAll("{port}", String(port)))).not.toThrow();
    // A reload waits for the new process and lets the old one drain past its deadline before any kill.
    expect(app).toMatchObject({ wait_ready: true, kill_signal: "SIGTERM" });
    expect(Number(app.kill_timeout)).toBeGreaterThan(Number(env.DRAIN_SECONDS) * 1000);
  });

  it("the Kubernetes example gives a pod's drain its time, and takes a draining pod out of the Service", () => {
    const yaml = readFileSync("examples/scale-out/kubernetes.yaml", "utf8");
    const grace = Number(/terminationGracePeriodSeconds: (\d+)/.exec(yaml)![1]);
    const drain = Number(/name: DRAIN_SECONDS, value: "(\d+)"/.exec(yaml)![1]);
    expect(grace).toBeGreaterThan(drain);
    expect(yaml).toMatch(/readinessProbe:\s+httpGet: \{ path: \/health/);
    // The server runs exactly as npm start runs it, V8 flags included.
    expect(JSON.parse(/command: (\[.*\])/.exec(yaml)![1]!)).toEqual(["node_modules/.bin/node", ...startArguments()]);
    // The per-pod route keeps reaching a draining (unready) pod: reconnections to its games.
    expect(yaml).toMatch(/clusterIP: None\s+publishNotReadyAddresses: true/);
  });
});
