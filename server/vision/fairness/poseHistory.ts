import { wrapAngle } from "../../../shared/math/angle.js";
import { finite, integer, nonEmptyString } from "../../../shared/validation/rangeChecks.js";
import type { Pose } from "../awareness/types.js";

/** Options of a {@link PoseHistory}; every field optional. */
export interface PoseHistoryOptions {
  /** Poses kept per observer (the oldest go first): at 20 steps a second, 16 cover 0.8 s. @default 16 */
  length?: number;
}

/**
 * Where each observer was over the last few steps, for reading its pose at a past time: positions
 * between two records are interpolated along the straight line, facings along the shorter turn (a guard
 * turning from 179 to -179 degrees turns through 180, not back through 0). Before the oldest record, the
 * oldest; after the newest, the newest. Per observer a ring of plain numbers: recording allocates nothing
 * once an observer has its ring.
 *
 * `SeenOnScreen` reads observers' past poses from any source with this `poseAt`; this one is for a game
 * that keeps its own history (`sightline/colyseus` reads Colyseus's `Rewind` instead).
 *
 * ```ts
 * const history = new PoseHistory();
 * history.record("guard-1", nowMs, guard.x, guard.y, guard.facing); // each step, after moving
 * history.poseAt("guard-1", nowMs - 120, out);                       // where it was 120 ms ago
 * ```
 */
export class PoseHistory {
  private readonly length: number;
  private readonly rings = new Map<string, Ring>();

  /** @throws RangeError naming the field for a bad option */
  constructor(options: PoseHistoryOptions = {}) {
    this.length = options.length === undefined ? 16 : integer("PoseHistoryOptions.length", options.length, 2, 4096, "poses");
  }

  /**
   * Records where `id` is at `time` (milliseconds, any clock that only goes forward): meters, radians.
   * A time not after the last one recorded replaces that record.
   * @throws RangeError naming the field of a non-finite number or an empty id
   */
  record(id: string, time: number, x: number, y: number, facing: number): void {
    nonEmptyString("PoseHistory.record id", id);
    finite("PoseHistory.record time", time, "milliseconds");
    finite("PoseHistory.record x", x, "meters");
    finite("PoseHistory.record y", y, "meters");
    finite("PoseHistory.record facing", facing, "radians");
    let ring = this.rings.get(id);
    if (ring === undefined) this.rings.set(id, (ring = new Ring(this.length)));
    ring.push(time, x, y, facing);
  }

  /** The pose of `id` at `time` (milliseconds), written into `out`; false when nothing was recorded for it. */
  poseAt(id: string, time: number, out: Pose): boolean {
    const ring = this.rings.get(id);
    return ring !== undefined && ring.at(time, out);
  }

  /** Forgets `id` (it left). */
  remove(id: string): void {
    this.rings.delete(id);
  }
}

/** One observer's last poses: time, x, y, facing, oldest first from `start`. */
class Ring {
  private readonly data: Float64Array;
  private start = 0;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.data = new Float64Array(4 * capacity);
  }

  push(time: number, x: number, y: number, facing: number): void {
    let at: number;
    if (this.count > 0 && time <= this.data[4 * this.index(this.count - 1)]!) at = this.index(this.count - 1);
    else if (this.count < this.capacity) at = this.index(this.count++);
    else {
      at = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    const d = this.data;
    d[4 * at] = time;
    d[4 * at + 1] = x;
    d[4 * at + 2] = y;
    d[4 * at + 3] = facing;
  }

  at(time: number, out: Pose): boolean {
    if (this.count === 0) return false;
    const d = this.data;
    // The newest record at or before `time` (a few to scan: rewinds are a handful of steps).
    let k = this.count - 1;
    while (k > 0 && d[4 * this.index(k)]! > time) k--;
    const a = 4 * this.index(k);
    if (k === this.count - 1 || d[a]! >= time) return this.copy(a, out);
    const b = 4 * this.index(k + 1);
    const u = (time - d[a]!) / (d[b]! - d[a]!);
    if (!(u > 0)) return this.copy(a, out);
    out.x = d[a + 1]! + (d[b + 1]! - d[a + 1]!) * u;
    out.y = d[a + 2]! + (d[b + 2]! - d[a + 2]!) * u;
    out.facing = wrapAngle(d[a + 3]! + wrapAngle(d[b + 3]! - d[a + 3]!) * u);
    return true;
  }

  private copy(at: number, out: Pose): boolean {
    out.x = this.data[at + 1]!;
    out.y = this.data[at + 2]!;
    out.facing = this.data[at + 3]!;
    return true;
  }

  private index(i: number): number {
    return (this.start + i) % this.capacity;
  }
}
