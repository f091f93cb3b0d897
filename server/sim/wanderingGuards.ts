import { seededRandom } from "../../shared/seededRandom.js";
import type { NavGrid, Waypoint } from "./navGrid.js";
import { PLACEMENT_DEFAULTS, type GuardPlacement } from "./tiledMap.js";
import { integer } from "../../shared/validation/rangeChecks.js";

const DEG = Math.PI / 180;
/** Route points per wandering guard: a loop through this many random spots. */
const ROUTE_POINTS = 4;
/** Random spots tried per route point before giving up on that point. */
const ATTEMPTS = 40;

/**
 * Guards a map does not place, for rooms that need more of them (a load test's 64 guards per room):
 * each walks a closed patrol loop through a few random reachable spots of the nav grid, with the default
 * guard cone and range. They are ordinary guards from then on (same brain, same vision, same awareness);
 * only their placement is generated. Deterministic for a given seed.
 *
 * Names are `wander-1`, `wander-2`, ... (ids `guard:wander-1`, ...); object ids count up from
 * `firstObjectId`, so they never collide with the map's. Throws a RangeError for a count that is not an
 * integer in [0, 1024], or when the nav grid has no free cell.
 */
export function wanderingGuardPlacements(nav: NavGrid, count: number, seed: number, firstObjectId: number): GuardPlacement[] {
  integer("wanderingGuardPlacements count", count, 0, 1024, "guards");
  const random = seededRandom(seed);
  const width = nav.cols * nav.cellSize;
  const height = nav.rows * nav.cellSize;
  const freeSpot = (): Waypoint | undefined => {
    for (let attempt = 0; attempt < ATTEMPTS * 4; attempt++) {
      const x = nav.originX + random() * width;
      const y = nav.originY + random() * height;
      if (nav.isFree(x, y)) return { x, y };
    }
    return undefined;
  };
  const placements: GuardPlacement[] = [];
  for (let i = 0; i < count; i++) {
    const start = freeSpot();
    if (start === undefined) throw new RangeError("no free cell on the nav grid to place a wandering guard");
    const route: Waypoint[] = [start];
    for (let k = 1; k < ROUTE_POINTS; k++) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const next = freeSpot();
        // Only spots the guard can walk to from the previous one: a route into a sealed room would stall it.
        // (`reachable` answers what a path search would, without one: 256 searches here used to block the
        // whole process for up to a second and a half whenever a 64-guard room was created.)
        if (next !== undefined && nav.reachable(route[k - 1]!.x, route[k - 1]!.y, next.x, next.y)) {
          route.push(next);
          break;
        }
      }
    }
    placements.push({
      id: firstObjectId + i,
      name: `wander-${i + 1}`,
      x: start.x,
      y: start.y,
      facing: random() * 2 * Math.PI - Math.PI,
      fov: PLACEMENT_DEFAULTS.guard.fov * DEG,
      range: PLACEMENT_DEFAULTS.guard.range,
      patrol: route,
      patrolLoop: route.length > 2,
    });
  }
  return placements;
}
