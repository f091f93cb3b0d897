/**
 * Hearing: whether, how loud and from which way a listener hears a noise, with sound that travels
 * through open space around what stops it (walls, pillars, shut doors) rather than through it.
 */
import { World } from "planck";
import { Occluders } from "../occluders/occluders.js";
import type { PackedOccluders } from "../occluders/packedOccluders.js";
import { checkOpaqueMask, EVERY_CATEGORY } from "../planck/fixtureOpacity.js";
import { fail, finite, inRange, knownKeys, nonEmptyString, object, positive } from "../../shared/validation/rangeChecks.js";
import { SoundSearch } from "./soundSearch.js";
import { NEIGHBOURS, SoundGrid } from "./soundGrid.js";
import { TautWay } from "./tautWay.js";
import { PieceDetour, UNDECIDED } from "./pieceDetour.js";
import { WayOut } from "./wayOut.js";

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
   * docs/hearing.md). A noise or listener inside a wall or pillar is heard by way of the nearest point of
   * its outline, the way counted from the end itself (see {@link Hearing}).
   */
  distance: number;
  /** How loud it still is at the listener, in (0, 1]: 1 - distance / loudness. */
  level: number;
  /**
   * Unit vector from the listener toward where the sound comes from: the noise itself when the straight
   * line is clear, otherwise the way its path reaches the listener (a doorway, a corridor's mouth). For a
   * listener inside a piece, the way from where it leaves the piece. A listener standing on the noise has
   * no way to point: (1, 0).
   */
  dirX: number;
  dirY: number;
  /**
   * Whether the straight line was clear (the listener could place the noise exactly); false whenever the
   * noise or the listener was inside a piece, whose outline the way then starts from.
   */
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

/** The fields of {@link HearingOptions}: any other is a typo, refused. */
const OPTION_FIELDS: readonly string[] = Object.keys({ cellSize: null, opaqueMask: null } satisfies Record<keyof HearingOptions, null>);

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
 * A noise or a listener inside a piece that stops sound (a body pressed into a wall, a noise made in a
 * pillar) does not hear or carry through it: its way starts at the nearest point of the piece's outline,
 * and is counted from the end itself, so a listener 1 cm inside a wall's face hears as one at the face
 * would, 1 cm further. The same for noise and listener, and the same rule as the audit's exact answer.
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
  private readonly tautWay = new TautWay();
  private readonly wayOut = new WayOut();
  /** The cell {@link entry} found. */
  private entryC = 0;
  private entryR = 0;

  /** @throws RangeError naming the field for a bad level, a bad option or an unknown one */
  constructor(level: Occluders | World, options: HearingOptions = {}) {
    object("HearingOptions", options);
    knownKeys("HearingOptions", options, OPTION_FIELDS);
    this.cellSize = options.cellSize === undefined ? DEFAULT_HEARING_OPTIONS.cellSize : positive("HearingOptions.cellSize", options.cellSize, "meters");
    if (level instanceof Occluders) {
      if (options.opaqueMask !== undefined) fail("HearingOptions.opaqueMask", "applies to a planck World only", options.opaqueMask);
      this.occluders = level;
    } else if (level instanceof World) {
      const opaqueMask = options.opaqueMask === undefined ? EVERY_CATEGORY : checkOpaqueMask("HearingOptions.opaqueMask", options.opaqueMask);
      this.occluders = Occluders.fromWorld(level, { opaqueMask });
    } else fail("Hearing level", "must be an Occluders (from sightline/occluders) or a planck World", level);
    this.grid = new SoundGrid(this.occluders, this.cellSize);
    this.search = new SoundSearch(this.grid);
  }

  /**
   * Whether a listener at (x, y), meters, hears `noise`; if so, `out` says how loud and from where.
   * @throws RangeError naming the field of a malformed noise, position or `out` (nothing counted then)
   */
  hears(noise: Noise, x: number, y: number, out: Earshot): boolean {
    checkNoise(noise);
    finite("Hearing.hears x", x, "meters");
    finite("Hearing.hears y", y, "meters");
    object("Hearing.hears out", out, "(an Earshot)");
    return this.listen(noise.x, noise.y, noise.loudness, x, y, out);
  }

  /**
   * Meters sound travels from (ax, ay) to (bx, by), meters, around what stops it, or Infinity if that is
   * more than `maxDistance` meters (or no way exists). `maxDistance` must be finite, in (0, 1000]
   * ({@link MAX_LOUDNESS}, the loudest noise): the way round is searched only that far, so there is no
   * "no cap" (Infinity is refused). Ends inside a piece follow the rule of {@link hears}.
   * @throws RangeError naming the field of a coordinate that is not a finite number, or a bad `maxDistance`
   */
  distance(ax: number, ay: number, bx: number, by: number, maxDistance: number): number {
    finite("Hearing.distance ax", ax, "meters");
    finite("Hearing.distance ay", ay, "meters");
    finite("Hearing.distance bx", bx, "meters");
    finite("Hearing.distance by", by, "meters");
    inRange("Hearing.distance maxDistance", maxDistance, 0, MAX_LOUDNESS, "meters", "(]");
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
    // The way from inside a piece is never shorter than the straight line either (it is a path).
    if (straight >= loudness) return false;
    if (this.grid.outgrown) this.rebuild();
    // Only an end in a shut cell can be inside a piece: two cell reads spare the common case the look.
    const grid = this.grid;
    const listenerIn = straight > 0 && grid.mayBeInside(x, y);
    const noiseIn = straight > 0 && grid.mayBeInside(nx, ny);
    if (listenerIn || noiseIn) return this.fromInside(nx, ny, loudness, x, y, listenerIn, noiseIn, out);
    return this.between(nx, ny, loudness, x, y, dx, dy, straight, out);
  }

  /**
   * {@link listen} when an end may be inside a piece (`listenerIn`, `noiseIn`): each such end taken out of
   * what it is in (see `WayOut`), the way between where they leave, and the way out of each added.
   */
  private fromInside(nx: number, ny: number, loudness: number, x: number, y: number, listenerIn: boolean, noiseIn: boolean, out: Earshot): boolean {
    const packed = this.occluders.packed;
    const way = this.wayOut;
    const outOfListener = listenerIn ? way.from(packed, x, y, nx, ny) : 0;
    if (!(outOfListener < loudness)) return false;
    const lx = listenerIn ? way.x : x;
    const ly = listenerIn ? way.y : y;
    const outOfNoise = noiseIn ? way.from(packed, nx, ny, x, y) : 0;
    const ex = noiseIn ? way.x : nx;
    const ey = noiseIn ? way.y : ny;
    const walked = outOfListener + outOfNoise;
    const dx = ex - lx;
    const dy = ey - ly;
    const straight = Math.sqrt(dx * dx + dy * dy);
    if (walked === 0) return this.between(nx, ny, loudness, x, y, dx, dy, straight, out);
    if (!(walked < loudness) || !this.between(ex, ey, loudness - walked, lx, ly, dx, dy, straight, out)) return false;
    const total = out.distance + walked;
    if (!(total < loudness)) return false;
    out.distance = total;
    out.level = 1 - total / loudness;
    out.direct = false;
    return true;
  }

  /** The way between two ends outside every piece, `straight` meters apart along (dx, dy) (see {@link listen}). */
  private between(nx: number, ny: number, loudness: number, x: number, y: number, dx: number, dy: number, straight: number, out: Earshot): boolean {
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
    return this.detour(packed, blocker, nx, ny, loudness, x, y, out);
  }

  /** The way round what stops the straight line, `blocker` one of the pieces that does. */
  private detour(packed: PackedOccluders, blocker: number, nx: number, ny: number, loudness: number, x: number, y: number, out: Earshot): boolean {
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
    // The noise's own cell when open (the step to its centre stays inside it), else a neighbour it reaches.
    if (!this.entry(nx, ny)) return false;
    const sc = this.entryC;
    const sr = this.entryR;
    const fromNoise = Math.hypot(nx - this.centreX(sc), ny - this.centreY(sr));
    // The listener's own cell when open, else the nearest neighbour in clear line of it.
    if (!this.entry(x, y)) return false;
    const tc = this.entryC;
    const tr = this.entryR;
    const toListener = Math.hypot(x - this.centreX(tc), y - this.centreY(tr));
    // Up to what pulling taut could win back (the steps' 2.7%, and about half a cell a corner).
    const bound = loudness * 1.1 + 1 - fromNoise - toListener;
    const search = this.search;
    const cellPath = bound > 0 ? search.find(sc, sr, tc, tr, bound) : Infinity;
    if (cellPath === Infinity) return false;
    // The cell path, pulled taut (a path through cell centres is up to about a cell long per corner).
    const taut = this.tautWay.pull(packed, this.grid, search, sc, sr, tc, tr, x, y, nx, ny);
    out.dirX = this.tautWay.dirX;
    out.dirY = this.tautWay.dirY;
    const total = Math.min(cellPath + fromNoise + toListener, taut);
    if (!(total < loudness)) return false;
    out.distance = total;
    out.level = 1 - total / loudness;
    out.direct = false;
    return true;
  }

  /**
   * The open cell a point at (x, y) enters the cell paths through (its own, or a neighbour in clear line),
   * left in {@link entryC}, {@link entryR} (any integers: a grid has tens of thousands of columns, and a
   * point may lie beyond it); false if none.
   */
  private entry(x: number, y: number): boolean {
    const grid = this.grid;
    const c0 = grid.column(x);
    const r0 = grid.row(y);
    if (grid.isOpen(c0, r0)) {
      this.entryC = c0;
      this.entryR = r0;
      return true;
    }
    let found = false;
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
      this.entryC = c;
      this.entryR = r;
      found = true;
    }
    return found;
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
