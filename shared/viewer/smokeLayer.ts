/// <reference lib="dom" />
import type { CloudReading, Keyed } from "./levelSight.js";
import { SMOKE_ALPHA, SMOKE_COLOURS } from "./palette.js";
import type { Viewport } from "./viewport.js";

/**
 * The smoke clouds the client received, as translucent grey discs of their current radius, fainter as
 * their density falls (a cloud stops blocking sight at half density, and is drawn at half its alpha
 * then). Drawn over the fog: culling decides which clouds the client has, as for guards.
 */
export class SmokeLayer {
  private ctx: CanvasRenderingContext2D | null = null;
  private view: Viewport | null = null;
  private shows: (id: string) => boolean = () => true;
  // Bound once: drawing the state's clouds allocates nothing per frame.
  private readonly drawCloud = (cloud: CloudReading, id: string): void => {
    const ctx = this.ctx!;
    const view = this.view!;
    if (!(cloud.radius > 0) || !(cloud.density > 0) || !this.shows(id)) return;
    ctx.beginPath();
    ctx.arc(view.x(cloud.x), view.y(cloud.y), view.length(cloud.radius), 0, 2 * Math.PI);
    ctx.globalAlpha = SMOKE_ALPHA * Math.min(1, cloud.density);
    ctx.fillStyle = SMOKE_COLOURS.fill;
    ctx.fill();
    ctx.strokeStyle = SMOKE_COLOURS.edge;
    ctx.lineWidth = 1.5;
    ctx.stroke();
  };

  /** @param shows whether a cloud is drawn (a spectator narrowed to one player: only that client's) */
  draw(ctx: CanvasRenderingContext2D, view: Viewport, clouds: Keyed<CloudReading> | undefined, shows: (id: string) => boolean): void {
    if (clouds === undefined) return;
    this.ctx = ctx;
    this.view = view;
    this.shows = shows;
    clouds.forEach(this.drawCloud);
    ctx.globalAlpha = 1;
  }
}
