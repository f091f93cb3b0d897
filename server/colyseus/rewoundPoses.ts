import type { Room } from "@colyseus/core";
import { MapSchema, schema, t } from "@colyseus/schema";
import type { Rewind } from "@colyseus/core";
import { wrapAngle } from "../../shared/math/angle.js";
import { finite, nonEmptyString } from "../../shared/validation/rangeChecks.js";
import type { Pose, ShownPoses } from "../vision/index.js";
import { fieldSlot, liveValues } from "./liveFields.js";

/**
 * An observer's pose as Colyseus's `Rewind` records it: an instance of this class per observer, kept by
 * the plugin and never put in the room's state (so nothing of it is sent). `turn` is the facing unwrapped
 * (it keeps counting past +-PI), so the rewind's linear interpolation turns the shorter way.
 */
const RecordedPose = schema({ x: t.number(), y: t.number(), turn: t.number() }, "SightlineRecordedPose");
type RecordedPose = InstanceType<typeof RecordedPose>;
const X = fieldSlot(RecordedPose, "x");
const Y = fieldSlot(RecordedPose, "y");
const TURN = fieldSlot(RecordedPose, "turn");

/** The room's input stream, as far as render times go (`this.inputs` of a room that called `defineInput`). */
interface RenderStamps {
  get(sessionId: string): { renderTime: number };
}

/**
 * The fairness mode's history in a Colyseus room: `ShownPoses` for `SeenOnScreen`, from Colyseus's own
 * `Rewind` (`room.allowRewindState`) and the render time the SDK stamps on each input (a room with
 * `defineInput`; a client's `room.input({ renderDelay })` says its interpolation delay). Times are the
 * room clock's elapsed milliseconds, as Colyseus stamps them. Made by `SightlinePlugin.shownPoses`.
 *
 * The room records where its observers are each step; Colyseus's `Rewind` takes its snapshot of them at
 * each patch (`broadcastPatch`), stamped with the very time that patch's frames carry to the SDK. So the
 * history holds exactly the poses each patch delivered, at the times the clients' render times are
 * measured on, one sample a patch: a snapshot taken at the step instead would carry the room clock as it
 * was last ticked (up to a patch interval early, in a room that runs its own loop), and a second one at
 * the patch would halve the window the history's rings reach back.
 *
 * ```ts
 * // each step, after moving the observers:
 * for (const g of guards) plugin.shownPoses.record(g.id, g.x, g.y, g.facing);
 * ```
 */
export class RewoundPoses implements ShownPoses {
  private readonly rewind: Rewind;
  /**
   * The poses, one Rewind group for them all: a group per pose was walked one by one at each record, and
   * a forgotten observer's group stayed in the Rewind for good. Never in the state: nothing of it is sent.
   */
  private readonly poses = new MapSchema<RecordedPose>();

  constructor(
    private readonly room: Room,
    maxRewindMs: number,
    private readonly playerOf: (characterId: string) => string | undefined,
  ) {
    // A little more history than the cap, so a pose at the cap is read between two records.
    this.rewind = room.allowRewindState({ maxRewindMs: maxRewindMs + 100 });
    this.rewind.attachAll(this.poses, { fields: ["x", "y", "turn"], mode: "snapshot" });
  }

  /**
   * Where observer `id` is now (meters, radians), for the next patch's snapshot: call it for every
   * observer each step, after moving them.
   */
  record(id: string, x: number, y: number, facing: number): void {
    nonEmptyString("RewoundPoses.record id", id);
    finite("RewoundPoses.record x", x, "meters");
    finite("RewoundPoses.record y", y, "meters");
    finite("RewoundPoses.record facing", facing, "radians");
    let pose = this.poses.get(id);
    if (pose === undefined) {
      pose = new RecordedPose();
      // The Rewind reads the fields' values as they are at each record: recording changes would only cost.
      pose.pauseTracking();
      pose.turn = facing;
      this.poses.set(id, pose);
    }
    // Recording is paused for good, so the live values are written straight (every observer, every step:
    // the setters' calls were most of what recording cost).
    const values = liveValues(pose) as number[];
    values[X] = x;
    values[Y] = y;
    values[TURN] = values[TURN]! + wrapAngle(facing - values[TURN]!);
  }

  /** Forgets observer `id` (removed from the game). */
  forget(id: string): void {
    this.poses.delete(id);
  }

  now(): number {
    return this.room.clock.elapsedTime;
  }

  renderTimeOf(targetId: string): number | undefined {
    const sessionId = this.playerOf(targetId);
    const inputs = (this.room as unknown as { inputs?: RenderStamps }).inputs;
    if (sessionId === undefined || inputs === undefined) return undefined;
    // 0: the client's inputs carry no stamp (yet): judged now.
    const time = inputs.get(sessionId)?.renderTime ?? 0;
    return time > 0 ? time : undefined;
  }

  poseAt(observerId: string, time: number, out: Pose): boolean {
    const pose = this.poses.get(observerId);
    if (pose === undefined) return false;
    out.x = this.rewind.valueAt(pose, time, "x");
    out.y = this.rewind.valueAt(pose, time, "y");
    out.facing = wrapAngle(this.rewind.valueAt(pose, time, "turn"));
    return true;
  }
}
