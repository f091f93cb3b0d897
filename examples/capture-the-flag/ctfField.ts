// The capture-the-flag field: its walls (one list, read by the culling and by movement alike), bases and
// the rules of motion. No Colyseus here: the room wires it.
import { Occluders } from "sightline/occluders";

export type Team = "red" | "blue";
export const TEAMS: readonly Team[] = ["red", "blue"];

/** Meters: a 60 x 30 field, red's half west of x = 30. */
export const WIDTH = 60;
export const HEIGHT = 30;
export const TICK_SECONDS = 1 / 20;
/** Running speed, meters per second: the culling's `maxSpeed` (nothing moves faster, respawns are declared). */
export const SPEED = 6;
export const PLAYER_RADIUS = 0.4;
/** A sprinting footstep: one every `stride` meters run, heard `loudness` meters of path away (round walls): loud, at 6 m/s. */
export const FOOTSTEP = { stride: 1.2, loudness: 18 } as const;
/** Where each team's flag stands and its players respawn. */
export const BASES: Record<Team, { x: number; y: number }> = { red: { x: 5, y: 15 }, blue: { x: 55, y: 15 } };

/** Walls as rectangles [x, y, width, height]: a middle wall with two gaps, and cover in each half. */
export const WALLS: readonly (readonly [number, number, number, number])[] = [
  [29, 0, 2, 5], [29, 8, 2, 14], [29, 25, 2, 5],
  [12, 6, 3, 4], [12, 20, 3, 4], [20, 12, 2, 6],
  [45, 6, 3, 4], [45, 20, 3, 4], [38, 12, 2, 6],
];

/** The walls as sight blockers, for the culling. */
export function fieldOccluders(): Occluders {
  const occluders = new Occluders();
  for (const [x, y, w, h] of WALLS) occluders.addRectangle(x, y, w, h);
  return occluders;
}

/** Whether a body of radius `r` at (x, y) overlaps a wall or leaves the field. */
export function blocked(x: number, y: number, r = PLAYER_RADIUS): boolean {
  if (x < r || y < r || x > WIDTH - r || y > HEIGHT - r) return true;
  for (const [wx, wy, w, h] of WALLS) {
    const dx = x - Math.max(wx, Math.min(x, wx + w));
    const dy = y - Math.max(wy, Math.min(y, wy + h));
    if (dx * dx + dy * dy < r * r) return true;
  }
  return false;
}

/** One step of running from (x, y) along (vx, vy) in the unit disc, sliding along walls. */
export function run(at: { x: number; y: number }, vx: number, vy: number): void {
  const step = SPEED * TICK_SECONDS;
  if (!blocked(at.x + vx * step, at.y)) at.x += vx * step;
  if (!blocked(at.x, at.y + vy * step)) at.y += vy * step;
}

/** Which half a point is in. */
export function halfOf(x: number): Team {
  return x < WIDTH / 2 ? "red" : "blue";
}
