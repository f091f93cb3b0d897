/// <reference lib="dom" />
import { ALERT_COLOURS, ALERT_STATES, CHARACTER_COLOURS, MAP_COLOURS, OVERLAY_COLOURS } from "./palette.js";

/** The colour legend beside the canvas, built from the palette the canvas draws with. */
export function fillLegend(list: HTMLUListElement, spectator: boolean): void {
  const entries: [string, string][] = [
    ...ALERT_STATES.map((s): [string, string] => [ALERT_COLOURS[s], `guard / camera ${s}`]),
    [CHARACTER_COLOURS.self, spectator ? "the watched player" : "you"],
    [CHARACTER_COLOURS.teammate, "teammate"],
    [CHARACTER_COLOURS.enemy, "other team"],
    [MAP_COLOURS.wall, "wall"],
    [MAP_COLOURS.glass, "glass (see-through)"],
    [MAP_COLOURS.exit, "exit"],
  ];
  if (spectator) entries.push([OVERLAY_COLOURS.rayClear, "sight ray, clear"], [OVERLAY_COLOURS.rayBlocked, "sight ray, blocked"]);
  else entries.push([OVERLAY_COLOURS.remembered, "fog: seen before"], [OVERLAY_COLOURS.unexplored, "fog: never seen"]);
  list.replaceChildren(
    ...entries.map(([colour, text]) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = colour;
      item.append(swatch, ` ${text}`);
      return item;
    }),
  );
}
