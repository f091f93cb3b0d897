/// <reference lib="dom" />
import { ALERT_COLOURS, ALERT_STATES, CHARACTER_COLOURS, MAP_COLOURS, NOISE_COLOURS, OVERLAY_COLOURS, SMOKE_ALPHA, SMOKE_COLOURS } from "./palette.js";

/** A legend entry: its swatch (a fill, or only an edge for what is drawn as an outline) and its text. */
interface Entry {
  colour: string;
  text: string;
  outline?: boolean;
  alpha?: number;
}

/** The colour legend beside the canvas, built from the palette the canvas draws with. */
export function fillLegend(list: HTMLUListElement, spectator: boolean): void {
  const entries: Entry[] = [
    ...ALERT_STATES.map((s): Entry => ({ colour: ALERT_COLOURS[s], text: `guard / camera ${s}` })),
    { colour: CHARACTER_COLOURS.self, text: spectator ? "the watched player" : "you" },
    { colour: CHARACTER_COLOURS.teammate, text: "teammate" },
    { colour: CHARACTER_COLOURS.enemy, text: "other team" },
    { colour: MAP_COLOURS.wall, text: "wall" },
    { colour: MAP_COLOURS.glass, text: "glass (see-through)" },
    { colour: MAP_COLOURS.exit, text: "exit" },
    { colour: MAP_COLOURS.door, text: "door, shut: blocks sight" },
    { colour: MAP_COLOURS.doorEdge, text: "door, open: dashed doorway, leaves swung aside", outline: true },
    { colour: SMOKE_COLOURS.fill, text: "smoke: blocks sight while dense, fades as it thins", alpha: SMOKE_ALPHA },
    { colour: NOISE_COLOURS.footstep, text: spectator ? "footstep: a ring where it was" : "footstep heard: a ring where it was, or a chevron around who heard it, pointing where it came from" },
    { colour: NOISE_COLOURS.thud, text: spectator ? "thud of a distraction: a thicker ring" : "thud of a distraction: a thicker ring, or a filled chevron" },
  ];
  if (spectator) entries.push({ colour: OVERLAY_COLOURS.rayClear, text: "sight ray, clear" }, { colour: OVERLAY_COLOURS.rayBlocked, text: "sight ray, blocked" });
  else entries.push({ colour: OVERLAY_COLOURS.remembered, text: "fog: seen before" }, { colour: OVERLAY_COLOURS.unexplored, text: "fog: never seen" });
  list.replaceChildren(
    ...entries.map((e) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      if (e.outline === true) swatch.style.border = `1px dashed ${e.colour}`;
      else swatch.style.background = e.colour;
      if (e.alpha !== undefined) swatch.style.opacity = String(e.alpha);
      item.append(swatch, ` ${e.text}`);
      return item;
    }),
  );
}
