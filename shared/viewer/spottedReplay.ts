/// <reference lib="dom" />
import type { ExplainedFill } from "sightline";
import { decodeExplanation } from "../explanationWire.js";

/** Steps of the own character's path kept, for replays (10 s at 20 Hz). */
const PATH_TICKS = 200;
/** How far back (ticks) a step without a path record of its own looks for the latest one. */
const PATH_GAP_TICKS = 10;
/** Milliseconds a replayed step is shown (the server's step), and the pause at the end before it loops. */
const STEP_MS = 50;
const HOLD_MS = 1200;
/** Colours: the observer as it was, as the player's screen showed it, a sight ray, the player's path. */
export const REPLAY_COLOURS = Object.freeze({ present: "#ff5c66", shown: "#5fb4ff", ray: "#ffd84a", path: "#6fe3a1", meter: "#ff5c66" });

/** What the panel shows now, for tests and the console. */
export interface ReplayReading {
  observer: string;
  steps: number;
  /** The step drawn last (0-based), and how many steps the player's screen showed the observer from a pose of its own. */
  drawnStep: number;
  withShownPose: number;
}

/**
 * "Why was I spotted": when the server explains a detection, replays its last seconds in a small canvas,
 * step by step and looping: the observer's cone as it was on the server (red) and as the player's own
 * screen showed it (blue, under the fairness mode), the sight ray to the player, the player's own path,
 * and the meter filling. Beside it, in words: who, by which sense, how fast, and what slowed or sped it.
 * The path is the page's own record of its character (the server sends no positions it did not already).
 */
export class SpottedReplay {
  private readonly path = new Map<number, { x: number; y: number }>();
  private lastTick = -Infinity;
  private replay: { observer: string; steps: ExplainedFill[]; cone: { fov: number; range: number } | undefined; started: number } | null = null;
  private drawnStep = -1;
  private readonly ctx: CanvasRenderingContext2D;

  constructor(private readonly canvas: HTMLCanvasElement, private readonly text: HTMLElement, private readonly section: HTMLElement) {
    this.ctx = canvas.getContext("2d")!;
  }

  /** The own character was at (x, y), meters, at server tick `tick`. */
  track(tick: number, x: number, y: number): void {
    // A tick that went back is another room's clock: nothing recorded before is of it.
    if (tick < this.lastTick) this.path.clear();
    this.lastTick = tick;
    this.path.set(tick, { x, y });
    // Records arrive in tick order but not one per tick, so prune by age from the oldest end.
    for (const old of this.path.keys()) {
      if (old > tick - PATH_TICKS) break;
      this.path.delete(old);
    }
  }

  /**
   * An `explanation` message arrived: replays it from `now` (ms). `cone` is the observer's field of view
   * (radians) and range (meters) when the page has it. False for a payload that is not one.
   */
  show(message: unknown, cone: { fov: number; range: number } | undefined, now: number): boolean {
    const decoded = decodeExplanation(message);
    if (decoded === undefined || decoded.steps.length === 0) return false;
    this.replay = { observer: decoded.observer, steps: decoded.steps, cone, started: now };
    this.section.hidden = false;
    this.text.textContent = describe(decoded.observer, decoded.sense, decoded.steps);
    return true;
  }

  /**
   * Where the own character was at `tick`: the page records it once a frame, at the tick of the state it
   * decoded last, and a busy server's patch moves several ticks at once (a slow page draws less often), so
   * a step without a record of its own takes the latest one before it (up to half a second back).
   */
  private at(tick: number): { x: number; y: number } | undefined {
    for (let t = tick; t > tick - PATH_GAP_TICKS; t--) {
      const at = this.path.get(t);
      if (at !== undefined) return at;
    }
    return undefined;
  }

  reading(): ReplayReading | null {
    const r = this.replay;
    if (r === null) return null;
    return { observer: r.observer, steps: r.steps.length, drawnStep: this.drawnStep, withShownPose: r.steps.filter((s) => s.poses !== undefined).length };
  }

  /** Draws the step due at `now` (ms). */
  draw(now: number): void {
    const r = this.replay;
    if (r === null) return;
    const { steps } = r;
    const cycle = steps.length * STEP_MS + HOLD_MS;
    const i = Math.min(steps.length - 1, Math.floor(((now - r.started) % cycle) / STEP_MS));
    this.drawnStep = i;
    const ctx = this.ctx;
    const { width, height } = this.canvas;
    ctx.fillStyle = "#1b1e26";
    ctx.fillRect(0, 0, width, height);
    // The frame: every point the replay draws, with a margin.
    const points: { x: number; y: number }[] = [];
    for (const s of steps) {
      const at = this.at(s.tick);
      if (at !== undefined) points.push(at);
      if (s.poses !== undefined) points.push(s.poses.present, s.poses.rewound);
    }
    if (points.length === 0) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const margin = 1.5;
    const x0 = Math.min(...xs) - margin;
    const y0 = Math.min(...ys) - margin;
    const scale = Math.min(width / (Math.max(...xs) + margin - x0), (height - 14) / (Math.max(...ys) + margin - y0));
    const px = (x: number) => (x - x0) * scale;
    const py = (y: number) => (y - y0) * scale;
    const step = steps[i]!;
    const me = this.at(step.tick);
    // The path so far.
    ctx.strokeStyle = REPLAY_COLOURS.path;
    ctx.lineWidth = 2;
    ctx.beginPath();
    let first = true;
    for (let k = 0; k <= i; k++) {
      const at = this.at(steps[k]!.tick);
      if (at === undefined) continue;
      if (first) ctx.moveTo(px(at.x), py(at.y));
      else ctx.lineTo(px(at.x), py(at.y));
      first = false;
    }
    ctx.stroke();
    const cone = (pose: { x: number; y: number; facing: number }, colour: string, dashed: boolean) => {
      const range = Math.min(r.cone?.range ?? 6, 30);
      const half = (r.cone?.fov ?? Math.PI / 2) / 2;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2;
      ctx.setLineDash(dashed ? [5, 4] : []);
      ctx.beginPath();
      ctx.moveTo(px(pose.x), py(pose.y));
      ctx.arc(px(pose.x), py(pose.y), range * scale, pose.facing - half, pose.facing + half);
      ctx.closePath();
      ctx.stroke();
      ctx.setLineDash([]);
    };
    const poses = step.poses;
    if (poses !== undefined) {
      cone(poses.rewound, REPLAY_COLOURS.shown, true);
      cone(poses.present, REPLAY_COLOURS.present, false);
      if (me !== undefined && step.sense === "sight") {
        ctx.strokeStyle = REPLAY_COLOURS.ray;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(px(poses.present.x), py(poses.present.y));
        ctx.lineTo(px(me.x), py(me.y));
        ctx.stroke();
      }
    }
    if (me !== undefined) {
      ctx.fillStyle = REPLAY_COLOURS.path;
      ctx.beginPath();
      ctx.arc(px(me.x), py(me.y), Math.max(3, 0.35 * scale), 0, 2 * Math.PI);
      ctx.fill();
    }
    // The meter, along the bottom.
    ctx.fillStyle = "#333";
    ctx.fillRect(0, height - 8, width, 8);
    ctx.fillStyle = REPLAY_COLOURS.meter;
    ctx.fillRect(0, height - 8, width * Math.min(1, step.after), 8);
  }
}

/** The explanation in words. */
function describe(observer: string, sense: string, steps: readonly ExplainedFill[]): string {
  const seconds = ((steps.at(-1)!.tick - steps[0]!.tick + 1) * STEP_MS) / 1000;
  const sight = steps.filter((s) => s.sense === "sight");
  const heard = steps.length - sight.length;
  const parts = [`${observer} spotted you by ${sense}: ${steps.length} step${steps.length === 1 ? "" : "s"} over ${seconds.toFixed(2)} s`];
  if (sight.length > 0) {
    const nearest = Math.min(...sight.map((s) => s.distance ?? Infinity));
    const crouched = sight.filter((s) => (s.visibility ?? 1) < 1).length;
    const side = Math.max(...sight.map((s) => Math.abs(s.offAxis ?? 0)));
    parts.push(`seen in ${sight.length}, as close as ${nearest.toFixed(1)} m, up to ${Math.round((side * 180) / Math.PI)} degrees off its facing${crouched > 0 ? `, ${crouched} of them crouching` : ""}`);
    const last = sight.at(-1)!.factors;
    if (last !== undefined) parts.push(`last step: distance x${last.distance.toFixed(2)}, edge of range x${last.rangeEdge.toFixed(2)}, side of the cone x${last.periphery.toFixed(2)}, exposure x${last.visibility.toFixed(2)}, its state x${last.state.toFixed(2)}`);
    const shown = sight.filter((s) => s.poses !== undefined);
    if (shown.length > 0) parts.push(`your screen showed it able to see you in all ${shown.length} (judged up to ${Math.max(...shown.map((s) => s.poses!.rewoundMs))} ms back)`);
  }
  if (heard > 0) parts.push(`heard in ${heard}`);
  return `${parts.join("; ")}.`;
}
