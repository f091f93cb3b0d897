import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root (where `server/index.ts` and node_modules are). */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Lines of the server's output kept for error reports. */
const TAIL_LINES = 40;
/** The load test's plain peer server (`--server plain`), started exactly as ours is but for the script. */
export const PLAIN_SERVER_ENTRY = "loadtest/peer/plainServer.ts";

/**
 * The stealth server as a child process, for `npm run loadtest:local`: `server/index.ts` through this
 * same Node (the pinned one npm scripts run) with the arguments of `npm start` ({@link startArguments}), on 127.0.0.1
 * with PORT=0; the port is read from the line it prints. One process, so stopping it stops everything.
 */
export class LocalServer {
  private readonly tail: string[] = [];
  /** Resolves when the process has exited, whoever stopped it. */
  readonly exited: Promise<void>;

  /** The port it listens on (known once `start` resolves). */
  port = 0;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.stdout!.on("data", this.keeper());
    child.stderr!.on("data", this.keeper());
  }

  /** ws:// endpoint of the server. */
  get endpoint(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Whether the process has exited, and with what. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? undefined : { code: this.child.exitCode, signal: this.child.signalCode };
  }

  /**
   * Starts the server with `env` added to this process's environment, and resolves once it listens.
   * Rejects (after killing it) if it exits or prints no port within `timeoutMs`, with its last output.
   * `entry` runs another server script (e.g. {@link PLAIN_SERVER_ENTRY}) with the same Node arguments.
   */
  static start(env: Record<string, string>, timeoutMs = 30_000, entry?: string): Promise<LocalServer> {
    const child = spawn(process.execPath, startArguments(entry), {
      cwd: ROOT,
      env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = new LocalServer(child);
    return new Promise((resolve, reject) => {
      const settle = (why: string | undefined) => {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        child.off("exit", onExit);
        child.off("error", onError);
        if (why === undefined) return resolve(server);
        child.kill("SIGKILL");
        reject(new Error(`the local server did not start: ${why}${server.tail.length > 0 ? `\n--- its last output ---\n${server.lastOutput()}` : ""}`));
      };
      const onData = () => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.lastOutput());
        if (m === null) return;
        server.port = Number(m[1]);
        settle(undefined);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => settle(`it exited (code ${code}, signal ${signal})`);
      const onError = (err: Error) => settle(err.message);
      const timer = setTimeout(() => settle(`no "listening" line within ${timeoutMs / 1000} s`), timeoutMs);
      // After the tail keeper (registered in the constructor), so the line is in the tail when read.
      child.stdout!.on("data", onData);
      child.once("exit", onExit);
      child.once("error", onError);
    });
  }

  /** Its last lines of output. */
  lastOutput(): string {
    return this.tail.join("\n");
  }

  /**
   * Stops it now: SIGTERM (the stealth server starts draining, and exits at once when it holds no room),
   * SIGTERM again a second later if it is still there (a graceful shutdown that closes the games still
   * running), then SIGKILL if it is still there after `graceMs`. Resolves once it has exited.
   */
  async stop(graceMs = 5000): Promise<void> {
    if (this.exit !== undefined) return;
    this.child.kill("SIGTERM");
    const timers: NodeJS.Timeout[] = [];
    const killed = new Promise<void>((resolve) => {
      timers.push(setTimeout(() => this.child.kill("SIGTERM"), Math.min(1000, graceMs / 2)));
      timers.push(setTimeout(() => {
        this.child.kill("SIGKILL");
        resolve();
      }, graceMs));
    });
    await Promise.race([this.exited, killed]);
    for (const t of timers) clearTimeout(t);
    await this.exited;
  }

  /**
   * Asks it to drain (one SIGTERM): it takes no new room or join, lets its games end, and exits when the
   * last room has gone or at its `DRAIN_SECONDS`. Resolves with its exit once it has exited.
   */
  async drain(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exit === undefined) this.child.kill("SIGTERM");
    await this.exited;
    return this.exit!;
  }

  /** Sends it `signal` (nothing once it has exited). */
  signal(signal: NodeJS.Signals): void {
    if (this.exit === undefined) this.child.kill(signal);
  }

  /** Last resort when this process is exiting anyway: no waiting. */
  killNow(): void {
    if (this.exit === undefined) this.child.kill("SIGKILL");
  }

  /** A listener that adds a stream's complete lines to the tail (a chunk may end mid-line). */
  private keeper(): (chunk: Buffer) => void {
    let partial = "";
    return (chunk) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) if (line.trim() !== "") this.tail.push(line);
      this.tail.splice(0, Math.max(0, this.tail.length - TAIL_LINES));
    };
  }
}

/**
 * The arguments `npm start` gives Node (its `start` script without the leading `node`): the local server
 * runs exactly as `npm start` does, V8 flags included, with package.json as the one place they are set.
 * With `entry`, that script replaces the server's (the last word), so a peer server runs under the same flags.
 */
export function startArguments(entry?: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const words = scripts.start!.trim().split(/\s+/);
  if (words[0] !== "node") throw new Error(`package.json's start script must run node (got ${JSON.stringify(scripts.start)})`);
  const args = words.slice(1);
  if (entry !== undefined) args[args.length - 1] = entry;
  return args;
}
