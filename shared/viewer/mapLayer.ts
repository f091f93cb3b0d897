/// <reference lib="dom" />
import { MAP_COLOURS } from "./palette.js";
import type { MapGeometry, Point } from "./tiledGeometry.js";
import type { Viewport } from "./viewport.js";

/**
 * The static map, drawn once into a canvas of its own and copied under each frame: floor, a 1 m grid,
 * exits, solid tiles, walls, glass and spawns.
 */
export function drawMapLayer(map: MapGeometry, view: Viewport): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = view.width;
  canvas.height = view.height;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = MAP_COLOURS.floor;
  ctx.fillRect(0, 0, view.width, view.height);

  ctx.strokeStyle = MAP_COLOURS.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = 1; x < map.width; x++) {
    ctx.moveTo(Math.round(view.x(x)) + 0.5, 0);
    ctx.lineTo(Math.round(view.x(x)) + 0.5, view.height);
  }
  for (let y = 1; y < map.height; y++) {
    ctx.moveTo(0, Math.round(view.y(y)) + 0.5);
    ctx.lineTo(view.width, Math.round(view.y(y)) + 0.5);
  }
  ctx.stroke();

  for (const exit of map.exits) outline(ctx, view, exit, MAP_COLOURS.exit, MAP_COLOURS.exitEdge);
  ctx.fillStyle = MAP_COLOURS.wall;
  for (let r = 0; r < map.rows; r++) {
    for (let c = 0; c < map.columns; c++) {
      if (map.solidTiles[r * map.columns + c] === 1) {
        ctx.fillRect(view.x(c * map.tileWidth), view.y(r * map.tileHeight), view.length(map.tileWidth), view.length(map.tileHeight));
      }
    }
  }
  for (const wall of map.walls) outline(ctx, view, wall, MAP_COLOURS.wall, MAP_COLOURS.wall);
  for (const pane of map.glass) outline(ctx, view, pane, MAP_COLOURS.glass, MAP_COLOURS.glassEdge);

  ctx.strokeStyle = MAP_COLOURS.spawn;
  ctx.fillStyle = MAP_COLOURS.spawn;
  ctx.font = `${Math.max(9, Math.round(view.length(0.45)))}px sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const s of map.spawns) {
    ctx.beginPath();
    ctx.arc(view.x(s.x), view.y(s.y), view.length(0.3), 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillText(s.name, view.x(s.x), view.y(s.y));
  }
  return canvas;
}

function outline(ctx: CanvasRenderingContext2D, view: Viewport, points: Point[], fill: string, edge: string): void {
  ctx.beginPath();
  ctx.moveTo(view.x(points[0]!.x), view.y(points[0]!.y));
  for (let i = 1; i < points.length; i++) ctx.lineTo(view.x(points[i]!.x), view.y(points[i]!.y));
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = edge;
  ctx.lineWidth = 1;
  ctx.stroke();
}
