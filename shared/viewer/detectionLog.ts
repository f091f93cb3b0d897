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
  /**
   * The sense that fed the meter: "sight" or "hearing". Optional: a server from before hearing sends
   * none, and its events were all by sight.
   */
  sense?: string;
}

/**
 * How each sense is marked in the log: an eye or an ear, so a line says at a glance whether the guard
 * saw the player or only heard it (then "at" is where it heard the noise, not where the player is).
 */
export const SENSE_MARKS: Readonly<Record<string, string>> = Object.freeze({ sight: "👁", hearing: "👂" });

/** One log line of an event about `who` ("you", or a player's id for a spectator). */
export function noticeText(notice: Notice, who: string): string {
  const sense = notice.sense === undefined || notice.sense === "" ? "sight" : notice.sense;
  const mark = SENSE_MARKS[sense] ?? `(${sense})`;
  const where = `${sense === "hearing" ? "heard at" : "at"} (${notice.x.toFixed(1)}, ${notice.y.toFixed(1)})`;
  return `#${notice.seq} tick ${notice.tick}: ${mark} ${notice.observer || "someone unseen"} ${notice.type} ${who} ${where}`;
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
 * Detection events as they arrive: a line each in the page's log (newest first), marked with the sense
 * that fed it (👁 sight, 👂 hearing), and a "?" or "!" mark above the observer. Events carry a per-room `seq`, so each is shown once however many patches repeat
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
      line.textContent = noticeText(notice, label(player));
      line.dataset.type = notice.type;
      line.dataset.sense = notice.sense || "sight";
      this.list.prepend(line);
    }
    this.fresh.length = 0;
    while (this.list.children.length > LOG_LINES) this.list.lastElementChild!.remove();
  }
}
