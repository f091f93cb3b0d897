import { Circle, Transform, testOverlap, type World } from "planck";
import { CHARACTER_RADIUS } from "../../shared/gameRules.js";
import { CellHeap } from "./cellHeap.js";
import { buildMapWorld, PATH_BLOCKERS } from "./mapWorld.js";
import type { StealthMap } from "./tiledMap.js";
import { nonNegative, positive } from "../../shared/validation/rangeChecks.js";

/** A point in world meters. */
export interface Waypoint {
  x: number;
  y: number;
}

export interface NavGridOptions {
  /** Cell size, meters. Default 0.5. */
  cellSize?: number;
  /** Radius of the agents that walk the grid, meters: a cell is free when a circle this size at its centre touches nothing solid. Default `CHARACTER_RADIUS`. */
  clearance?: number;
  /** Collision categories that block walking (walls and glass). Sensors never block. */
  solidMask: number;
}

const SQRT2 = Math.SQRT2;

/**
 * A walkability grid baked from the static fixtures of a planck world, with A* path finding and
 * string-pulled paths, for guards that must walk around walls to a last known position.
 *
 * Cells are tested exactly (planck's shape overlap against a circle of the agents' clearance), so a path
 * that stays on free cells keeps the agent off the walls. Paths are smoothed by dropping every waypoint
 * the previous kept one can walk to in a straight line over free cells.
 */
export class NavGrid {
  readonly cols: number;
  readonly rows: number;
  readonly cellSize: number;
  readonly originX: number;
  readonly originY: number;
  /** 1 = blocked. */
  private readonly blocked: Uint8Array;
  // A* scratch, reused across searches (paths are computed now and then, not every tick, but a busy room
  // with many guards should not churn the heap).
  private readonly gScore: Float64Array;
  private readonly parent: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private search = 0;
  private readonly open = new CellHeap();
  /** Cells of the path being built, goal first (reused by every search). */
  private cells = new Int32Array(256);
  /** Connected regions of free cells (see {@link reachable}), labelled on first use. */
  private regionOf: Int32Array | undefined;

  /**
   * The grid characters walk on a whole map, walls and glass blocking, in `world` (else the map's own,
   * built here), `clearance` a character's radius unless given. Every walker of a map bakes its grid here.
   */
  static ofMap(map: StealthMap, options: { world?: World; clearance?: number } = {}): NavGrid {
    const world = options.world ?? buildMapWorld(map).world;
    return new NavGrid(world, { x: 0, y: 0, width: map.width, height: map.height }, { solidMask: PATH_BLOCKERS, clearance: options.clearance });
  }

  /** Bakes the grid over `bounds` (meters) from the static, non-sensor fixtures in `solidMask`. */
  constructor(world: World, bounds: { x: number; y: number; width: number; height: number }, options: NavGridOptions) {
    const cell = options.cellSize ?? 0.5;
    const clearance = options.clearance ?? CHARACTER_RADIUS;
    positive("NavGridOptions.cellSize", cell, "meters");
    nonNegative("NavGridOptions.clearance", clearance, "meters");
    this.cellSize = cell;
    this.originX = bounds.x;
    this.originY = bounds.y;
    this.cols = Math.max(1, Math.ceil(bounds.width / cell));
    this.rows = Math.max(1, Math.ceil(bounds.height / cell));
    const n = this.cols * this.rows;
    this.blocked = new Uint8Array(n);
    this.gScore = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);

    const probe = new Circle(Math.max(clearance, 1e-3));
    const at = new Transform();
    for (let cy = 0; cy < this.rows; cy++) {
      for (let cx = 0; cx < this.cols; cx++) {
        const x = this.originX + (cx + 0.5) * cell;
        const y = this.originY + (cy + 0.5) * cell;
        at.p.x = x;
        at.p.y = y;
        let hit = false;
        world.queryAABB({ lowerBound: { x: x - clearance, y: y - clearance }, upperBound: { x: x + clearance, y: y + clearance } }, (f) => {
          if (f.isSensor() || (f.getFilterCategoryBits() & options.solidMask) === 0 || !f.getBody().isStatic()) return true;
          if (testOverlap(probe, 0, f.getShape(), 0, at, f.getBody().getTransform())) {
            hit = true;
            return false;
          }
          return true;
        });
        if (hit) this.blocked[cy * this.cols + cx] = 1;
      }
    }
  }

  /** Whether the cell holding (x, y) is walkable; outside the grid is not. */
  isFree(x: number, y: number): boolean {
    const c = this.cellOf(x, y);
    return c >= 0 && this.blocked[c] === 0;
  }

  /**
   * Whether {@link findPath} would find a path from (fromX, fromY) to (toX, toY), meters, without searching:
   * the free cells are labelled by connected region once, and the answer is whether the two ends (moved to
   * their nearest free cells, as `findPath` moves them) share a region. Regions are 4-connected: a
   * diagonal step needs both orthogonal cells free, so it never joins cells a 4-connected fill does not.
   */
  reachable(fromX: number, fromY: number, toX: number, toY: number): boolean {
    const start = this.nearestFree(this.clampedCellOf(fromX, fromY));
    const goal = this.nearestFree(this.clampedCellOf(toX, toY));
    if (start < 0 || goal < 0) return false;
    const regions = this.regions();
    return regions[start] === regions[goal];
  }

  /** Each free cell's region label (1, 2, ...), 0 for blocked cells; computed on first use. */
  private regions(): Int32Array {
    if (this.regionOf !== undefined) return this.regionOf;
    const cols = this.cols;
    const n = cols * this.rows;
    const region = new Int32Array(n);
    const stack = new Int32Array(n);
    let label = 0;
    for (let seed = 0; seed < n; seed++) {
      if (this.blocked[seed] !== 0 || region[seed] !== 0) continue;
      region[seed] = ++label;
      let top = 0;
      stack[top++] = seed;
      while (top > 0) {
        const c = stack[--top]!;
        const cx = c % cols;
        const cy = (c - cx) / cols;
        for (let k = 0; k < 4; k++) {
          const nx = cx + (k === 0 ? 1 : k === 1 ? -1 : 0);
          const ny = cy + (k === 2 ? 1 : k === 3 ? -1 : 0);
          if (!this.freeCell(nx, ny)) continue;
          const m = ny * cols + nx;
          if (region[m] !== 0) continue;
          region[m] = label;
          stack[top++] = m;
        }
      }
    }
    this.regionOf = region;
    return region;
  }

  /**
   * A walkable path from (fromX, fromY) toward (toX, toY), meters, written into `out` as waypoints after
   * the start (the last one is the goal itself, or the centre of the nearest free cell when the goal is
   * inside a wall). Returns false, with `out` empty, when no path exists. A start inside a wall (pushed
   * there by a collision) starts from the nearest free cell.
   */
  findPath(fromX: number, fromY: number, toX: number, toY: number, out: Waypoint[]): boolean {
    out.length = 0;
    const start = this.nearestFree(this.clampedCellOf(fromX, fromY));
    const goalCell = this.clampedCellOf(toX, toY);
    const goal = this.nearestFree(goalCell);
    if (start < 0 || goal < 0) return false;
    const exactGoal = goal === goalCell && this.isFree(toX, toY);
    if (start === goal) {
      if (exactGoal) out.push({ x: toX, y: toY });
      else out.push(this.centre(goal));
      return true;
    }
    if (!this.astar(start, goal)) return false;

    // Walk back the parents into cell centres, then string-pull from the real start. Guards re-plan often,
    // so the walk reuses one buffer and only the kept waypoints become objects.
    let count = 0;
    for (let c = goal; c !== start; c = this.parent[c]!) {
      if (count === this.cells.length) {
        const grown = new Int32Array(this.cells.length * 2);
        grown.set(this.cells);
        this.cells = grown;
      }
      this.cells[count++] = c;
    }
    const cells = this.cells; // goal first: index count - 1 is the cell after the start
    let fromPx = fromX;
    let fromPy = fromY;
    if (!this.isFree(fromX, fromY)) {
      const s = this.centre(start);
      fromPx = s.x;
      fromPy = s.y;
      out.push(s);
    }
    const goalX = exactGoal ? toX : this.centreX(goal);
    const goalY = exactGoal ? toY : this.centreY(goal);
    // Path position k (0 = the cell after the start) is cells[count - 1 - k].
    let i = 0;
    while (i < count) {
      // Furthest cell (or the goal point) reachable in a straight line from the last kept point.
      let j = count - 1;
      let tx = goalX;
      let ty = goalY;
      while (j > i) {
        if (this.walkable(fromPx, fromPy, tx, ty)) break;
        j--;
        const c = cells[count - 1 - j]!;
        tx = this.centreX(c);
        ty = this.centreY(c);
      }
      out.push({ x: tx, y: ty });
      fromPx = tx;
      fromPy = ty;
      i = j + 1;
    }
    return true;
  }

  /**
   * Whether a straight walk from a to b (meters) crosses only free cells: every cell the segment touches
   * (a supercover traversal), so a smoothed path never clips a blocked corner.
   */
  walkable(ax: number, ay: number, bx: number, by: number): boolean {
    const cell = this.cellSize;
    let cx = Math.floor((ax - this.originX) / cell);
    let cy = Math.floor((ay - this.originY) / cell);
    const ex = Math.floor((bx - this.originX) / cell);
    const ey = Math.floor((by - this.originY) / cell);
    const dx = bx - ax;
    const dy = by - ay;
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const stepY = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    const tDeltaX = stepX !== 0 ? cell / Math.abs(dx) : Infinity;
    const tDeltaY = stepY !== 0 ? cell / Math.abs(dy) : Infinity;
    const nextX = this.originX + (stepX > 0 ? cx + 1 : cx) * cell;
    const nextY = this.originY + (stepY > 0 ? cy + 1 : cy) * cell;
    let tMaxX = stepX !== 0 ? (nextX - ax) / dx : Infinity;
    let tMaxY = stepY !== 0 ? (nextY - ay) / dy : Infinity;
    for (let guard = this.cols + this.rows + 4; guard > 0; guard--) {
      if (!this.freeCell(cx, cy)) return false;
      if (cx === ex && cy === ey) return true;
      if (Math.abs(tMaxX - tMaxY) < 1e-12) {
        // Through a corner exactly: both neighbours must be free too.
        if (!this.freeCell(cx + stepX, cy) || !this.freeCell(cx, cy + stepY)) return false;
        cx += stepX;
        cy += stepY;
        tMaxX += tDeltaX;
        tMaxY += tDeltaY;
      } else if (tMaxX < tMaxY) {
        cx += stepX;
        tMaxX += tDeltaX;
      } else {
        cy += stepY;
        tMaxY += tDeltaY;
      }
    }
    return false;
  }

  /** Centre of a cell index, meters. */
  private centreX(c: number): number {
    return this.originX + ((c % this.cols) + 0.5) * this.cellSize;
  }

  private centreY(c: number): number {
    const cx = c % this.cols;
    return this.originY + ((c - cx) / this.cols + 0.5) * this.cellSize;
  }

  centre(c: number): Waypoint {
    const cx = c % this.cols;
    const cy = (c - cx) / this.cols;
    return { x: this.originX + (cx + 0.5) * this.cellSize, y: this.originY + (cy + 0.5) * this.cellSize };
  }

  private freeCell(cx: number, cy: number): boolean {
    return cx >= 0 && cy >= 0 && cx < this.cols && cy < this.rows && this.blocked[cy * this.cols + cx] === 0;
  }

  private cellOf(x: number, y: number): number {
    const cx = Math.floor((x - this.originX) / this.cellSize);
    const cy = Math.floor((y - this.originY) / this.cellSize);
    if (!(cx >= 0 && cy >= 0 && cx < this.cols && cy < this.rows)) return -1;
    return cy * this.cols + cx;
  }

  private clampedCellOf(x: number, y: number): number {
    const cx = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.originX) / this.cellSize)));
    const cy = Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.originY) / this.cellSize)));
    return cy * this.cols + cx;
  }

  /** The free cell nearest to `c` by rings of growing Chebyshev radius (c itself when free); -1 if none. */
  private nearestFree(c: number): number {
    if (this.blocked[c] === 0) return c;
    const cx0 = c % this.cols;
    const cy0 = (c - cx0) / this.cols;
    const maxR = Math.max(this.cols, this.rows);
    for (let r = 1; r < maxR; r++) {
      let best = -1;
      let bestD = Infinity;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
          const x = cx0 + dx;
          const y = cy0 + dy;
          if (!this.freeCell(x, y)) continue;
          const d = dx * dx + dy * dy;
          if (d < bestD) {
            bestD = d;
            best = y * this.cols + x;
          }
        }
      }
      if (best >= 0) return best;
    }
    return -1;
  }

  /** 8-connected A* with the octile heuristic; diagonal moves only when both side cells are free. */
  private astar(start: number, goal: number): boolean {
    const stamp = ++this.search;
    const cols = this.cols;
    const gx = goal % cols;
    const gy = (goal - gx) / cols;
    const h = (c: number): number => {
      const x = c % cols;
      const dx = Math.abs(x - gx);
      const dy = Math.abs((c - x) / cols - gy);
      return (dx + dy + (SQRT2 - 2) * Math.min(dx, dy)) * this.cellSize;
    };
    this.open.clear();
    this.stamp[start] = stamp;
    this.gScore[start] = 0;
    this.parent[start] = -1;
    this.open.push(start, h(start));
    while (this.open.size > 0) {
      const c = this.open.pop();
      if (c === goal) return true;
      if (this.closed[c] === stamp) continue;
      this.closed[c] = stamp;
      const cx = c % cols;
      const cy = (c - cx) / cols;
      const g = this.gScore[c]!;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const nx = cx + dx;
          const ny = cy + dy;
          if (!this.freeCell(nx, ny)) continue;
          if (dx !== 0 && dy !== 0 && (!this.freeCell(cx + dx, cy) || !this.freeCell(cx, cy + dy))) continue;
          const n = ny * cols + nx;
          if (this.closed[n] === stamp) continue;
          const ng = g + (dx !== 0 && dy !== 0 ? SQRT2 : 1) * this.cellSize;
          if (this.stamp[n] === stamp && ng >= this.gScore[n]!) continue;
          this.stamp[n] = stamp;
          this.gScore[n] = ng;
          this.parent[n] = c;
          this.open.push(n, ng + h(n));
        }
      }
    }
    return false;
  }
}
