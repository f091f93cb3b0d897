/// <reference lib="dom" />
import { alertColour } from "./palette.js";
import type { Mark } from "./entityLayer.js";

/** A detection event as a player's `events` carry it (`DetectionNotice` in shared/schema.ts). */
export interface Notice {
  seq: number;
  tick: number;
  type: string;
  /** The guard or camera, or "" when the player's client may not know which. */
  observer: string;
  x: number;
  y: number;
}

/** What each event type shows above the observer, and in which state's colour. */
const MARKS: Readonly<Record<string, { text: string; state: string }>> = {
  noticed: { text: "?", state: "suspicious" },
  suspicious: { text: "?", state: "suspicious" },
  spotted: { text: "!", state: "alerted" },
  lost: { text: "?", state: "searching" },
};

/** Lines kept in the log. */
const LOG_LINES = 60;

/**
 * Detection events as they arrive: a line each in the page's log (newest first) and a "?" or "!" mark
 * above the observer. Events carry a per-room `seq`, so each is shown once however many patches repeat
 * the player's last eight.
 */
export class DetectionLog {
  private lastSeq = -1;
  private readonly fresh: { notice: Notice; player: string }[] = [];

  constructor(private readonly list: HTMLOListElement) {}

  /** Collects the events of one shown player not shown yet; call {@link flush} after the last player. */
  collect(player: string, events: Iterable<Notice>): void {
    for (const e of events) if (e.seq > this.lastSeq) this.fresh.push({ notice: e, player });
  }

  /**
   * Shows what {@link collect} gathered, in seq order. `locate` gives an observer's position when it is
   * on screen; otherwise the mark goes where the event says the player was.
   */
  flush(marks: Mark[], now: number, locate: (observer: string) => { x: number; y: number } | undefined, label: (player: string) => string): void {
    if (this.fresh.length === 0) return;
    this.fresh.sort((a, b) => a.notice.seq - b.notice.seq);
    for (const { notice, player } of this.fresh) {
      if (notice.seq <= this.lastSeq) continue; // the same event from two players' lists cannot happen, but a repeat can
      this.lastSeq = notice.seq;
      const mark = MARKS[notice.type];
      if (mark !== undefined) {
        const at = (notice.observer !== "" ? locate(notice.observer) : undefined) ?? { x: notice.x, y: notice.y };
        marks.push({ x: at.x, y: at.y, text: mark.text, colour: alertColour(mark.state), since: now });
      }
      const line = document.createElement("li");
      line.textContent = `#${notice.seq} tick ${notice.tick}: ${notice.observer || "someone unseen"} ${notice.type} ${label(player)} at (${notice.x.toFixed(1)}, ${notice.y.toFixed(1)})`;
      line.dataset.type = notice.type;
      this.list.prepend(line);
    }
    this.fresh.length = 0;
    while (this.list.children.length > LOG_LINES) this.list.lastElementChild!.remove();
  }
}
