/**
 * The `explanation` message: why a guard or camera spotted a player, as numbers in short rows (what the
 * viewer's "why was I spotted" panel replays). Encoded on the server from a `spotted` event's
 * `Explanation`, decoded in the browser. Browser-safe: it imports only the library's types (erased in the page's bundle).
 *
 * A row per step that raised the meter, oldest first:
 * - sight: `[tick, 0, before, gain, after, distance, offAxis, visibility, proximity (0/1), fDistance,
 *   fRangeEdge, fPeriphery, fVisibility, fState]`, and with the fairness mode 7 more: `presentX, presentY,
 *   presentFacing, shownX, shownY, shownFacing, rewoundMs`;
 * - hearing: `[tick, 1, before, gain, after, loudness, salience]`.
 * Levels to 1e-4, meters to the centimetre, radians to the milliradian, factors to 1e-4.
 */
import type { ExplainedFill, Explanation } from "sightline";

/** What the server sends (see the module comment for the rows). */
export interface ExplanationMessage {
  observer: string;
  /** The player spotted: in the messages spectators get (a player's own name no target: it is the one). */
  target?: string;
  sense: "sight" | "hearing";
  /** The fill rate per second the sight factors multiply. */
  rate: number;
  rows: number[][];
}

const round = (v: number, unit: number): number => Math.round(v / unit) * unit;
const level = (v: number): number => round(v, 1e-4);
const meters = (v: number): number => round(v, 0.01);
const radians = (v: number): number => round(v, 0.001);

/** The message for `why`, keeping only the steps at or after tick `fromTick` (what the receiver may know). */
export function encodeExplanation(why: Explanation, fromTick = -Infinity): ExplanationMessage {
  const rows: number[][] = [];
  for (const f of why.fills) {
    if (f.tick < fromTick) continue;
    const head = [f.tick, f.sense === "sight" ? 0 : 1, level(f.before), level(f.gain), level(f.after)];
    if (f.sense === "hearing") {
      rows.push([...head, level(f.loudness ?? 0), level(f.salience ?? 1)]);
      continue;
    }
    const k = f.factors ?? { distance: 1, rangeEdge: 1, periphery: 1, visibility: 1, state: 1 };
    const row = [...head, meters(f.distance ?? 0), radians(f.offAxis ?? 0), level(f.visibility ?? 1), f.proximity === true ? 1 : 0, level(k.distance), level(k.rangeEdge), level(k.periphery), level(k.visibility), level(k.state)];
    const p = f.poses;
    if (p !== undefined) row.push(meters(p.present.x), meters(p.present.y), radians(p.present.facing), meters(p.rewound.x), meters(p.rewound.y), radians(p.rewound.facing), Math.round(p.rewoundMs));
    rows.push(row);
  }
  return { observer: why.observerId, sense: why.sense, rate: why.fillRate, rows };
}

/** The steps of a message, or undefined when it is not one (a browser never trusts a payload's shape). */
export function decodeExplanation(message: unknown): { observer: string; sense: "sight" | "hearing"; rate: number; steps: ExplainedFill[] } | undefined {
  const m = message as Partial<ExplanationMessage> | null;
  if (m === null || typeof m !== "object" || typeof m.observer !== "string" || !Array.isArray(m.rows) || typeof m.rate !== "number") return undefined;
  const steps: ExplainedFill[] = [];
  for (const r of m.rows) {
    if (!Array.isArray(r) || r.length < 5 || !r.every((v) => typeof v === "number" && Number.isFinite(v))) return undefined;
    const step: ExplainedFill = { tick: r[0]!, sense: r[1] === 0 ? "sight" : "hearing", before: r[2]!, gain: r[3]!, after: r[4]! };
    if (step.sense === "hearing") {
      step.loudness = r[5];
      step.salience = r[6];
    } else if (r.length >= 14) {
      Object.assign(step, { distance: r[5], offAxis: r[6], visibility: r[7], proximity: r[8] === 1 });
      step.factors = { distance: r[9]!, rangeEdge: r[10]!, periphery: r[11]!, visibility: r[12]!, state: r[13]! };
      if (r.length >= 21) step.poses = { present: { x: r[14]!, y: r[15]!, facing: r[16]! }, rewound: { x: r[17]!, y: r[18]!, facing: r[19]! }, rewoundMs: r[20]! };
    }
    steps.push(step);
  }
  return { observer: m.observer, sense: m.sense === "hearing" ? "hearing" : "sight", rate: m.rate, steps };
}
