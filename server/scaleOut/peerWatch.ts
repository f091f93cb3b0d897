import { matchMaker } from "@colyseus/core";
import type { ProcessLoadBoard } from "./processLoad.js";
import { inRange } from "../../shared/validation/rangeChecks.js";

/**
 * Sweeps processes that died without shutting down. Colyseus checks a peer's health only when it fails
 * to answer a request, or when a process starts; until then a killed process keeps its rooms listed in
 * Redis and joins go on being routed to them. Every `intervalMs` this asks Colyseus to check the
 * processes whose presence channel is gone (a killed process's Redis connection closes with it): each
 * gets one request, and one that does not answer within Colyseus's short timeout (2 s) is removed with
 * its rooms. A process only slow to answer re-lists its rooms by itself (Colyseus does so within ~5 s).
 * Load entries of processes no longer listed are removed too.
 */
export class PeerWatch {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  /**
   * @param board the load figures to keep clean
   * @param intervalMs how often to look, ms
   * @default intervalMs 3000
   */
  constructor(
    private readonly board: ProcessLoadBoard,
    readonly intervalMs = 3000,
  ) {
    inRange("PeerWatch intervalMs", intervalMs, 100, Infinity, "milliseconds", "[)");
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look: dead peers swept, stale load entries removed. Errors are logged, never thrown. */
  async check(): Promise<void> {
    if (this.running || matchMaker.state !== matchMaker.MatchMakerState.READY) return;
    this.running = true;
    try {
      await matchMaker.healthCheckAllProcesses();
      const alive = new Set((await matchMaker.stats.fetchAll()).map((s) => s.processId));
      await this.board.sweep(alive, 2 * this.board.intervalMs);
    } catch (err) {
      console.warn(`peer check failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
