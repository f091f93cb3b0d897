/// <reference lib="dom" />
import { alertColour } from "./palette.js";

/** One awareness meter: how aware `observer` is of `player`, in [0, 1], and the observer's state. */
export interface MeterReading {
  player: string;
  observer: string;
  level: number;
  state: string;
}

/**
 * The shown players' awareness meters as a list beside the canvas (the canvas draws a bar above each
 * observer too). Rebuilt only when its text changes, so a steady meter costs no DOM work.
 */
export class MeterList {
  private shown = "";

  /** @param emptyText what the list says when no meter is above 0 */
  constructor(private readonly list: HTMLUListElement, private readonly emptyText: string) {}

  show(readings: readonly MeterReading[], label: (player: string) => string): void {
    const text = readings.map((r) => `${r.player}|${r.observer}|${r.level}|${r.state}`).join("\n");
    if (text === this.shown) return;
    this.shown = text;
    this.list.replaceChildren(
      ...readings.map((r) => {
        const item = document.createElement("li");
        const bar = document.createElement("span");
        bar.className = "meter";
        bar.style.setProperty("--level", String(Math.min(1, Math.max(0, r.level))));
        bar.style.setProperty("--colour", alertColour(r.state));
        item.append(bar, ` ${r.observer} → ${label(r.player)}: ${Math.round(r.level * 100)}% (${r.state})`);
        return item;
      }),
    );
    if (readings.length === 0) {
      const item = document.createElement("li");
      item.textContent = this.emptyText;
      item.className = "quiet";
      this.list.append(item);
    }
  }
}
