import { inRange, object, func } from "../../../shared/validation/rangeChecks.js";
import type { JudgedPoses, Pose, Sighting, SightingCheck } from "../awareness/types.js";
import type { VisionSystem } from "../visionSystem.js";

/**
 * What {@link SeenOnScreen} asks of the game: when each target's client was showing the world, and where
 * observers were then. All times in milliseconds on one clock.
 */
export interface ShownPoses {
  /** The time now. */
  now(): number;
  /**
   * The time the target's client was showing the world at, as of the latest input the server has taken
   * from it (its render time: the server's time minus half a round trip minus its interpolation delay);
   * undefined when unknown (no input yet, or not a client's character).
   */
  renderTimeOf(targetId: string): number | undefined;
  /** The observer's pose at `time`, written into `out`; false when there is none (then its present pose stands). */
  poseAt(observerId: string, time: number, out: Pose): boolean;
}

/** Options of a {@link SeenOnScreen}; every field optional. */
export interface SeenOnScreenOptions {
  /**
   * The furthest back a sighting is judged, milliseconds: a render time older than this (a high ping, a
   * stale or forged stamp) is judged this far back, so no client can buy invisibility by lagging. A render
   * time in the future is judged now. @default 350
   */
  maxRewindMs?: number;
}

/** Defaults of {@link SeenOnScreenOptions}. */
export const DEFAULT_SEEN_ON_SCREEN_OPTIONS = Object.freeze({ maxRewindMs: 350 });

/**
 * The fairness mode: a sighting of a player raises its meter only if it holds both on the server now and
 * from the observer's pose as that player's own screen showed it. Online, a player sees the guards half a
 * round trip and an interpolation delay late: a guard that has turned toward them on the server may still
 * look away on their screen, and "I was behind the wall!" is then true. Judged from both poses, that
 * sighting does not count until the player's screen shows it too; a player in plain view on both is
 * spotted as fast as ever.
 *
 * The player's own position is the server's, as of its latest input: that is where the player's screen
 * shows it (a client predicts its own movement), so a duck behind cover counts from the step the server
 * has it, and the steps before it were steps the player was still in the open on its own screen.
 *
 * Give it to the awareness model as its `check`: only sightings that would raise a meter below full ask
 * it (a pair acquiring or filling), each for one more exact sight test from the rewound pose (the target's
 * rays, usually 1-5; `rays` counts them). The vision engine stays free of any network: the times and past
 * poses come from a {@link ShownPoses} (`PoseHistory` and a map of render times, or `sightline/colyseus`
 * from Colyseus's `Rewind`).
 *
 * ```ts
 * const fair = new SeenOnScreen(vision, { now, renderTimeOf, poseAt: (id, t, out) => history.poseAt(id, t, out) });
 * const awareness = new AwarenessModel({ check: fair });
 * ```
 */
export class SeenOnScreen implements SightingCheck {
  /** The furthest back a sighting is judged, milliseconds. */
  readonly maxRewindMs: number;
  /**
   * Since construction: sightings checked, those refused, render times cut to the cap, rays cast, and
   * verdicts kept from the last check because the scheduler had not evaluated the observer again.
   */
  readonly counts = { checked: 0, refused: 0, clamped: 0, rays: 0, reused: 0 };
  private readonly scratch: JudgedPoses = { present: { x: 0, y: 0, facing: 0 }, rewound: { x: 0, y: 0, facing: 0 }, rewoundMs: 0 };
  /** The last check's observer, times and poses (and whether a past pose was found), for the next one. */
  private lastObserver = "";
  private lastTime = NaN;
  private lastNow = NaN;
  private lastFound = false;
  private readonly lastPresent: Pose = { x: 0, y: 0, facing: 0 };
  private readonly lastShown: Pose = { x: 0, y: 0, facing: 0 };

  /** @throws RangeError naming the field for a bad source or option */
  constructor(private readonly vision: VisionSystem, private readonly poses: ShownPoses, options: SeenOnScreenOptions = {}) {
    object("SeenOnScreen poses", poses, "{ now, renderTimeOf, poseAt }");
    func("SeenOnScreen poses.now", poses.now, "() => milliseconds");
    func("SeenOnScreen poses.renderTimeOf", poses.renderTimeOf, "(targetId) => milliseconds | undefined");
    func("SeenOnScreen poses.poseAt", poses.poseAt, "(observerId, time, out) => boolean");
    object("SeenOnScreenOptions", options);
    this.maxRewindMs = options.maxRewindMs === undefined ? DEFAULT_SEEN_ON_SCREEN_OPTIONS.maxRewindMs : inRange("SeenOnScreenOptions.maxRewindMs", options.maxRewindMs, 0, 10_000, "milliseconds");
  }

  /** Whether sighting `s` also holds from its observer's pose at the target's render time (capped); the poses go into `out`. */
  holds(s: Sighting, out: JudgedPoses | null): boolean {
    const judged = out ?? this.scratch;
    this.counts.checked++;
    const now = this.poses.now();
    const shown = this.poses.renderTimeOf(s.targetId);
    let time = shown === undefined || !Number.isFinite(shown) ? now : shown;
    if (time < now - this.maxRewindMs) {
      time = now - this.maxRewindMs;
      this.counts.clamped++;
    } else if (time > now) time = now;
    judged.rewoundMs = now - time;
    const r = judged.rewound;
    const p = judged.present;
    // The engine's own sighting reaches its observer and target directly; any other goes by id.
    const pair = this.vision.pairOf(s);
    if (pair !== undefined) {
      const o = pair.observer!;
      p.x = o.x;
      p.y = o.y;
      p.facing = o.facing;
    } else if (!this.vision.poseOf(s.observerId, p)) return true;
    // Sightings come observer by observer, and players often share a lag: the past pose of the last check is
    // this one's when the observer, the times and its present pose are the same.
    const lp = this.lastPresent;
    if (s.observerId === this.lastObserver && time === this.lastTime && now === this.lastNow && p.x === lp.x && p.y === lp.y && p.facing === lp.facing) {
      copy(this.lastShown, r);
    } else {
      this.lastFound = time !== now && this.poses.poseAt(s.observerId, time, r);
      if (!this.lastFound) copy(p, r);
      this.lastObserver = s.observerId;
      this.lastTime = time;
      this.lastNow = now;
      copy(p, lp);
      copy(r, this.lastShown);
    }
    // Rendered as it is now: the server's own sighting is the answer.
    if (time === now || !this.lastFound) return true;
    // An observer that has not moved (a guard at its post, a still camera) was shown where it is: no rays.
    if (r.x === p.x && r.y === p.y && r.facing === p.facing) return true;
    // Checked at the scheduler's pace: an observer it has not evaluated again since the last check has the
    // same sighting as then (its budget let that one stand), and so the same verdict.
    if (pair !== undefined && pair.checkedAt >= 0 && pair.checkedAt === pair.observer!.freshAt) {
      this.counts.reused++;
      if (!pair.checkedSeen) this.counts.refused++;
      return pair.checkedSeen;
    }
    const before = this.vision.raysCast;
    const seen = pair !== undefined && Number.isFinite(r.x + r.y + r.facing) ? this.vision.checkPairFrom(pair, r) : this.vision.checkFrom(s.observerId, s.targetId, r);
    this.counts.rays += this.vision.raysCast - before;
    if (pair !== undefined) {
      pair.checkedAt = pair.observer!.freshAt;
      pair.checkedSeen = seen;
    }
    if (!seen) this.counts.refused++;
    return seen;
  }
}

function copy(from: Pose, to: Pose): void {
  to.x = from.x;
  to.y = from.y;
  to.facing = from.facing;
}
