/**
 * Every colour the viewer draws with, in one place: the page draws with these and the legend lists
 * them; the browser test reads pixels and compares them with these.
 */

/** An awareness state, as guards and cameras carry it in `alert` and meters in `state`. */
export type AlertState = "idle" | "suspicious" | "alerted" | "searching";

export const ALERT_STATES: readonly AlertState[] = ["idle", "suspicious", "alerted", "searching"];

/** Guard and camera markers, their cones and their meters, by awareness state (opaque `#rrggbb`). */
export const ALERT_COLOURS: Readonly<Record<AlertState, string>> = Object.freeze({
  idle: "#3fae5a",
  suspicious: "#f2c230",
  alerted: "#e4353f",
  searching: "#f07d1a",
});

/** What an unknown state string is drawn as (a newer server may add states). */
const UNKNOWN_ALERT_COLOUR = "#9a9a9a";

export const MAP_COLOURS = Object.freeze({
  floor: "#d9d4c7",
  grid: "rgba(0, 0, 0, 0.05)",
  wall: "#2e3142",
  glass: "rgba(110, 190, 235, 0.75)",
  glassEdge: "#3b8fc4",
  exit: "rgba(42, 157, 143, 0.55)",
  exitEdge: "#1f7a6f",
  spawn: "#6b6b6b",
  /** A shut door's fill (opaque, so the test can read it back); an open one is drawn with its edge only. */
  door: "#a0612f",
  doorEdge: "#5c3414",
});

/** Smoke clouds: a translucent grey, cool against the warm floor. */
export const SMOKE_COLOURS = Object.freeze({
  fill: "#9aa1ae",
  edge: "#7d8594",
});

/** A cloud's opacity at full density; it falls with the density. */
export const SMOKE_ALPHA = 0.7;

/**
 * Noises heard: rings where they were, chevrons around the listener when the emitter is hidden. A hot
 * pink, unlike anything else on the map (the floor is warm grey, states green to red, players white to
 * violet); a thud (a thrown distraction) a deeper shade of it, and drawn thicker.
 */
export const NOISE_COLOURS = Object.freeze({
  footstep: "#e8368f",
  thud: "#b0105a",
});

export const CHARACTER_COLOURS = Object.freeze({
  /** The player's own character. */
  self: "#ffffff",
  teammate: "#7fb2ff",
  enemy: "#c77dff",
  outline: "#111318",
});

export const OVERLAY_COLOURS = Object.freeze({
  /** Tiles never seen. */
  unexplored: "rgba(12, 13, 18, 0.9)",
  /** Tiles seen before but not now. */
  remembered: "rgba(12, 13, 18, 0.5)",
  rayClear: "rgba(40, 200, 90, 0.8)",
  rayBlocked: "rgba(230, 50, 60, 0.6)",
  meterBack: "rgba(17, 19, 24, 0.75)",
  markText: "#111318",
});

/** Cone fill opacity (the marker itself is opaque, so its colour can be read back exactly). */
export const CONE_FILL_ALPHA = 0.18;
export const CONE_EDGE_ALPHA = 0.6;

/** The colour of an awareness state, or {@link UNKNOWN_ALERT_COLOUR}. */
export function alertColour(state: string): string {
  return (ALERT_COLOURS as Record<string, string>)[state] ?? UNKNOWN_ALERT_COLOUR;
}

/** `#rrggbb` as [r, g, b] (0..255). */
export function rgbOf(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (m === null) throw new RangeError(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}
