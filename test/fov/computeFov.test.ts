import { describe, expect, it } from "vitest";
import { computeFov, type FovGrid, type FovOptions } from "../../shared/fov/index.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { asciiGrid, drawReveal } from "../fixtures/asciiGrid.js";
import { cellularCave } from "../../loadtest/maps/caves.js";

/** What one FOV call reveals, as a bitmap over the grid; fails the test if a tile is revealed twice or off-grid. */
function fov(grid: FovGrid, x: number, y: number, radius: number, options?: FovOptions): Uint8Array {
  const seen = new Uint8Array(grid.width * grid.height);
  computeFov(grid, x, y, radius, (tx, ty) => {
    if (tx < 0 || ty < 0 || tx >= grid.width || ty >= grid.height) throw new Error(`revealed off-grid tile ${tx}, ${ty}`);
    if (seen[ty * grid.width + tx]) throw new Error(`revealed ${tx}, ${ty} twice`);
    seen[ty * grid.width + tx] = 1;
  }, options);
  return seen;
}

function openGrid(width: number, height: number): FovGrid {
  return { width, height, isOpaque: () => false };
}

/** Offsets (dx, dy) of the revealed tiles, sorted, as "dx,dy" strings. */
function offsets(seen: Uint8Array, width: number, ox: number, oy: number): string[] {
  const out: string[] = [];
  seen.forEach((v, i) => {
    if (v) out.push(`${(i % width) - ox},${Math.floor(i / width) - oy}`);
  });
  return out.sort();
}

function disc(radius: number): string[] {
  const out: string[] = [];
  const reach = Math.floor(radius);
  for (let dy = -reach; dy <= reach; dy++) for (let dx = -reach; dx <= reach; dx++) if (dx * dx + dy * dy <= radius * radius) out.push(`${dx},${dy}`);
  return out.sort();
}

describe("an empty room", () => {
  it("reveals exactly the Euclidean disc: the plus of radius 1, the 3x3 of radius 1.5, the 13 tiles of radius 2", () => {
    const grid = openGrid(41, 41);
    expect(offsets(fov(grid, 20, 20, 1), 41, 20, 20)).toEqual(["-1,0", "0,-1", "0,0", "0,1", "1,0"]);
    expect(offsets(fov(grid, 20, 20, 1.5), 41, 20, 20)).toEqual(["-1,-1", "-1,0", "-1,1", "0,-1", "0,0", "0,1", "1,-1", "1,0", "1,1"]);
    expect(offsets(fov(grid, 20, 20, 2), 41, 20, 20)).toEqual([...disc(1.5), "-2,0", "0,-2", "0,2", "2,0"].sort());
    for (const r of [0, 0.99, 3, 4.2, 7, 12.5, 20]) {
      expect(offsets(fov(grid, 20, 20, r), 41, 20, 20), `radius ${r}`).toEqual(disc(r));
    }
  });

  it("with an infinite radius sees the whole grid, and the grid's edge clips the disc elsewhere", () => {
    const grid = openGrid(13, 9);
    expect(fov(grid, 4, 6, Infinity).every((v) => v === 1)).toBe(true);
    const corner = fov(grid, 0, 0, 3);
    expect(offsets(corner, 13, 0, 0)).toEqual(disc(3).filter((o) => !o.includes("-")));
  });
});

describe("symmetry", () => {
  it("in seeded caves, B is in A's field of view exactly when A is in B's: 0 asymmetric pairs", () => {
    let pairs = 0;
    let visiblePairs = 0;
    let asymmetric = 0;
    for (const [seed, radius] of [[1, 8], [2, 12.5], [3, 16]] as const) {
      const cave = cellularCave(48, 48, seed);
      const views = new Map<number, Uint8Array>();
      for (const f of cave.floors) views.set(f, fov(cave, f % 48, Math.floor(f / 48), radius));
      for (const a of cave.floors) {
        const fromA = views.get(a)!;
        for (const b of cave.floors) {
          if (b <= a) continue;
          const dx = (a % 48) - (b % 48);
          const dy = Math.floor(a / 48) - Math.floor(b / 48);
          if (dx * dx + dy * dy > radius * radius) continue;
          pairs++;
          const aSeesB = fromA[b] === 1;
          const bSeesA = views.get(b)![a] === 1;
          if (aSeesB || bSeesA) visiblePairs++;
          if (aSeesB !== bSeesA) asymmetric++;
        }
      }
    }
    expect(visiblePairs).toBeGreaterThan(50_000);
    expect(pairs).toBeGreaterThan(visiblePairs);
    expect(asymmetric).toBe(0);
  });
});

describe("walls and corners", () => {
  const room = asciiGrid([
    "##########",
    "#........#",
    "#........#",
    "#........#",
    "#........#",
    "#........#",
    "##########",
  ]);

  it("walls are visible: from every floor tile of a convex room, every wall of the room is seen, corners included", () => {
    for (let y = 1; y < 6; y++) {
      for (let x = 1; x < 9; x++) {
        const seen = fov(room, x, y, Infinity);
        expect(seen.every((v) => v === 1), `from ${x}, ${y}:\n${drawReveal(room, (tx, ty) => seen[ty * 10 + tx] === 1).join("\n")}`).toBe(true);
      }
    }
  });

  it("a pillar's shadow widens behind it (walls shade as diamonds: 1/6 of a slope either side at depth 3)", () => {
    const grid = asciiGrid([
      "###########",
      "#.........#",
      "#.@..#....#",
      "#.........#",
      "###########",
    ]);
    const seen = fov(grid, 2, 2, Infinity);
    expect(drawReveal(grid, (x, y) => seen[y * 11 + x] === 1)).toEqual([
      "###########",
      "#********.#",
      "#****#....-",
      "#********.#",
      "###########",
    ]);
  });

  it("no blind corners: standing diagonally next to a corner, the corridor round it is seen", () => {
    const grid = asciiGrid([
      "#######",
      "#...@.#",
      "#####.#",
      "#####.#",
      "#######",
    ]);
    const seen = fov(grid, grid.at!.x, grid.at!.y, 8);
    expect(seen[2 * 7 + 5]).toBe(1);
    expect(seen[3 * 7 + 5]).toBe(1);
    expect(seen[2 * 7 + 4]).toBe(1); // the corner itself
  });

  it("no blind corners: the eight neighbours of a floor tile are always seen (random caves)", () => {
    const cave = cellularCave(60, 60, 9);
    for (const f of cave.floors) {
      const x = f % 60;
      const y = Math.floor(f / 60);
      const seen = fov(cave, x, y, 1.5);
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) expect(seen[(y + dy) * 60 + x + dx]).toBe(1);
    }
  });
});

describe("the origin and the grid's edge", () => {
  it("the origin is always revealed: radius 0, standing in a wall, facing away", () => {
    const grid = asciiGrid(["###", "#.#", "###"]);
    expect(offsets(fov(grid, 1, 1, 0), 3, 1, 1)).toEqual(["0,0"]);
    expect(fov(grid, 0, 0, 0)[0]).toBe(1);
    expect(fov(grid, 1, 1, 5, { facing: 0, fov: 0.1 })[4]).toBe(1);
  });

  it("tiles outside the grid are never revealed and block like walls", () => {
    const cave = cellularCave(30, 20, 4);
    // fov() itself throws on an off-grid reveal; an origin on every edge tile with a long reach tries hard.
    for (let x = 0; x < 30; x++) for (const y of [0, 19]) fov(cave, x, y, 40);
    for (let y = 0; y < 20; y++) for (const x of [0, 29]) fov(cave, x, y, 40);
    const strip = openGrid(9, 1);
    expect(offsets(fov(strip, 4, 0, 6), 9, 4, 0)).toEqual(["-1,0", "-2,0", "-3,0", "-4,0", "0,0", "1,0", "2,0", "3,0", "4,0"]);
  });

  it("reading `cells` directly and calling isOpaque give the same field of view", () => {
    const cave = cellularCave(50, 50, 5);
    const callbackOnly: FovGrid = { width: 50, height: 50, isOpaque: (x, y) => cave.cells[y * 50 + x] === 1 };
    for (const f of cave.floors.slice(0, 300)) {
      expect(fov(callbackOnly, f % 50, Math.floor(f / 50), 11)).toEqual(fov(cave, f % 50, Math.floor(f / 50), 11));
    }
  });
});

describe("a facing sector", () => {
  /** Angle between `facing` and the direction to the tile centre (dx, dy), exact enough for a test. */
  const offAxis = (dx: number, dy: number, facing: number) => Math.abs(Math.atan2(Math.sin(Math.atan2(dy, dx) - facing), Math.cos(Math.atan2(dy, dx) - facing)));

  it("reveals nothing outside the sector, and inside it exactly what unrestricted sight reveals", () => {
    const random = seededRandom(21);
    const cave = cellularCave(70, 70, 6);
    let inside = 0;
    let checked = 0;
    const wrong: string[] = [];
    for (let trial = 0; trial < 400; trial++) {
      const f = cave.floors[Math.floor(random() * cave.floors.length)]!;
      const ox = f % 70;
      const oy = Math.floor(f / 70);
      const radius = 4 + random() * 14;
      const facing = (random() - 0.5) * 4 * Math.PI;
      const widths = [0.05, Math.PI / 4, Math.PI / 2, 2, Math.PI, 4, 1.9 * Math.PI];
      const width = widths[trial % widths.length]!;
      const full = fov(cave, ox, oy, radius);
      const cone = fov(cave, ox, oy, radius, { facing, fov: width });
      for (let i = 0; i < full.length; i++) {
        const dx = (i % 70) - ox;
        const dy = Math.floor(i / 70) - oy;
        if (dx === 0 && dy === 0) continue;
        const angle = offAxis(dx, dy, facing);
        if (cone[i] && angle > width / 2 + 1e-9) wrong.push(`outside: tile ${dx}, ${dy} from ${ox}, ${oy}, facing ${facing}, fov ${width}`);
        if (angle < width / 2 - 1e-7) {
          if (cone[i] !== full[i]) wrong.push(`inside, not as unrestricted: tile ${dx}, ${dy} from ${ox}, ${oy}, facing ${facing}, fov ${width}`);
          inside += full[i]!;
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(20_000);
    expect(inside).toBeGreaterThan(5_000);
  });

  it("a 90-degree cone facing east includes its diagonal edges and nothing behind", () => {
    const grid = openGrid(11, 11);
    expect(drawReveal(grid, (x, y) => fov(grid, 5, 5, 4, { facing: 0, fov: Math.PI / 2 })[y * 11 + x] === 1).slice(1, 10)).toEqual([
      "...........",
      "...........",
      ".......**..",
      "......***..",
      ".....*****.",
      "......***..",
      ".......**..",
      "...........",
      "...........",
    ]);
  });

  it("is one-sided by nature: a guard facing the player sees it while the player, facing away, does not see the guard", () => {
    const grid = openGrid(20, 5);
    const guardSees = fov(grid, 2, 2, 10, { facing: 0, fov: Math.PI / 2 })[2 * 20 + 9];
    const playerSees = fov(grid, 9, 2, 10, { facing: 0, fov: Math.PI / 2 })[2 * 20 + 2];
    expect([guardSees, playerSees]).toEqual([1, 0]);
  });

  it("fov >= 2 PI is all around, facing or not", () => {
    const cave = cellularCave(40, 40, 8);
    const f = cave.floors[100]!;
    expect(fov(cave, f % 40, Math.floor(f / 40), 9, { fov: 2 * Math.PI })).toEqual(fov(cave, f % 40, Math.floor(f / 40), 9));
    expect(fov(cave, f % 40, Math.floor(f / 40), 9, { facing: 1, fov: 7 })).toEqual(fov(cave, f % 40, Math.floor(f / 40), 9));
  });
});

describe("bad input", () => {
  const grid = openGrid(10, 10);
  const cases: [string, () => void, RegExp][] = [
    ["NaN origin", () => computeFov(grid, NaN, 2, 3, () => {}), /origin must be integer tile coordinates \(got NaN, 2\)/],
    ["fractional origin", () => computeFov(grid, 2.5, 2, 3, () => {}), /origin must be integer/],
    ["origin off the grid", () => computeFov(grid, 10, 2, 3, () => {}), /origin \(10, 2\) is outside the 10 x 10 grid/],
    ["negative radius", () => computeFov(grid, 2, 2, -1, () => {}), /computeFov radius must be a number >= 0 of tiles \(Infinity allowed\) \(got -1\)/],
    ["NaN radius", () => computeFov(grid, 2, 2, NaN, () => {}), /radius must be .* \(got NaN\)/],
    ["empty grid", () => computeFov({ width: 0, height: 3, isOpaque: () => false }, 0, 0, 3, () => {}), /computeFov grid\.width must be an integer >= 1 of tiles \(got 0\)/],
    ["cells of the wrong size", () => computeFov({ width: 3, height: 3, cells: new Uint8Array(8), isOpaque: () => false }, 0, 0, 3, () => {}), /cells must hold width \* height = 9 tiles \(got 8\)/],
    ["fov of 0", () => computeFov(grid, 2, 2, 3, () => {}, { facing: 0, fov: 0 }), /FovOptions\.fov must be a full sector angle in radians > 0 \(got 0\)/],
    ["NaN fov", () => computeFov(grid, 2, 2, 3, () => {}, { facing: 0, fov: NaN }), /FovOptions\.fov .* \(got NaN\)/],
    ["sector without facing", () => computeFov(grid, 2, 2, 3, () => {}, { fov: 1 }), /FovOptions\.facing must be a finite angle/],
    ["infinite facing", () => computeFov(grid, 2, 2, 3, () => {}, { facing: Infinity, fov: 1 }), /FovOptions\.facing .* \(got Infinity\)/],
  ];
  it.each(cases)("%s throws a RangeError saying why, before revealing anything", (_label, run, message) => {
    expect(run).toThrow(RangeError);
    expect(run).toThrow(message);
  });

  it("nothing is revealed when the input is refused", () => {
    let revealed = 0;
    expect(() => computeFov(grid, 2, 2, -3, () => revealed++)).toThrow(RangeError);
    expect(revealed).toBe(0);
  });

  it("a reveal callback may compute another field of view (re-entrant), and one that throws leaves the next call intact", () => {
    const cave = cellularCave(30, 30, 2);
    const f = cave.floors[40]!;
    const expected = fov(cave, f % 30, Math.floor(f / 30), 7);
    let nested = 0;
    computeFov(cave, f % 30, Math.floor(f / 30), 7, () => {
      nested += fov(cave, f % 30, Math.floor(f / 30), 7).reduce((a, v) => a + v, 0);
    });
    expect(nested).toBe(expected.reduce((a, v) => a + v, 0) ** 2);
    expect(() => computeFov(cave, f % 30, Math.floor(f / 30), 7, () => { throw new Error("boom"); })).toThrow("boom");
    expect(fov(cave, f % 30, Math.floor(f / 30), 7)).toEqual(expected);
  });
});
