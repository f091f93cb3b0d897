import type { Point, TiledDoor } from "sightline/occluders";
import { distanceToOutline } from "../shared/outlineDistance.js";

/** A door of the public map, as bots look it up. */
export interface MapDoor {
  /** The Tiled object id: what `door` messages name. */
  readonly id: number;
  /** Its key in `state.doors` (the id in decimal), made once rather than on every look. */
  readonly key: string;
  readonly outline: readonly Point[];
  /** Whether the map hangs it open: what a bot believes until it sees the door or acts on it. */
  readonly openAtStart: boolean;
  /** Its box, meters, and the box's centre. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly x: number;
  readonly y: number;
}

/** Meters per cell of the lookup grid: a few doors per cell at most on the bundled maps. */
const CELL = 4;
const NONE: readonly MapDoor[] = [];

/**
 * The map's doors, bucketed on a coarse grid so a bot finds the few near it without scanning all of them
 * (65 on the compound map, looked up by hundreds of bots 20 times a second). Built once per run, shared.
 */
export class DoorIndex {
  readonly doors: readonly MapDoor[];
  private readonly cols: number;
  private readonly rows: number;
  private readonly cells: MapDoor[][];

  /**
   * @param doors the public map's doors (`TiledLevel.doors`)
   * @param width the map's size, meters
   * @param reach how far from a door `near` still lists it, meters (as far as a bot looks for doors)
   */
  constructor(doors: readonly TiledDoor[], width: number, height: number, readonly reach: number) {
    this.cols = Math.max(1, Math.ceil(width / CELL));
    this.rows = Math.max(1, Math.ceil(height / CELL));
    this.cells = Array.from({ length: this.cols * this.rows }, () => []);
    this.doors = doors.map((d) => {
      const xs = d.outline.map((p) => p.x);
      const ys = d.outline.map((p) => p.y);
      const minX = Math.min(...xs);
      const minY = Math.min(...ys);
      const maxX = Math.max(...xs);
      const maxY = Math.max(...ys);
      return { id: d.id, key: String(d.id), outline: d.outline, openAtStart: d.open, minX, minY, maxX, maxY, x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
    });
    for (const door of this.doors) {
      for (let cy = this.row(door.minY - reach); cy <= this.row(door.maxY + reach); cy++) {
        for (let cx = this.col(door.minX - reach); cx <= this.col(door.maxX + reach); cx++) this.cells[cy * this.cols + cx]!.push(door);
      }
    }
  }

  /** Doors that may lie within `reach` of (x, y): a superset, for the caller's exact test. Not to be modified. */
  near(x: number, y: number): readonly MapDoor[] {
    if (this.doors.length === 0) return NONE;
    return this.cells[this.row(y) * this.cols + this.col(x)]!;
  }

  private col(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor(x / CELL)));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor(y / CELL)));
  }
}

/** Whether the segment from (ax, ay) to (bx, by) touches the door's outline (crosses an edge or ends inside). */
export function segmentMeetsDoor(door: MapDoor, ax: number, ay: number, bx: number, by: number): boolean {
  if (Math.max(ax, bx) < door.minX || Math.min(ax, bx) > door.maxX || Math.max(ay, by) < door.minY || Math.min(ay, by) > door.maxY) return false;
  if (distanceToOutline(door.outline, bx, by) === 0) return true;
  const o = door.outline;
  for (let i = 0, j = o.length - 1; i < o.length; j = i++) {
    if (segmentsCross(ax, ay, bx, by, o[j]!.x, o[j]!.y, o[i]!.x, o[i]!.y)) return true;
  }
  return false;
}

/** Whether two segments share a point (touching counts). */
function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = cross(cx, cy, dx, dy, ax, ay);
  const d2 = cross(cx, cy, dx, dy, bx, by);
  const d3 = cross(ax, ay, bx, by, cx, cy);
  const d4 = cross(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && within(cx, cy, dx, dy, ax, ay)) || (d2 === 0 && within(cx, cy, dx, dy, bx, by))
    || (d3 === 0 && within(ax, ay, bx, by, cx, cy)) || (d4 === 0 && within(ax, ay, bx, by, dx, dy));
}

/** The z of (b - a) x (p - a): which side of the line through a and b the point p is on. */
function cross(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Whether p, on the line through a and b, lies within their box. */
function within(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
}
