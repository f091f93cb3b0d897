import { describe, expect, it } from "vitest";
import { computeFov, OpacityGrid, TileVision } from "../../shared/fov/index.js";
import { asciiGrid } from "../fixtures/asciiGrid.js";
import { cellularCave } from "../../loadtest/maps/caves.js";

/** Two rooms joined by a door tile `D` (closed: opaque), the eye at `@`. */
const TWO_ROOMS = [
  "###############",
  "#.....#.......#",
  "#..@..D.......#",
  "#.....#.......#",
  "###############",
];

function gridOf(rows: string[]): { grid: OpacityGrid; at: { x: number; y: number }; door: { x: number; y: number } | undefined } {
  const drawn = asciiGrid(rows.map((r) => r.replace("D", "#")));
  const doorRow = rows.findIndex((r) => r.includes("D"));
  return {
    grid: new OpacityGrid(drawn.width, drawn.height, { cells: drawn.cells }),
    at: drawn.at!,
    door: doorRow < 0 ? undefined : { x: rows[doorRow]!.indexOf("D"), y: doorRow },
  };
}

function bitsOf(words: Uint32Array, size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < size; i++) if (words[i >>> 5]! & (1 << (i & 31))) out.push(i);
  return out;
}

describe("visible and explored tiles", () => {
  it("visible is exactly computeFov's answer; explored keeps what was seen after the eye moves on", () => {
    const cave = cellularCave(60, 40, 3);
    const grid = new OpacityGrid(60, 40, { cells: cave.cells });
    const vision = new TileVision(grid, { radius: 7 });
    const a = cave.floors[200]!;
    const b = cave.floors[cave.floors.length - 40]!;
    const fovSet = (i: number) => {
      const out = new Set<number>();
      computeFov(grid, i % 60, Math.floor(i / 60), 7, (x, y) => out.add(y * 60 + x));
      return out;
    };
    vision.update(a % 60, Math.floor(a / 60));
    expect(new Set(bitsOf(vision.visible, 2400))).toEqual(fovSet(a));
    vision.update(b % 60, Math.floor(b / 60));
    expect(new Set(bitsOf(vision.visible, 2400))).toEqual(fovSet(b));
    expect(new Set(bitsOf(vision.explored, 2400))).toEqual(new Set([...fovSet(a), ...fovSet(b)]));
    // Tiles seen from A only: remembered, no longer visible.
    const onlyA = [...fovSet(a)].find((i) => !fovSet(b).has(i))!;
    expect([vision.isExplored(onlyA % 60, Math.floor(onlyA / 60)), vision.isVisible(onlyA % 60, Math.floor(onlyA / 60))]).toEqual([true, false]);
  });

  it("recomputes only when the eye's tile or its sector changes", () => {
    const { grid, at } = gridOf(TWO_ROOMS);
    const vision = new TileVision(grid, { radius: 10 });
    expect(vision.update(at.x, at.y)).toBe(true);
    for (let i = 0; i < 50; i++) expect(vision.update(at.x, at.y)).toBe(false);
    expect(vision.recomputes).toBe(1);
    expect(vision.update(at.x + 1, at.y)).toBe(true);
    expect(vision.update(at.x + 1, at.y, 0, Math.PI / 2)).toBe(true); // now a cone
    expect(vision.update(at.x + 1, at.y, 0, Math.PI / 2)).toBe(false);
    expect(vision.update(at.x + 1, at.y, 0.3, Math.PI / 2)).toBe(true); // turned
    expect(vision.update(at.x + 1, at.y, 5, 7)).toBe(true); // all around again (fov >= 2 PI)
    expect(vision.update(at.x + 1, at.y, 1, 7)).toBe(false); // all around: facing is irrelevant
    expect(vision.recomputes).toBe(5);
  });

  it("a door opening within reach triggers a recompute that sees through it; one beyond reach does not", () => {
    const { grid, at, door } = gridOf(TWO_ROOMS);
    const vision = new TileVision(grid, { radius: 6 });
    vision.update(at.x, at.y);
    expect(vision.isVisible(door!.x + 2, door!.y)).toBe(false);
    grid.setOpaque(door!.x, door!.y, false);
    expect(vision.update(at.x, at.y)).toBe(true);
    expect(vision.isVisible(door!.x, door!.y)).toBe(true);
    expect(vision.isVisible(door!.x + 2, door!.y)).toBe(true);
    grid.setOpaque(13, 1, true); // 10 tiles east of the eye: beyond a radius of 6
    expect(vision.update(at.x, at.y)).toBe(false);
    expect(grid.setOpaque(13, 1, true)).toBe(false); // already opaque: no change, nothing logged
    expect(vision.recomputes).toBe(2);
  });

  it("more door changes than the grid remembers force a recompute rather than a missed one", () => {
    const { grid, at } = gridOf(TWO_ROOMS);
    const vision = new TileVision(grid, { radius: 3 });
    vision.update(at.x, at.y);
    for (let i = 0; i < 100; i++) grid.setOpaque(13, 1 + (i % 3), i % 2 === 0); // all far away
    expect(vision.update(at.x, at.y)).toBe(true);
  });

  it("lists each explored word that gained a tile once, until cleared", () => {
    const cave = cellularCave(64, 64, 4);
    const grid = new OpacityGrid(64, 64, { cells: cave.cells });
    const vision = new TileVision(grid, { radius: 9 });
    const before = new Uint32Array(vision.explored.length);
    for (const f of [cave.floors[10]!, cave.floors[900]!, cave.floors[901]!]) {
      vision.update(f % 64, Math.floor(f / 64));
    }
    const listed = [...vision.exploredChanges.subarray(0, vision.exploredChangeCount)].sort((p, q) => p - q);
    const changed = [...vision.explored.keys()].filter((w) => vision.explored[w] !== before[w]);
    expect(listed).toEqual(changed);
    vision.clearExploredChanges();
    expect(vision.exploredChangeCount).toBe(0);
    vision.update(cave.floors[10]! % 64, Math.floor(cave.floors[10]! / 64)); // nothing new to remember
    expect(vision.exploredChangeCount).toBe(0);
  });

  it("refuses bad input with a RangeError and keeps its state", () => {
    const { grid, at } = gridOf(TWO_ROOMS);
    expect(() => new TileVision(grid, { radius: -1 })).toThrow(/TileVisionOptions\.radius must be a number >= 0 of tiles/);
    expect(() => new TileVision(grid, { radius: NaN })).toThrow(RangeError);
    const vision = new TileVision(grid, { radius: 5 });
    vision.update(at.x, at.y);
    const seen = vision.visible.slice();
    expect(() => vision.update(NaN, 2)).toThrow(/not a tile of the 15 x 5 grid/);
    expect(() => vision.update(15, 2)).toThrow(RangeError);
    expect(() => vision.update(at.x + 1, at.y, NaN, 1)).toThrow(/FovOptions\.facing/);
    expect(() => grid.setOpaque(-1, 0, true)).toThrow(RangeError);
    expect(vision.visible).toEqual(seen);
    expect(vision.update(at.x, at.y)).toBe(false);
  });
});

describe("the eye's tile", () => {
  it("is the tile under the point, or, inside a wall thinner than a tile, the nearest clear neighbour on its own side", () => {
    const { grid } = gridOf(TWO_ROOMS);
    const out = { x: 0, y: 0 };
    expect(grid.eyeTile(3.5, 2.5, out)).toEqual({ x: 3, y: 2 });
    // In the wall tile x = 6 (a thin wall drawn there), just left of its middle: the floor to its left.
    expect(grid.eyeTile(6.3, 2.5, out)).toEqual({ x: 5, y: 2 });
    expect(grid.eyeTile(6.7, 2.5, out)).toEqual({ x: 7, y: 2 });
    expect(grid.eyeTile(-4, 99, out)).toEqual({ x: 1, y: 3 }); // clamped to the grid, then off the border wall
    expect(() => grid.eyeTile(NaN, 1, out)).toThrow(RangeError);
  });
});
