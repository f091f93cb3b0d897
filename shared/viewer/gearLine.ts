/// <reference lib="dom" />
import { DISTRACTION, SMOKE } from "../gameRules.js";

/** One kind of gear: what it is called on its line and how many a life carries. */
interface Kind {
  name: string;
  full: number;
}

const GRENADES: Kind = { name: "smoke grenades", full: SMOKE.grenades };
const DISTRACTIONS: Kind = { name: "distractions", full: DISTRACTION.count };

/**
 * The own character's gear left beside the canvas, a line each: smoke grenades (`PlayerState.smokes`) and
 * distractions (`PlayerState.distractions`), both owner only, both refilled at every respawn. Touches the
 * page only when a count changes.
 */
export class GearLine {
  private shownSmokes = -2;
  private shownDistractions = -2;

  constructor(
    private readonly grenades: HTMLElement,
    private readonly distractions: HTMLElement,
  ) {}

  /** Counts left, or undefined before the state has the character. */
  show(smokes: number | undefined, distractions: number | undefined): void {
    const s = smokes ?? -1;
    if (s !== this.shownSmokes) {
      this.shownSmokes = s;
      this.grenades.dataset.smokes = String(s);
      this.grenades.textContent = lineOf(GRENADES, s);
    }
    const d = distractions ?? -1;
    if (d !== this.shownDistractions) {
      this.shownDistractions = d;
      this.distractions.dataset.distractions = String(d);
      this.distractions.textContent = lineOf(DISTRACTIONS, d);
    }
  }
}

/** "smoke grenades: ●●○ 2 left"; "…" while the count is unknown (-1). */
function lineOf(kind: Kind, n: number): string {
  return n < 0 ? `${kind.name}: …` : `${kind.name}: ${"●".repeat(Math.min(n, kind.full))}${"○".repeat(Math.max(0, kind.full - n))} ${n} left`;
}
