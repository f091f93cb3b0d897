/// <reference lib="dom" />
import { RAY_FLOATS } from "../spectatorProtocol.js";
import { OVERLAY_COLOURS } from "./palette.js";
import type { Viewport } from "./viewport.js";

/** How many ticks of rays stay on screen, the older ones fainter: the scheduler spreads work over ticks. */
export const RAY_TICKS_SHOWN = 4;

/**
 * The sight rays of the last few ticks, as the server's scheduler cast them (spectators only): green when
 * clear, red when something blocked them. Newest batch last.
 */
export function drawRays(ctx: CanvasRenderingContext2D, view: Viewport, batches: readonly Float32Array[]): void {
  ctx.lineWidth = 1;
  for (let b = 0; b < batches.length; b++) {
    const rays = batches[b]!;
    ctx.globalAlpha = (b + 1) / batches.length;
    for (const clear of [1, 0]) {
      ctx.strokeStyle = clear === 1 ? OVERLAY_COLOURS.rayClear : OVERLAY_COLOURS.rayBlocked;
      ctx.beginPath();
      for (let i = 0; i < rays.length; i += RAY_FLOATS) {
        if (rays[i + 4] !== clear) continue;
        ctx.moveTo(view.x(rays[i]!), view.y(rays[i + 1]!));
        ctx.lineTo(view.x(rays[i + 2]!), view.y(rays[i + 3]!));
      }
      ctx.stroke();
    }
  }
  ctx.globalAlpha = 1;
}
