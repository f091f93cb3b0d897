import type { PackedOccluders } from "../occluders/packedOccluders.js";
import { NEIGHBOURS, type SoundGrid } from "./soundGrid.js";
import type { SoundSearch } from "./soundSearch.js";

/**
 * A cell path pulled taut like a string round the corners its cells bend at: what the grid search's answer
 * is made into. A path from cell centre to cell centre bends up to half a cell inside each corner; from each
 * point the string goes to the farthest later point in clear line (a ray that passes smoke), so every leg
 * is a checked straight line and the way stays a real one, never shorter than the shortest.
 * @internal
 */
export class TautWay {
  /** Direction of the way's first leg from the listener, a unit vector, after {@link pull}. */
  dirX = 1;
  dirY = 0;
  /** The way, reused: the listener, cell centres down the search, the noise. */
  private wayX = new Float64Array(256);
  private wayY = new Float64Array(256);

  /**
   * Meters of the way from the listener at (x, y), through its cell (c, r) and down the last search's cells
   * to the noise's cell (sc, sr) and the noise at (nx, ny), pulled taut; Infinity if a leg was stopped
   * (then the cell path's own length stands). Sets {@link dirX}, {@link dirY} along its first leg (toward
   * the listener's way down the search when a leg was stopped).
   */
  pull(packed: PackedOccluders, grid: SoundGrid, search: SoundSearch, sc: number, sr: number, c: number, r: number, x: number, y: number, nx: number, ny: number): number {
    const cs = grid.cellSize;
    let n = 0;
    n = this.pushWay(n, x, y);
    n = this.pushWay(n, grid.originX + (c + 0.5) * cs, grid.originY + (r + 0.5) * cs);
    // Steepest descent to the source cell (g falls at every step, so it ends).
    while (c !== sc || r !== sr) {
      let next = search.at(c, r);
      let mc = c;
      let mr = r;
      for (const [dc, dr] of NEIGHBOURS) {
        const g = search.at(c + dc, r + dr);
        if (g < next) {
          next = g;
          mc = c + dc;
          mr = r + dr;
        }
      }
      if (mc === c && mr === r) break;
      c = mc;
      r = mr;
      n = this.pushWay(n, grid.originX + (c + 0.5) * cs, grid.originY + (r + 0.5) * cs);
    }
    n = this.pushWay(n, nx, ny);
    const wx = this.wayX;
    const wy = this.wayY;
    // Until the first leg is known (a stopped leg leaves it so): toward the listener's way down the search.
    const k = Math.min(2, n - 1);
    const first = Math.hypot(wx[k]! - x, wy[k]! - y);
    this.dirX = first > 0 ? (wx[k]! - x) / first : 1;
    this.dirY = first > 0 ? (wy[k]! - y) / first : 0;
    let length = 0;
    let from = 0;
    while (from < n - 1) {
      const fx = wx[from]!;
      const fy = wy[from]!;
      if (packed.firstBlocker(fx, fy, wx[from + 1]! - fx, wy[from + 1]! - fy, 1, true) >= 0) return Infinity;
      // The farthest point in clear line: galloping out, then halving back. The way is seen from a point
      // up to a corner and not past it, so this finds it in a few rays; and every leg taken is a checked
      // one, so the path stays real even where that does not hold.
      let to = from + 1;
      let stop = n;
      for (let step = 1; to + step < n; step *= 2) {
        const k = to + step;
        if (packed.firstBlocker(fx, fy, wx[k]! - fx, wy[k]! - fy, 1, true) >= 0) {
          stop = k;
          break;
        }
        to = k;
      }
      while (stop - to > 1) {
        const k = (to + stop) >> 1;
        if (packed.firstBlocker(fx, fy, wx[k]! - fx, wy[k]! - fy, 1, true) >= 0) stop = k;
        else to = k;
      }
      const leg = Math.hypot(wx[to]! - wx[from]!, wy[to]! - wy[from]!);
      if (from === 0 && leg > 0) {
        this.dirX = (wx[to]! - x) / leg;
        this.dirY = (wy[to]! - y) / leg;
      }
      length += leg;
      from = to;
    }
    return length;
  }

  /** Appends a point to the way, growing it when full; returns the new count. */
  private pushWay(n: number, px: number, py: number): number {
    if (n === this.wayX.length) {
      const gx = new Float64Array(2 * n);
      gx.set(this.wayX);
      const gy = new Float64Array(2 * n);
      gy.set(this.wayY);
      this.wayX = gx;
      this.wayY = gy;
    }
    this.wayX[n] = px;
    this.wayY[n] = py;
    return n + 1;
  }
}
