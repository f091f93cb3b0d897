import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ProbeGo, ProbeMessage, ProbeReport } from "./probeMessages.js";

/** The repository root (the probe runs from there, so `--import tsx` resolves). */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("./joinProbeChild.ts", import.meta.url));
/** How long the probe may take to load, and to report once stopped, ms. */
const READY_TIMEOUT_MS = 30_000;
const REPORT_TIMEOUT_MS = 15_000;

/**
 * A client process of its own that times joins into the run's rooms while the bots play
 * (`--join-probe <per second>`). Started before the ramp so that loading it costs nothing measured;
 * `go` when measuring starts; `stop` returns what it timed. Every other join is sent through a process
 * that does not host the room, so with several processes one run times joins on the room's own process
 * and joins across processes side by side.
 */
export class JoinProbe {
  private reported: Promise<ProbeReport>;

  private constructor(private readonly child: ChildProcess) {
    this.reported = new Promise((resolve, reject) => {
      child.on("message", (m: ProbeMessage) => {
        if (m.kind === "report") resolve(m);
      });
      child.once("exit", (code, signal) => reject(new Error(`the join probe exited before reporting (code ${code}, signal ${signal})`)));
    });
    // Handled where it is awaited; this keeps an early exit from being an unhandled rejection meanwhile.
    this.reported.catch(() => undefined);
  }

  /** Starts the probe's process and resolves once it is ready to join. */
  static async start(): Promise<JoinProbe> {
    const child = fork(CHILD, [], { cwd: ROOT, execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const probe = new JoinProbe(child);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`the join probe was not ready within ${READY_TIMEOUT_MS / 1000} s`));
      }, READY_TIMEOUT_MS);
      child.on("message", (m: ProbeMessage) => {
        if (m.kind !== "ready") return;
        clearTimeout(timer);
        resolve();
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the join probe exited while starting (code ${code})`));
      });
    });
    return probe;
  }

  /** Starts joining. */
  go(go: Omit<ProbeGo, "kind">): void {
    this.child.send({ kind: "go", ...go } satisfies ProbeGo);
  }

  /** Stops joining and resolves with what was timed (the join in flight finishes first). */
  async stop(): Promise<ProbeReport> {
    if (this.child.connected) this.child.send({ kind: "stop" } satisfies ProbeMessage);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.reported,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the join probe did not report within ${REPORT_TIMEOUT_MS / 1000} s`)), REPORT_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.kill();
    }
  }

  /** Last resort: no waiting. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}
