import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../server/freePort.js";

/** How to get Redis when it is missing: the same package `.ci/run` installs. */
const REDIS_INSTALL_HINT = "install Debian's redis-server (apt-get install -y redis-server) so that `redis-server` is on the PATH";

/**
 * A throwaway `redis-server` on a free loopback port, with no persistence, for tests and local load tests.
 * It runs under a small shell that stops it when its standard input closes, so it goes away with the
 * process that started it even if that process is killed.
 */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    /** Its port on 127.0.0.1. */
    readonly port: number,
    private readonly dir: string,
    private readonly exited: Promise<void>,
  ) {}

  /** `redis://127.0.0.1:<port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts one and resolves once it accepts connections; rejects with how to install it when it is
   * missing. On `port` when given (a Redis restarted where its clients look for it), else a free one.
   */
  static async start(timeoutMs = 10_000, port?: number): Promise<RedisServer> {
    if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).error !== undefined) {
      throw new Error(`redis-server is not installed: ${REDIS_INSTALL_HINT}`);
    }
    port ??= await freePort();
    const dir = mkdtempSync(join(tmpdir(), "sightline-redis-"));
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "''", "--appendonly", "no", "--dir", dir, "--daemonize", "no"];
    // The shell waits on its stdin: when the pipe closes (stop(), or this process dying), Redis is killed.
    const script = `redis-server ${args.join(" ")} & pid=$!; cat >/dev/null; kill $pid 2>/dev/null; wait $pid`;
    const child = spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(`no "Ready to accept connections" within ${timeoutMs / 1000} s`), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) done();
      };
      const onExit = () => fail("it exited");
      const done = () => {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        child.off("exit", onExit);
        resolve();
      };
      const fail = (why: string) => {
        clearTimeout(timer);
        child.stdin!.end();
        rmSync(dir, { recursive: true, force: true });
        reject(new Error(`redis-server did not start: ${why}\n${output.slice(-2000)}`));
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", onExit);
    });
    return new RedisServer(child, port, dir, exited);
  }

  /** Stops it and removes its directory. */
  async stop(): Promise<void> {
    this.child.stdin!.end();
    await this.exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
