/** An axis-aligned rectangle of tiles: column, row, width and height in tiles. */
export interface TileRect {
  col: number;
  row: number;
  cols: number;
  rows: number;
}

/**
 * Merges the solid cells of a grid into few axis-aligned rectangles (greedy meshing): each rectangle
 * grows right as far as the row allows, then down while every row below matches. The rectangles cover
 * exactly the solid cells and never overlap. Why: one fixture per tile would put thousands of proxies
 * in the physics broadphase and in every sight ray's path.
 * @internal
 */
export function greedyMesh(width: number, height: number, solid: (col: number, row: number) => boolean): TileRect[] {
  const used = new Uint8Array(width * height);
  const rects: TileRect[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      if (used[row * width + col] || !solid(col, row)) continue;
      let cols = 1;
      while (col + cols < width && !used[row * width + col + cols] && solid(col + cols, row)) cols++;
      let rows = 1;
      grow: while (row + rows < height) {
        for (let c = col; c < col + cols; c++) {
          if (used[(row + rows) * width + c] || !solid(c, row + rows)) break grow;
        }
        rows++;
      }
      for (let r = row; r < row + rows; r++) used.fill(1, r * width + col, r * width + col + cols);
      rects.push({ col, row, cols, rows });
    }
  }
  return rects;
}
