import { CLIP_DENOMINATOR, FovSector } from "./fovSector.js";
import type { FovGrid, FovOptions, RevealCallback } from "./types.js";
import { func, inRange, integer, object } from "../validation/rangeChecks.js";

/**
 * The four quadrants, each scanned in rows moving away from the origin. A tile at (depth, col) of
 * quadrant q is at x = ox + depth * ROW_X[q] + col * COL_X[q], y = oy + depth * ROW_Y[q] + col * COL_Y[q];
 * AXIS[q] is the direction of the quadrant's axis in radians (angle 0 = +x, growing toward +y), and
 * columns grow with the angle. North, east, south, west, in that order, so that the diagonal at
 * col = +depth of each quadrant is the diagonal at col = -depth of the next one.
 */
const ROW_X = [0, 1, 0, -1];
const ROW_Y = [-1, 0, 1, 0];
const COL_X = [1, 0, -1, 0];
const COL_Y = [0, 1, 0, -1];
const AXIS = [-Math.PI / 2, 0, Math.PI / 2, Math.PI];

const PREV_NONE = 0;
const PREV_WALL = 1;
const PREV_FLOOR = 2;

/**
 * Albert Ford's symmetric shadowcasting, allocation-free. Owns its scratch (row intervals as integer
 * slope fractions, the sector), so one instance must not be re-entered: {@link computeFov} takes care
 * of that. Most callers want {@link computeFov}; an instance of their own only saves its check.
 *
 * How it works: each quadrant is scanned row by row away from the origin. A row holds the intervals of
 * slopes (column / depth, from the origin's centre) still lit. Walls are modelled as diamonds inscribed
 * in their tile, so a wall at (depth, col) shades exactly the slopes (2col-1)/(2depth)..(2col+1)/(2depth);
 * a floor tile counts as seen only when its centre's slope lies in a lit interval (the symmetric test).
 * Slopes are kept as integer fractions, so every comparison is exact.
 */
export class SymmetricShadowcaster {
  /** Lit intervals of the row being scanned and of the next one: start num, start den, end num, end den. */
  private current = new Int32Array(64);
  private next = new Int32Array(64);
  private readonly sector = new FovSector();
  private readonly clip = new Int32Array(2);

  /** See {@link computeFov}. */
  compute(grid: FovGrid, originX: number, originY: number, radius: number, reveal: RevealCallback, options?: FovOptions): void {
    validate(grid, originX, originY, radius, reveal);
    const sector = this.sector;
    sector.set(options?.facing, options?.fov);
    const width = grid.width;
    const height = grid.height;
    const cells = grid.cells;
    const r2 = radius * radius;
    const maxDepth = Math.min(Math.floor(radius), Math.max(width, height));
    // At most depth + 1 disjoint intervals per row: every one but the last ends at a wall.
    if (this.current.length < 4 * (maxDepth + 2)) {
      this.current = new Int32Array(4 * (maxDepth + 2));
      this.next = new Int32Array(4 * (maxDepth + 2));
    }
    reveal(originX, originY);
    const restricted = sector.active;

    for (let q = 0; q < 4; q++) {
      if (!sector.clipQuadrant(AXIS[q]!, this.clip)) continue;
      const rx = ROW_X[q]!;
      const ry = ROW_Y[q]!;
      const cx = COL_X[q]!;
      const cy = COL_Y[q]!;
      // Columns of this quadrant that fall inside the grid: the others are off-grid walls.
      const colLo = cx !== 0 ? (cx > 0 ? -originX : originX - width + 1) : cy > 0 ? -originY : originY - height + 1;
      const colHi = cx !== 0 ? (cx > 0 ? width - 1 - originX : originX) : cy > 0 ? height - 1 - originY : originY;
      const colStep = cy * width + cx;
      let cur = this.current;
      let nxt = this.next;
      cur[0] = this.clip[0]!;
      cur[1] = CLIP_DENOMINATOR;
      cur[2] = this.clip[1]!;
      cur[3] = CLIP_DENOMINATOR;
      let count = 1;

      for (let depth = 1; depth <= maxDepth && count > 0; depth++) {
        const rowX = originX + depth * rx;
        const rowY = originY + depth * ry;
        // A row beyond the edge is all walls: nothing in it is revealed and no light passes.
        if (rowX < 0 || rowX >= width || rowY < 0 || rowY >= height) break;
        const rowIndex = rowY * width + rowX;
        const twoDepth = 2 * depth;
        const reach = discReach(r2 - depth * depth);
        const lastRow = depth === maxDepth;
        let nextCount = 0;

        for (let i = 0; i < count; i++) {
          let sn = cur[4 * i]!;
          let sd = cur[4 * i + 1]!;
          const en = cur[4 * i + 2]!;
          const ed = cur[4 * i + 3]!;
          // Tiles whose centre-line span meets [start, end]: round_ties_up(depth * start) to
          // round_ties_down(depth * end), in integers.
          const minCol = Math.floor((twoDepth * sn + sd) / (2 * sd));
          const maxCol = Math.ceil((twoDepth * en - ed) / (2 * ed));
          // Only tiles inside the disc are scanned. A tile beyond it can only shade tiles farther out
          // (a wall at (depth, c), c != 0, shades columns >= |c| of deeper rows), so the rows stay exact
          // within the disc if what lies beyond is taken as floor. Off-grid tiles inside it are walls.
          const lo = colLo > -reach ? colLo : -reach;
          const hi = colHi < reach ? colHi : reach;
          let prev = minCol < lo && lo === colLo ? PREV_WALL : PREV_NONE;
          const first = minCol < lo ? lo : minCol;
          const last = maxCol > hi ? hi : maxCol;
          // Floors count as seen when their centre's slope is in [start, end]: these columns (and every
          // column after a wall, since the start then moves to that floor's left edge).
          let symLo = -Math.floor((-depth * sn) / sd);
          const symHi = Math.floor((depth * en) / ed);
          let index = rowIndex + first * colStep;
          let x = rowX + first * cx;
          let y = rowY + first * cy;
          let col = first;
          // Runs of walls and runs of floors, each in a loop of its own: fewer branches per tile.
          while (col <= last) {
            if (cells !== undefined ? cells[index] !== 0 : grid.isOpaque(x, y)) {
              if (prev === PREV_FLOOR && !lastRow) nextCount = push(nxt, nextCount, sn, sd, 2 * col - 1, twoDepth);
              prev = PREV_WALL;
              do {
                // A wall is seen wherever the light reaches it. The diagonal at col = -depth is the
                // previous quadrant's col = +depth, revealed there.
                if (col !== -depth && (!restricted || sector.contains(x - originX, y - originY))) reveal(x, y);
                col++;
                index += colStep;
                x += cx;
                y += cy;
              } while (col <= last && (cells !== undefined ? cells[index] !== 0 : grid.isOpaque(x, y)));
            } else {
              if (prev === PREV_WALL) {
                sn = 2 * col - 1;
                sd = twoDepth;
                symLo = col;
              }
              prev = PREV_FLOOR;
              do {
                // A floor only if its centre is lit: this is what makes sight symmetric.
                if (col >= symLo && col <= symHi && col !== -depth && (!restricted || sector.contains(x - originX, y - originY))) reveal(x, y);
                col++;
                index += colStep;
                x += cx;
                y += cy;
              } while (col <= last && (cells !== undefined ? cells[index] === 0 : !grid.isOpaque(x, y)));
            }
          }
          if (last < maxCol && last === colHi && prev === PREV_FLOOR && !lastRow) {
            // The first off-grid column is a wall closing this run of floors.
            nextCount = push(nxt, nextCount, sn, sd, 2 * (last + 1) - 1, twoDepth);
          } else if (prev === PREV_FLOOR && !lastRow) {
            nextCount = push(nxt, nextCount, sn, sd, en, ed);
          }
        }
        const swap = cur;
        cur = nxt;
        nxt = swap;
        count = nextCount;
      }
    }
  }
}

/** The largest column c >= 0 with c * c <= room (room >= 0 for every row scanned). */
function discReach(room: number): number {
  let c = Math.floor(Math.sqrt(room));
  // Guard the square root's rounding at perfect squares.
  if (c * c > room) c--;
  else if ((c + 1) * (c + 1) <= room) c++;
  return c;
}

function push(out: Int32Array, count: number, sn: number, sd: number, en: number, ed: number): number {
  const at = 4 * count;
  out[at] = sn;
  out[at + 1] = sd;
  out[at + 2] = en;
  out[at + 3] = ed;
  return count + 1;
}

function validate(grid: FovGrid, originX: number, originY: number, radius: number, reveal: RevealCallback): void {
  object("computeFov grid", grid, "with width, height and isOpaque(x, y)");
  const width = integer("computeFov grid.width", grid.width, 1, Infinity, "tiles");
  const height = integer("computeFov grid.height", grid.height, 1, Infinity, "tiles");
  if (grid.cells === undefined) func("computeFov grid.isOpaque", grid.isOpaque, "(x, y) => boolean");
  else if (grid.cells.length !== width * height) {
    throw new RangeError(`computeFov: grid.cells must hold width * height = ${width * height} tiles (got ${grid.cells.length})`);
  }
  if (!Number.isInteger(originX) || !Number.isInteger(originY)) {
    throw new RangeError(`computeFov: the origin must be integer tile coordinates (got ${String(originX)}, ${String(originY)})`);
  }
  if (originX < 0 || originX >= width || originY < 0 || originY >= height) {
    throw new RangeError(`computeFov: the origin (${originX}, ${originY}) is outside the ${width} x ${height} grid`);
  }
  inRange("computeFov radius", radius, 0, Infinity, "tiles", "[]");
  func("computeFov reveal", reveal, "(x, y) => void");
}
