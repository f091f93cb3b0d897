/// <reference lib="dom" />
import { MAP_COLOURS } from "./palette.js";
import type { MapDoor, Point } from "./tiledGeometry.js";
import type { Viewport } from "./viewport.js";

/** Which doors are open, as far as the page knows (`LevelSight`). */
export interface DoorStates {
  readonly doors: readonly MapDoor[];
  isOpen(door: number): boolean;
}

/** Doorways wider than this, meters, are drawn as double doors: two leaves, hinged at either end. */
const DOUBLE_DOOR_WIDTH = 1.6;

/** How an open door is drawn: its leaves swung a quarter turn off their hinges, meters and radians. */
interface Swing {
  /** Where the doorway runs, from its first end: direction (radians) and width (meters). */
  hingeX: number;
  hingeY: number;
  along: number;
  width: number;
  /** 1 or 2. */
  leaves: number;
}

/**
 * The doors over the map, under the fog (they are part of the map; the fog veils them as it veils walls):
 * a shut door filled solid, an open one as its doorway's dashed outline with its leaf swung a quarter
 * turn off its hinge and the dashed arc of the swing (the plan symbol of a door; a wide doorway has two
 * leaves, so no leaf sweeps across a room), so the doorway itself shows the floor it lets sight through.
 */
export class DoorLayer {
  private readonly swings: Swing[];

  constructor(private readonly states: DoorStates) {
    this.swings = states.doors.map((d) => swingOf(d.outline));
  }

  draw(ctx: CanvasRenderingContext2D, view: Viewport): void {
    const doors = this.states.doors;
    ctx.lineWidth = 1;
    for (let i = 0; i < doors.length; i++) {
      const outline = doors[i]!.outline;
      ctx.beginPath();
      ctx.moveTo(view.x(outline[0]!.x), view.y(outline[0]!.y));
      for (let k = 1; k < outline.length; k++) ctx.lineTo(view.x(outline[k]!.x), view.y(outline[k]!.y));
      ctx.closePath();
      ctx.strokeStyle = MAP_COLOURS.doorEdge;
      if (!this.states.isOpen(i)) {
        ctx.fillStyle = MAP_COLOURS.door;
        ctx.fill();
        ctx.stroke();
        continue;
      }
      ctx.setLineDash(DASH);
      ctx.stroke();
      const w = this.swings[i]!;
      const leaf = w.width / w.leaves;
      const ux = Math.cos(w.along);
      const uy = Math.sin(w.along);
      for (let k = 0; k < w.leaves; k++) {
        // Leaf k hangs at the doorway's first end (k = 0) or its far end (k = 1), swung to the same side.
        const hx = w.hingeX + ux * w.width * k;
        const hy = w.hingeY + uy * w.width * k;
        ctx.strokeStyle = MAP_COLOURS.doorEdge;
        ctx.setLineDash(DASH);
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.arc(view.x(hx), view.y(hy), view.length(leaf), w.along + (k * Math.PI) / 2, w.along + ((k + 1) * Math.PI) / 2);
        ctx.stroke();
        ctx.setLineDash(NO_DASH);
        ctx.strokeStyle = MAP_COLOURS.door;
        ctx.lineWidth = Math.max(2, view.length(0.1));
        ctx.beginPath();
        ctx.moveTo(view.x(hx), view.y(hy));
        ctx.lineTo(view.x(hx - uy * leaf), view.y(hy + ux * leaf));
        ctx.stroke();
      }
      ctx.lineWidth = 1;
    }
  }
}

const DASH = [3, 3];
const NO_DASH: number[] = [];

/**
 * Where an open door's leaves go: along the doorway's long side (its longest edge's direction) the outline
 * spans from one end to the other; the first hinge is at the first end, on the doorway's centre line.
 */
function swingOf(outline: readonly Point[]): Swing {
  let ux = 1;
  let uy = 0;
  let longest = -1;
  for (let i = 0; i < outline.length; i++) {
    const a = outline[i]!;
    const b = outline[(i + 1) % outline.length]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len > longest) {
      longest = len;
      ux = (b.x - a.x) / (len || 1);
      uy = (b.y - a.y) / (len || 1);
    }
  }
  let cx = 0;
  let cy = 0;
  for (const p of outline) {
    cx += p.x / outline.length;
    cy += p.y / outline.length;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of outline) {
    const along = (p.x - cx) * ux + (p.y - cy) * uy;
    lo = Math.min(lo, along);
    hi = Math.max(hi, along);
  }
  const width = hi - lo;
  return { hingeX: cx + ux * lo, hingeY: cy + uy * lo, along: Math.atan2(uy, ux), width, leaves: width > DOUBLE_DOOR_WIDTH ? 2 : 1 };
}
