/// <reference lib="dom" />
/**
 * World meters to canvas pixels and back: the whole map fits the canvas, y down as in the world.
 * Canvas pixels, not CSS pixels: the canvas may be shown scaled, and reads (`getImageData`) use these.
 */
export class Viewport {
  /** Canvas pixels per meter. */
  readonly scale: number;
  /** Canvas size, pixels. */
  readonly width: number;
  readonly height: number;

  /**
   * @param mapWidth meters
   * @param mapHeight meters
   * @param maxPixels the longest canvas side, pixels (the scale never exceeds `pixelsPerMeter`)
   */
  constructor(readonly mapWidth: number, readonly mapHeight: number, maxPixels = 1200, pixelsPerMeter = 24) {
    this.scale = Math.min(pixelsPerMeter, maxPixels / Math.max(mapWidth, mapHeight));
    this.width = Math.ceil(mapWidth * this.scale);
    this.height = Math.ceil(mapHeight * this.scale);
  }

  /** Canvas x of a world x (meters). */
  x(meters: number): number {
    return meters * this.scale;
  }

  y(meters: number): number {
    return meters * this.scale;
  }

  /** A length in meters, in canvas pixels. */
  length(meters: number): number {
    return meters * this.scale;
  }

  /** The world point (meters) under a mouse event on `canvas`, whatever size the page shows it at. */
  worldAt(canvas: HTMLCanvasElement, clientX: number, clientY: number): { x: number; y: number } {
    const box = canvas.getBoundingClientRect();
    return {
      x: (((clientX - box.left) / box.width) * this.width) / this.scale,
      y: (((clientY - box.top) / box.height) * this.height) / this.scale,
    };
  }
}
