import { distanceToOutline } from "../outlineDistance.js";
import type { MapDoor } from "./tiledGeometry.js";

/**
 * How far (x, y) is from a door's outline, meters: 0 inside it, else the distance to its nearest edge.
 * The server measures reach this way (from the character's centre to the door), so the page offers only
 * the doors the server would let it use.
 */
export function distanceToDoor(door: MapDoor, x: number, y: number): number {
  return distanceToOutline(door.outline, x, y);
}

/** The index of the door nearest (x, y) within `reach` meters, or -1 when none is that close. */
export function nearestDoor(doors: readonly MapDoor[], x: number, y: number, reach: number): number {
  let found = -1;
  let best = reach;
  for (let i = 0; i < doors.length; i++) {
    const d = distanceToDoor(doors[i]!, x, y);
    if (d <= best) {
      best = d;
      found = i;
    }
  }
  return found;
}
