import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OccluderOpacity, rasterizeOpacity, TileVision } from "sightline/fov";
import { Occluders } from "sightline/occluders";

const SHAPE = { columns: 20, rows: 10, tileWidth: 1, tileHeight: 1 };

/** The grid as rows of '#' (opaque) and '.', for readable expectations. */
function picture(opacity: OccluderOpacity): string[] {
  const g = opacity.grid;
  const rows: string[] = [];
  for (let y = 0; y < g.height; y++) {
    let row = "";
    for (let x = 0; x < g.width; x++) row += g.isOpaque(x, y) ? "#" : ".";
    rows.push(row);
  }
  return rows;
}

describe("a tile opacity grid that follows the occluders", () => {
  it("a door's tiles are opaque while it is shut and clear once it opens; the wall around it stays", () => {
    const occluders = new Occluders();
    occluders.addRectangle(10, 0, 1, 4); // wall x 10..11, y 0..4
    occluders.addRectangle(10, 6, 1, 4); // and y 6..10: a doorway at y 4..6
    const door = occluders.addDoor([{ x: 10, y: 4 }, { x: 11, y: 4 }, { x: 11, y: 6 }, { x: 10, y: 6 }]);
    const opacity = new OccluderOpacity(occluders, SHAPE);
    expect(picture(opacity).map((r) => r[10]).join("")).toBe("##########");
    const version = opacity.grid.version;
    occluders.setOpen(door, true);
    expect(picture(opacity).map((r) => r[10]).join("")).toBe("####..####");
    expect(opacity.grid.version).toBe(version + 2);
    expect(opacity.grid.changedWithin(version, 10, 4, 10, 5)).toBe(true);
    occluders.setOpen(door, false);
    expect(picture(opacity).map((r) => r[10]).join("")).toBe("##########");
    opacity.dispose();
  });

  it("a door over a wall's tile changes nothing there: the tile is covered by both", () => {
    const occluders = new Occluders();
    occluders.addRectangle(3, 3, 1, 1);
    const door = occluders.addDoor([{ x: 3.5, y: 3 }, { x: 5, y: 3 }, { x: 5, y: 4 }, { x: 3.5, y: 4 }]);
    const opacity = new OccluderOpacity(occluders, SHAPE);
    expect(picture(opacity)[3]!.slice(3, 5)).toBe("##");
    occluders.setOpen(door, true);
    expect(picture(opacity)[3]!.slice(3, 5)).toBe("#.");
  });

  it("a smoke cloud's tiles turn opaque as it grows and clear when it thins", () => {
    const occluders = new Occluders();
    occluders.addSmoke(10, 5, { radius: 2, seconds: 4, growSeconds: 1, fadeSeconds: 1 });
    const opacity = new OccluderOpacity(occluders, SHAPE);
    const opaqueCount = () => opacity.grid.cells.reduce((n, c) => n + (c ? 1 : 0), 0);
    expect(opaqueCount()).toBe(0); // radius 0 at first
    occluders.advance(0.5);
    expect(opaqueCount()).toBe(4); // radius 1 around a tile corner: the four tiles meeting there
    occluders.advance(0.5);
    expect(opaqueCount()).toBe(16); // radius 2: 4 x 4 tiles, the corner ones cut but covered
    occluders.advance(2.6); // density 0.4 < 0.5
    expect(opaqueCount()).toBe(0);
  });

  it("walls added and removed at runtime come and go on the grid", () => {
    const occluders = new Occluders();
    const opacity = new OccluderOpacity(occluders, SHAPE);
    const wall = occluders.addRectangle(2, 2, 3, 1);
    expect(picture(opacity)[2]).toBe("..###...............");
    occluders.remove(wall);
    expect(picture(opacity)[2]).toBe("....................");
  });

  it("a thin wall crossing tiles makes them opaque; a segment along a tile edge does not", () => {
    const occluders = new Occluders();
    occluders.addSegment(0.5, 1.5, 3.5, 1.5); // through the middle of row 1
    occluders.addSegment(0, 5, 5, 5); // on the boundary between rows 4 and 5
    const opacity = new OccluderOpacity(occluders, SHAPE);
    expect(picture(opacity)[1]!.slice(0, 5)).toBe("####.");
    expect(picture(opacity)[4]!.slice(0, 5)).toBe(".....");
    expect(picture(opacity)[5]!.slice(0, 5)).toBe(".....");
  });

  it("on a static level of rectangles and convex outlines it is the same grid as rasterizeOpacity's", () => {
    const box = fc.record({ x: fc.double({ min: 0, max: 18, noNaN: true }), y: fc.double({ min: 0, max: 8, noNaN: true }), w: fc.double({ min: 0.05, max: 4, noNaN: true }), h: fc.double({ min: 0.05, max: 3, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(box, { maxLength: 12 }), (boxes) => {
        const occluders = new Occluders();
        const opaque = boxes.map((b) => [{ x: b.x, y: b.y }, { x: b.x + b.w, y: b.y }, { x: b.x + b.w, y: b.y + b.h }, { x: b.x, y: b.y + b.h }]);
        for (const o of opaque) occluders.addPolygon(o);
        const live = new OccluderOpacity(occluders, SHAPE);
        expect([...live.grid.cells]).toEqual([...rasterizeOpacity({ ...SHAPE, opaque }).cells]);
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it("a disc's tiles by exact area: a disc only grazing a tile leaves it clear", () => {
    const occluders = new Occluders();
    // Centre (5, 5), radius 1: it touches the tiles at x 6..7 (y 4..6) only at the point (6, 5).
    occluders.addCircle(5, 5, 1);
    occluders.addCircle(15, 5, 1.000001); // just past (16, 5): a sliver far below the area share
    const opacity = new OccluderOpacity(occluders, SHAPE);
    expect(picture(opacity)[4]!.slice(3, 7)).toBe(".##.");
    expect(picture(opacity)[5]!.slice(3, 7)).toBe(".##.");
    expect(picture(opacity)[4]!.slice(13, 17)).toBe(".##.");
  });

  it("explored memory grows when a door opens: the room behind it is seen at the next update", () => {
    const occluders = new Occluders();
    // A closed box: walls all around x 0..20, y 0..10, split at x = 10 by a wall with a door at y 4..6.
    occluders.addRectangle(10, 0, 1, 4);
    occluders.addRectangle(10, 6, 1, 4);
    const door = occluders.addDoor([{ x: 10, y: 4 }, { x: 11, y: 4 }, { x: 11, y: 6 }, { x: 10, y: 6 }]);
    const opacity = new OccluderOpacity(occluders, SHAPE);
    const eye = new TileVision(opacity.grid, { radius: 30 });
    eye.update(3, 5);
    expect(eye.isExplored(15, 5)).toBe(false);
    expect(eye.update(3, 5)).toBe(false); // nothing changed
    occluders.setOpen(door, true);
    expect(eye.update(3, 5)).toBe(true);
    expect(eye.isVisible(15, 5)).toBe(true);
    occluders.setOpen(door, false);
    eye.update(3, 5);
    expect(eye.isVisible(15, 5)).toBe(false);
    expect(eye.isExplored(15, 5)).toBe(true);
  });

  it("a bad grid shape is refused, naming the field", () => {
    expect(() => new OccluderOpacity(new Occluders(), { ...SHAPE, columns: 0 })).toThrow(/OpacityShape\.columns/);
    expect(() => new OccluderOpacity(new Occluders(), { ...SHAPE, tileHeight: -1 })).toThrow(/OpacityShape\.tileHeight/);
  });
});
