import type { Fail } from "./tiledMapError.js";
import { finiteNum } from "./tiledValues.js";

/** A point in world meters. */
export interface TiledPoint {
  x: number;
  y: number;
}

/** The fields of a Tiled object the reader looks at. @internal */
export interface RawObject {
  id?: unknown; name?: unknown; type?: unknown; class?: unknown;
  x?: unknown; y?: unknown; width?: unknown; height?: unknown; rotation?: unknown;
  point?: unknown; ellipse?: unknown; polygon?: unknown; polyline?: unknown; text?: unknown; gid?: unknown;
  properties?: unknown;
}

const DEG = Math.PI / 180;

/** A point object, or one with no shape and no size. @internal */
export function isPoint(obj: RawObject): boolean {
  return obj.point === true || (obj.polygon === undefined && obj.polyline === undefined && !obj.width && !obj.height);
}

/** The outline of a rectangle or polygon object in world meters, rotated; throws for any other shape. @internal */
export function outlineOf(obj: RawObject, ppm: number, fail: Fail): TiledPoint[] {
  if (obj.ellipse === true) fail("ellipses are not supported here: draw a polygon");
  if (Array.isArray(obj.polygon)) {
    if (obj.polygon.length < 3) fail("a polygon needs at least 3 points");
    return transformPoints(obj, obj.polygon, ppm, fail);
  }
  if (obj.polyline !== undefined || obj.point === true) fail("must be a rectangle or a polygon");
  const w = finiteNum(obj.width, "width", fail);
  const h = finiteNum(obj.height, "height", fail);
  if (!(w > 0 && h > 0)) fail(`a rectangle needs a positive width and height (got ${w} x ${h})`);
  return transformPoints(obj, [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }], ppm, fail);
}

/**
 * Object-relative pixel points to world meters, rotated (clockwise degrees on a y-down screen, as Tiled)
 * about the object's origin.
 * @internal
 */
export function transformPoints(obj: RawObject, pts: unknown[], ppm: number, fail: Fail): TiledPoint[] {
  const ox = finiteNum(obj.x, "x", fail);
  const oy = finiteNum(obj.y, "y", fail);
  const rot = obj.rotation === undefined ? 0 : finiteNum(obj.rotation, "rotation", fail) * DEG;
  const c = Math.cos(rot);
  const s = Math.sin(rot);
  return pts.map((p, i) => {
    const pt = p as { x?: unknown; y?: unknown };
    const px = finiteNum(pt?.x, `point ${i} x`, fail);
    const py = finiteNum(pt?.y, `point ${i} y`, fail);
    return { x: (ox + c * px - s * py) / ppm, y: (oy + s * px + c * py) / ppm };
  });
}
