/**
 * Hearing: whether, how loud and from which way a listener hears a noise, with sound that travels
 * through open space around what stops it (walls, pillars, shut doors) rather than through it.
 */
import { World } from "planck";
import { Occluders } from "../occluders/occluders.js";
import { EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import { fail, finite, nonEmptyString, object, positive } from "../../shared/validation/rangeChecks.js";
import { SoundSearch } from "./soundSearch.js";
import { SoundGrid } from "./soundGrid.js";
import { PieceDetour, UNDECIDED } from "./pieceDetour.js";

/** A noise: where, how far it carries, what it was and who made it. */
export interface Noise {
  /** Where it was made, meters. */
  x: number;
  y: number;
  /**
   * How far it carries, meters of path through open space: a listener whose way to it around walls is
   * shorter hears it, at a level falling linearly from 1 at the noise to 0 at this distance.
   */
  loudness: number;
  /** What it was ("footstep", "thud", ...): passed on to listeners, never interpreted. */
  kind: string;
  /** The entity that made it. */
  emitter: string;
}

/** What a listener hears of a noise ({@link Hearing.hears} fills one in). */
export interface Earshot {
  /**
   * Meters the sound travelled to the listener: the straight line when nothing stops sound along it;
   * otherwise a path around what does, never shorter than the shortest one (a few percent longer; see
   * docs/hearing.md).
   */
  distance: number;
  /** How loud it still is at the listener, in (0, 1]: 1 - distance / loudness. */
  level: number;
  /**
   * Unit vector from the listener toward where the sound comes from: the noise itself when the straight
   * line is clear, otherwise the way its path reaches the listener (a doorway, a corridor's mouth).
   */
  dirX: number;
  dirY: number;
  /** Whether the straight line was clear (the listener could place the noise exactly). */
  direct: boolean;
}

/** Options of a {@link Hearing}; every field optional. */
export interface HearingOptions {
  /**
   * Side of the cells sound is propagated on, meters. A gap narrower than about two cells may be shut
   * to sound; smaller cells are more exact and cost more per search. @default 0.5
   */
  cellSize?: number;
  /** For a planck `World`: collision category bits whose static fixtures stop sound. @default 0xFFFF */
  opaqueMask?: number;
}

/** Defaults of {@link HearingOptions}. */
export const DEFAULT_HEARING_OPTIONS = Object.freeze({ cellSize: 0.5 });

const NEIGHBOURS: readonly (readonly [number, number])[] = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, 1], [1, -1], [-1, -1]];

/**
 * Who hears what, through a level's geometry. A noise carries `loudness` meters of path: in the open
 * that is the straight line; behind a wall it is the way around, through the doorway, so a wall between
 * two rooms muffles what the straight line would let through. Smoke does not stop sound; a shut door
 * does, and an open one lets it by from the next query.
 *
 * How: when the straight line from the listener to the noise is clear (one ray), the distance is that
 * line, exactly. Otherwise the shortest way round the few pieces in the way, over their corners, every leg
 * checked: exact (see `PieceDetour`). In a maze, a bounded A* over cells that no occluder reaches into,
 * from the noise's cell to the listener's, gives the way around, pulled taut with rays. Every distance it
 * reports is a real path, never shorter than the true shortest one: it may deny a noise at the very edge
 * of earshot, it never grants one that is out of it.
 *
 * Works on the `Occluders` of `sightline/occluders` (following doors and walls as they change) or on the
 * static fixtures of a planck `World` (a snapshot, like `Occluders.fromWorld`).
 *
 * ```ts
 * const hearing = new Hearing(occluders);
 * const ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
 * if (hearing.hears({ x: 4, y: 2, loudness: 12, kind: "footstep", emitter: "p1" }, guard.x, guard.y, ear)) {
 *   ear.level; // 0.4: loud enough to turn a head
 * }
 * ```
 */
export class Hearing {
  private readonly occluders: Occluders;
  private readonly cellSize: number;
  private grid: SoundGrid;
  private search: SoundSearch;
  private settledBefore = 0;
  /** Noises that needed the way around (the straight line was stopped), since construction. */
  private detours = 0;
  /** Of those, the ones settled by the way round the few pieces in the way (no grid search). */
  private roundPieces = 0;
  private readonly pieceDetour = new PieceDetour();
  /** The way of a bent sound, reused: the listener, cell centres down the search, the noise. */
  private wayX = new Float64Array(256);
  private wayY = new Float64Array(256);

  /** @throws RangeError naming the field for a bad level or option */
  constructor(level: Occluders | World, options: HearingOptions = {}) {
    object("HearingOptions", options);
    this.cellSize = options.cellSize === undefined ? DEFAULT_HEARING_OPTIONS.cellSize : positive("HearingOptions.cellSize", options.cellSize, "meters");
    if (level instanceof Occluders) {
      if (options.opaqueMask !== undefined) fail("HearingOptions.opaqueMask", "applies to a planck World only", options.opaqueMask);
      this.occluders = level;
    } else if (level instanceof World) {
      this.occluders = Occluders.fromWorld(level, { opaqueMask: options.opaqueMask ?? EVERY_CATEGORY });
    } else fail("Hearing level", "must be an Occluders (from sightline/occluders) or a planck World", level);
    this.grid = new SoundGrid(this.occluders, this.cellSize);
    this.search = new SoundSearch(this.grid);
  }

  /**
   * Whether a listener at (x, y), meters, hears `noise`; if so, `out` says how loud and from where.
   * @throws RangeError naming the field of a malformed noise or position
   */
  hears(noise: Noise, x: number, y: number, out: Earshot): boolean {
    checkNoise(noise);
    finite("Hearing.hears x", x, "meters");
    finite("Hearing.hears y", y, "meters");
    return this.listen(noise.x, noise.y, noise.loudness, x, y, out);
  }

  /**
   * Meters sound travels from (ax, ay) to (bx, by) around what stops it, or Infinity if that is more than
   * `maxDistance` (or no way exists).
   */
  distance(ax: number, ay: number, bx: number, by: number, maxDistance: number): number {
    positive("Hearing.distance maxDistance", maxDistance, "meters");
    const out: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
    // Within: a distance equal to maxDistance still counts here.
    return this.listen(ax, ay, maxDistance * (1 + 1e-12) + 1e-12, bx, by, out) ? out.distance : Infinity;
  }

  /**
   * Since construction: queries that needed the way around (the straight line was stopped), those of
   * them settled around the few pieces in the way, and the cells the others' grid searches settled.
   */
  get counts(): { detours: number; roundPieces: number; cellsSearched: number } {
    return { detours: this.detours, roundPieces: this.roundPieces, cellsSearched: this.settledBefore + this.search.settled };
  }

  /** Stops following the occluders. */
  dispose(): void {
    this.grid.dispose();
  }

  /** The unchecked query, for callers that checked the noise once for many listeners. @internal */
  listen(nx: number, ny: number, loudness: number, x: number, y: number, out: Earshot): boolean {
    const dx = nx - x;
    const dy = ny - y;
    const straight = Math.sqrt(dx * dx + dy * dy);
    if (straight >= loudness) return false;
    const packed = this.occluders.packed;
    const blocker = straight === 0 ? -1 : packed.firstBlocker(x, y, dx, dy, 1, true);
    if (blocker < 0) {
      out.distance = straight;
      out.level = 1 - straight / loudness;
      out.dirX = straight === 0 ? 1 : dx / straight;
      out.dirY = straight === 0 ? 0 : dy / straight;
      out.direct = true;
      return true;
    }
    this.detours++;
    // Most often a crate, a pillar or a wall or two are in the way: the way round them, worked out from
    // their corners, is exact for a few casts. A maze is left to the grid.
    const round = this.pieceDetour.around(packed, blocker, x, y, nx, ny, loudness);
    if (round !== UNDECIDED) {
      this.roundPieces++;
      if (!(round < loudness)) return false;
      out.distance = round;
      out.level = 1 - round / loudness;
      out.dirX = this.pieceDetour.dirX;
      out.dirY = this.pieceDetour.dirY;
      out.direct = false;
      return true;
    }
    if (this.grid.outgrown) this.rebuild();
    const grid = this.grid;
    // The noise's own cell when open (the step to its centre stays inside it), else a neighbour it reaches.
    const source = this.entry(nx, ny);
    if (source < 0) return false;
    const sc = source % 0x10000 - 0x8000;
    const sr = Math.floor(source / 0x10000) - 0x8000;
    const fromNoise = Math.hypot(nx - this.centreX(sc), ny - this.centreY(sr));
    // The listener's own cell when open, else the nearest neighbour in clear line of it.
    const target = this.entry(x, y);
    if (target < 0) return false;
    const tc = target % 0x10000 - 0x8000;
    const tr = Math.floor(target / 0x10000) - 0x8000;
    const toListener = Math.hypot(x - this.centreX(tc), y - this.centreY(tr));
    // Up to what pulling taut could win back (the steps' 2.7%, and about half a cell a corner).
    const bound = loudness * 1.1 + 1 - fromNoise - toListener;
    const search = this.search;
    const cellPath = bound > 0 ? search.find(sc, sr, tc, tr, bound) : Infinity;
    if (cellPath === Infinity) return false;
    // The cell path, pulled taut (a path through cell centres is up to about a cell long per corner).
    const total = Math.min(cellPath + fromNoise + toListener, this.taut(search, sc, sr, tc, tr, x, y, nx, ny, out));
    if (!(total < loudness)) return false;
    out.distance = total;
    out.level = 1 - total / loudness;
    out.direct = false;
    return true;
  }

  /**
   * The way from the listener at (x, y), through its cell (c, r) and down the search's cells to the
   * noise's cell (sc, sr) and the noise, pulled
   * taut: from each point, the farthest later point in clear line (a ray that passes smoke), like a string
   * around the corners the cells bend at. Every leg is a checked straight line, so it is a real path and
   * still never shorter than the shortest one; cell centres sit up to half a cell inside a corner, which
   * the string takes back. Returns its length (Infinity if a leg was stopped: then the cell path's own
   * length stands) and sets `out`'s direction along its first leg.
   */
  private taut(search: SoundSearch, sc: number, sr: number, c: number, r: number, x: number, y: number, nx: number, ny: number, out: Earshot): number {
    let n = 0;
    n = this.pushWay(n, x, y);
    n = this.pushWay(n, this.centreX(c), this.centreY(r));
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
      n = this.pushWay(n, this.centreX(c), this.centreY(r));
    }
    n = this.pushWay(n, nx, ny);
    const wx = this.wayX;
    const wy = this.wayY;
    // Until the first leg is known (a stopped leg leaves it so): toward the listener's way down the search.
    const k = Math.min(2, n - 1);
    const first = Math.hypot(wx[k]! - x, wy[k]! - y);
    out.dirX = first > 0 ? (wx[k]! - x) / first : 1;
    out.dirY = first > 0 ? (wy[k]! - y) / first : 0;
    const packed = this.occluders.packed;
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
        out.dirX = (wx[to]! - x) / leg;
        out.dirY = (wy[to]! - y) / leg;
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

  /** The open cell a point at (x, y) enters the cell paths through (its own, or a neighbour in clear line), encoded; -1 if none. */
  private entry(x: number, y: number): number {
    const grid = this.grid;
    const c0 = grid.column(x);
    const r0 = grid.row(y);
    if (grid.isOpen(c0, r0)) return encode(c0, r0);
    let best = -1;
    let bestD = Infinity;
    for (const [ddx, ddy] of NEIGHBOURS) {
      const c = c0 + ddx;
      const r = r0 + ddy;
      if (!grid.isOpen(c, r)) continue;
      const ox = this.centreX(c) - x;
      const oy = this.centreY(r) - y;
      const d = Math.hypot(ox, oy);
      if (d >= bestD || this.occluders.packed.firstBlocker(x, y, ox, oy, 1, true) >= 0) continue;
      bestD = d;
      best = encode(c, r);
    }
    return best;
  }

  private centreX(c: number): number {
    return this.grid.originX + (c + 0.5) * this.grid.cellSize;
  }

  private centreY(r: number): number {
    return this.grid.originY + (r + 0.5) * this.grid.cellSize;
  }

  /** A wall was added beyond the grid: cover the level again. */
  private rebuild(): void {
    this.settledBefore += this.search.settled;
    this.grid.dispose();
    this.grid = new SoundGrid(this.occluders, this.cellSize);
    this.search = new SoundSearch(this.grid);
  }
}

function encode(c: number, r: number): number {
  return (r + 0x8000) * 0x10000 + (c + 0x8000);
}

/** Longest loudness accepted, meters: a noise heard across a kilometre is a broadcast, not a sound. */
export const MAX_LOUDNESS = 1000;

/** Throws a RangeError naming the first bad field of a noise. */
export function checkNoise(noise: Noise): void {
  object("Noise", noise, "{ x, y, loudness, kind, emitter }");
  finite("Noise.x", noise.x, "meters");
  finite("Noise.y", noise.y, "meters");
  positive("Noise.loudness", noise.loudness, "meters");
  if (noise.loudness > MAX_LOUDNESS) fail("Noise.loudness", `must be at most ${MAX_LOUDNESS} meters`, noise.loudness);
  nonEmptyString("Noise.kind", noise.kind);
  nonEmptyString("Noise.emitter", noise.emitter);
}
