import type { Body } from "planck";
import type { AwarenessModel, VisionSystem } from "sightline";
import type { GuardSenses } from "./guardBrain.js";
import type { Waypoint } from "./navGrid.js";

/**
 * What a guard's brain is told each step, read from the vision engine and the awareness model: its state,
 * where its focus is if it sees it now, where it last knew it to be, and (while idle) where the player it
 * is most aware of stands. Read for every guard every step, so the answer and its points are written
 * into objects of this reader's own, valid until the next call.
 */
export class GuardSensing {
  private readonly senses: GuardSenses = { alert: "idle" };
  private readonly seen: Waypoint = { x: 0, y: 0 };
  private readonly noticed: Waypoint = { x: 0, y: 0 };
  private readonly known: Waypoint = { x: 0, y: 0 };

  constructor(
    private readonly vision: VisionSystem,
    private readonly awareness: AwarenessModel,
    private readonly players: ReadonlyMap<string, { readonly body: Body }>,
  ) {}

  /** The senses of guard `guardId` now. */
  of(guardId: string): GuardSenses {
    const s = this.senses;
    s.alert = this.awareness.state(guardId);
    s.focusSeen = undefined;
    s.lastKnown = undefined;
    s.noticing = undefined;
    const visible = this.vision.visibleTo(guardId);
    const focus = this.awareness.focus(guardId);
    if (focus !== undefined && visible.has(focus)) {
      const p = this.players.get(focus);
      if (p !== undefined) {
        const at = p.body.getPosition();
        this.seen.x = at.x;
        this.seen.y = at.y;
        s.focusSeen = this.seen;
      }
    }
    const known = this.awareness.lastKnown(guardId);
    if (known !== undefined) {
      this.known.x = known.x;
      this.known.y = known.y;
      s.lastKnown = this.known;
    }
    if (s.alert === "idle" && visible.size > 0) {
      let best = 0;
      for (const id of visible) {
        const level = this.awareness.level(guardId, id);
        const p = this.players.get(id);
        if (level > best && p !== undefined) {
          best = level;
          const at = p.body.getPosition();
          this.noticed.x = at.x;
          this.noticed.y = at.y;
          s.noticing = this.noticed;
        }
      }
    }
    return s;
  }
}
