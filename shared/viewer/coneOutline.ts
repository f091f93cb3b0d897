import type { MapDoor, MapGeometry } from "./tiledGeometry.js";

/** What changes in a level's sight, as `LevelSight` keeps it: doors that open and shut, and clouds. */
export interface ConeBlockers {
  readonly doors: readonly MapDoor[];
  isOpen(door: number): boolean;
  /** Clouds blocking sight now: x, y, radius triples, meters. */
  readonly discs: readonly number[];
}

/** Largest angle between two neighbouring rays of an outline, radians (1.5 degrees). */
const RAY_STEP = (1.5 * Math.PI) / 180;
/** Rays either side of a wall corner, radians: they graze it instead of hitting it. */
const CORNER_NUDGE = 1e-4;
const NO_DISCS: readonly number[] = [];

/**
 * The part of an observer's cone that walls leave open, as the outline to fill: rays from the eye at
 * least every 1.5 degrees, plus rays grazing every wall corner and cloud edge inside the cone so edges stay
 * crisp, each stopping at the first wall, shut door or dense cloud (glass does not stop it, as for sight;
 * an eye inside a cloud sees nothing). A picture of what the cone reaches, not the engine's exact test:
 * that one also counts each target's body.
 */
export class ConeOutline {
  /**
   * Opaque edges, x1, y1, x2, y2 per edge, meters: wall outlines, the borders of solid tiles, then door
   * outlines (which stop rays only while their door is shut).
   */
  private readonly edges: Float64Array;
  /** Per edge: the door it outlines (an index of `blockers.doors`), or -1 for a wall. */
  private readonly edgeDoor: Int32Array;
  /** Scratch: indices of the edges near the observer being outlined, and the ray angles. */
  private near: Int32Array;
  private nearCount = 0;
  private readonly angles: number[] = [];

  constructor(map: MapGeometry, private readonly blockers?: ConeBlockers) {
    const e: number[] = [];
    for (const wall of map.walls) {
      for (let i = 0; i < wall.length; i++) {
        const a = wall[i]!;
        const b = wall[(i + 1) % wall.length]!;
        e.push(a.x, a.y, b.x, b.y);
      }
    }
    // Only borders between a solid tile and an open one (or the map's edge) can stop a ray first.
    const solid = (c: number, r: number) => c >= 0 && r >= 0 && c < map.columns && r < map.rows && map.solidTiles[r * map.columns + c] === 1;
    const tw = map.tileWidth;
    const th = map.tileHeight;
    for (let r = 0; r < map.rows; r++) {
      for (let c = 0; c < map.columns; c++) {
        if (!solid(c, r)) continue;
        const x = c * tw;
        const y = r * th;
        if (!solid(c, r - 1)) e.push(x, y, x + tw, y);
        if (!solid(c, r + 1)) e.push(x, y + th, x + tw, y + th);
        if (!solid(c - 1, r)) e.push(x, y, x, y + th);
        if (!solid(c + 1, r)) e.push(x + tw, y, x + tw, y + th);
      }
    }
    const walls = e.length / 4;
    const doorOf: number[] = [];
    blockers?.doors.forEach((door, d) => {
      for (let i = 0; i < door.outline.length; i++) {
        const a = door.outline[i]!;
        const b = door.outline[(i + 1) % door.outline.length]!;
        e.push(a.x, a.y, b.x, b.y);
        doorOf.push(d);
      }
    });
    this.edges = Float64Array.from(e);
    this.edgeDoor = new Int32Array(e.length / 4).fill(-1);
    this.edgeDoor.set(doorOf, walls);
    this.near = new Int32Array(this.edges.length / 4);
  }

  /**
   * Writes the outline of the open part of a cone into `out` as x, y pairs (meters), in angle order; for a
   * cone narrower than a full turn the eye comes first. Returns the number of points.
   *
   * @param facing radians; @param fov full cone angle, radians (>= 2 PI: all around); @param range meters
   */
  outline(x: number, y: number, facing: number, fov: number, range: number, out: number[]): number {
    this.collectNearEdges(x, y, range);
    const full = fov >= 2 * Math.PI;
    const start = full ? facing - Math.PI : facing - fov / 2;
    const span = full ? 2 * Math.PI : fov;
    const angles = this.angles;
    angles.length = 0;
    const steps = Math.max(1, Math.ceil(span / RAY_STEP));
    for (let i = 0; i <= steps; i++) angles.push(start + (span * i) / steps);
    const edges = this.edges;
    for (let k = 0; k < this.nearCount; k++) {
      const j = this.near[k]! * 4;
      for (let p = 0; p < 4; p += 2) {
        let offset = Math.atan2(edges[j + p + 1]! - y, edges[j + p]! - x) - start;
        offset -= 2 * Math.PI * Math.floor(offset / (2 * Math.PI));
        if (offset - CORNER_NUDGE > 0 && offset + CORNER_NUDGE < span) angles.push(start + offset - CORNER_NUDGE, start + offset + CORNER_NUDGE);
      }
    }
    const discs = this.blockers?.discs ?? NO_DISCS;
    for (let i = 0; i < discs.length; i += 3) {
      const dx = discs[i]! - x;
      const dy = discs[i + 1]! - y;
      const d = Math.hypot(dx, dy);
      const r = discs[i + 2]!;
      if (d <= r || d - r > range) continue;
      // The two tangents: rays either side of each one graze the cloud's rim.
      const half = Math.asin(r / d);
      for (let side = -1; side <= 1; side += 2) {
        let offset = Math.atan2(dy, dx) + side * half - start;
        offset -= 2 * Math.PI * Math.floor(offset / (2 * Math.PI));
        if (offset - CORNER_NUDGE > 0 && offset + CORNER_NUDGE < span) angles.push(start + offset - CORNER_NUDGE, start + offset + CORNER_NUDGE);
      }
    }
    angles.sort((a, b) => a - b);
    out.length = 0;
    if (!full) out.push(x, y);
    for (const a of angles) {
      const dx = Math.cos(a);
      const dy = Math.sin(a);
      const t = this.firstHit(x, y, dx, dy, range);
      out.push(x + dx * t, y + dy * t);
    }
    return out.length / 2;
  }

  /** The edges whose box meets the square around the eye that holds the whole range (open doors left out). */
  private collectNearEdges(x: number, y: number, range: number): void {
    const e = this.edges;
    const blockers = this.blockers;
    let n = 0;
    for (let i = 0, k = 0; i < e.length; i += 4, k++) {
      const door = this.edgeDoor[k]!;
      if (door >= 0 && blockers!.isOpen(door)) continue;
      if (Math.max(e[i]!, e[i + 2]!) < x - range || Math.min(e[i]!, e[i + 2]!) > x + range) continue;
      if (Math.max(e[i + 1]!, e[i + 3]!) < y - range || Math.min(e[i + 1]!, e[i + 3]!) > y + range) continue;
      this.near[n++] = k;
    }
    this.nearCount = n;
  }

  /** Distance along the unit ray (dx, dy) from (x, y) to the first near edge or cloud, at most `range`. */
  private firstHit(x: number, y: number, dx: number, dy: number, range: number): number {
    const e = this.edges;
    let best = range;
    const discs = this.blockers?.discs ?? NO_DISCS;
    for (let i = 0; i < discs.length; i += 3) {
      const fx = x - discs[i]!;
      const fy = y - discs[i + 1]!;
      const r = discs[i + 2]!;
      const c = fx * fx + fy * fy - r * r;
      if (c <= 0) return 0; // inside a cloud: nothing out of it is seen
      const b = fx * dx + fy * dy;
      const disc = b * b - c;
      if (disc < 0) continue;
      const t = -b - Math.sqrt(disc);
      if (t >= 0 && t < best) best = t;
    }
    for (let k = 0; k < this.nearCount; k++) {
      const j = this.near[k]! * 4;
      const ex = e[j + 2]! - e[j]!;
      const ey = e[j + 3]! - e[j + 1]!;
      const denom = dx * ey - dy * ex;
      if (denom === 0) continue; // parallel: a grazing ray passes
      const wx = e[j]! - x;
      const wy = e[j + 1]! - y;
      const t = (wx * ey - wy * ex) / denom;
      const u = (wx * dy - wy * dx) / denom;
      if (t >= 0 && t < best && u >= 0 && u <= 1) best = t;
    }
    return best;
  }
}
