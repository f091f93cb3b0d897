import { TiledMapError, type TiledLevel } from "../../shared/tiled/index.js";
import type { Point } from "./point.js";

/** What {@link addLevelOccluders} needs of an `Occluders`. @internal */
export interface LevelSink {
  addPolygon(points: readonly Point[]): number;
  addRectangle(x: number, y: number, width: number, height: number): number;
  addDoor(outline: readonly Point[], options: { open: boolean }): number;
}

/**
 * The one rule for what of a level blocks sight: each wall (concave ones split), the merged solid tiles,
 * and each door, open or shut as the level starts it; glass, exits and everything else do not. `door`
 * hears each door's object id and occluder. An unusable outline is a TiledMapError naming its object.
 * @internal
 */
export function addLevelOccluders(sink: LevelSink, level: TiledLevel, file: string, door: (objectId: number, id: number) => void): void {
  const refuse = (what: string, err: unknown, layer: string, id: number): never => {
    throw new TiledMapError(file, `${what} ${(err as Error).message.replace(/^Occluders\.add(Polygon|Door) (points|outline): /, "")}`, layer, id);
  };
  for (const o of level.objects) {
    if (o.kind !== "wall") continue;
    try {
      sink.addPolygon(o.outline!);
    } catch (err) {
      refuse("a wall", err, o.layer, o.id);
    }
  }
  for (const r of level.solidTiles) sink.addRectangle(r.x, r.y, r.width, r.height);
  for (const d of level.doors) {
    try {
      door(d.id, sink.addDoor(d.outline, { open: d.open }));
    } catch (err) {
      refuse("a door", err, d.layer, d.id);
    }
  }
}
