import { percentile } from "../bench/percentile.js";
import { DEFAULT_SATURATION as SATURATION } from "../../server/scaleOut/placement.js";
import type { SimProcess } from "./simProcess.js";

/** The load over a run's measured window, by the modelled truth. Loads are busy shares (0..1), CPU % of one core, lag ms. */
export interface RunFigures {
  measuredSeconds: number;
  /** The busiest process at each moment: the highest over the window, and the p99 of 1 s samples. */
  busiestBusy: { peak: number; p99: number };
  busiestCpuPercent: { peak: number; p99: number };
  /** The laggiest process's modelled loop-lag p99, ms, the same two ways. */
  busiestLagMs: { peak: number; p99: number };
  /** Between processes at each sample: highest minus lowest CPU (mean and p99 over samples) and the standard deviation (mean). */
  spreadCpuPercent: { maxMinMean: number; maxMinP99: number; stdMean: number };
  /** Seconds at least one process was saturated, and seconds of saturation summed over processes. */
  saturatedSeconds: { anyProcess: number; processSum: number };
}

/**
 * Follows every process's modelled load through a run: saturation intervals exactly (at every change),
 * the highest loads exactly, and percentiles and spread from samples the caller takes once a second.
 */
export class LoadTracker {
  private readonly saturatedSince = new Map<SimProcess, number>();
  private anySince: number | undefined;
  private anyMs = 0;
  private processMs = 0;
  private readonly peak = { busy: 0, cpu: 0, lag: 0 };
  private readonly samples = { busy: [] as number[], cpu: [] as number[], lag: [] as number[], maxMin: [] as number[], std: [] as number[] };

  /** Measures over [fromMs, toMs] of simulated time. */
  constructor(
    private readonly processes: readonly SimProcess[],
    private readonly fromMs: number,
    private readonly toMs: number,
  ) {}

  /**
   * Whether `p`'s loop is saturated now, by the server's default thresholds applied to the modelled truth
   * rather than to what was published (a process without rooms never is, as `pickProcess` has it).
   */
  isSaturated(p: SimProcess): boolean {
    return p.rooms.length > 0 && (p.busy >= SATURATION.busy || p.lagP99Ms >= SATURATION.lagP99Ms);
  }

  /** Takes in `p`'s state after a change at `now`. */
  update(now: number, p: SimProcess): void {
    if (now >= this.fromMs) this.raisePeaks(p);
    const was = this.saturatedSince.get(p);
    const is = this.isSaturated(p);
    if (is && was === undefined) {
      this.saturatedSince.set(p, now);
      if (this.saturatedSince.size === 1) this.anySince = now;
    } else if (!is && was !== undefined) {
      this.saturatedSince.delete(p);
      this.processMs += this.clipped(was, now);
      if (this.saturatedSince.size === 0) {
        this.anyMs += this.clipped(this.anySince!, now);
        this.anySince = undefined;
      }
    }
  }

  /** One sample of every process's load (at a time inside the measured window). */
  sample(): void {
    let busy = 0;
    let lag = 0;
    let max = -Infinity;
    let min = Infinity;
    let sum = 0;
    let squares = 0;
    for (const p of this.processes) {
      this.raisePeaks(p);
      const cpu = p.cpuPercent;
      busy = Math.max(busy, p.busy);
      lag = Math.max(lag, p.lagP99Ms);
      max = Math.max(max, cpu);
      min = Math.min(min, cpu);
      sum += cpu;
      squares += cpu * cpu;
    }
    const n = this.processes.length;
    const mean = sum / n;
    this.samples.busy.push(busy);
    this.samples.cpu.push(max);
    this.samples.lag.push(lag);
    this.samples.maxMin.push(max - min);
    this.samples.std.push(Math.sqrt(Math.max(0, squares / n - mean * mean)));
  }

  /** The figures, closing the saturation intervals still open at the end. */
  finish(): RunFigures {
    for (const since of this.saturatedSince.values()) this.processMs += this.clipped(since, this.toMs);
    if (this.anySince !== undefined) this.anyMs += this.clipped(this.anySince, this.toMs);
    const s = this.samples;
    return {
      measuredSeconds: (this.toMs - this.fromMs) / 1000,
      busiestBusy: { peak: this.peak.busy, p99: percentile(s.busy, 0.99) },
      busiestCpuPercent: { peak: this.peak.cpu, p99: percentile(s.cpu, 0.99) },
      busiestLagMs: { peak: this.peak.lag, p99: percentile(s.lag, 0.99) },
      spreadCpuPercent: { maxMinMean: meanOf(s.maxMin), maxMinP99: percentile(s.maxMin, 0.99), stdMean: meanOf(s.std) },
      saturatedSeconds: { anyProcess: this.anyMs / 1000, processSum: this.processMs / 1000 },
    };
  }

  private raisePeaks(p: SimProcess): void {
    this.peak.busy = Math.max(this.peak.busy, p.busy);
    this.peak.cpu = Math.max(this.peak.cpu, p.cpuPercent);
    this.peak.lag = Math.max(this.peak.lag, p.lagP99Ms);
  }

  private clipped(from: number, to: number): number {
    return Math.max(0, Math.min(to, this.toMs) - Math.max(from, this.fromMs));
  }
}

function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}
