/// <reference lib="dom" />
import { SMOKE } from "../gameRules.js";

/**
 * The own character's smoke grenades left (`PlayerState.smokes`, owner only), beside the canvas. Touches
 * the page only when the count changes.
 */
export class GearLine {
  private shown = -2;

  constructor(private readonly line: HTMLElement) {}

  /** @param smokes grenades left, or undefined before the state has the character */
  show(smokes: number | undefined): void {
    const n = smokes ?? -1;
    if (n === this.shown) return;
    this.shown = n;
    this.line.dataset.smokes = String(n);
    this.line.textContent = n < 0 ? "smoke grenades: …" : `smoke grenades: ${"●".repeat(Math.min(n, SMOKE.grenades))}${"○".repeat(Math.max(0, SMOKE.grenades - n))} ${n} left`;
  }
}
