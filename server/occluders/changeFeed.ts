import { emptyBounds, growBounds, type OccluderPiece } from "./occluderPiece.js";

/**
 * What changed, for a listener that cares: whether sight can only be blocked more than before (pieces added,
 * a door shut, a cloud grown or thickened) or only less (removed, opened, thinned), and the pieces.
 * Reused between calls. @internal
 */
export interface OccluderChange {
  stronger: boolean;
  pieces: readonly OccluderPiece[];
}

/** Receives the box (meters) where occluders appeared, vanished, opened, shut, grew or thinned. @internal */
export type OccluderAreaListener = (minX: number, minY: number, maxX: number, maxY: number, change: OccluderChange) => void;

/**
 * Tells the readers of an `Occluders` (vision engines, cullings, opacity grids, audits) where and how it
 * changed, as it happens. @internal
 */
export class ChangeFeed {
  private readonly listeners: OccluderAreaListener[] = [];
  private readonly change: OccluderChange = { stronger: true, pieces: [] };
  private readonly box = emptyBounds();

  /** Calls `listener` with the box of every later change; returns the function that stops it. */
  subscribe(listener: OccluderAreaListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Tells every listener that `pieces` block more (`stronger`) or less than before. */
  emit(pieces: readonly OccluderPiece[], stronger: boolean): void {
    if (this.listeners.length === 0) return;
    const box = emptyBounds(this.box);
    // A cloud's largest radius: the box covers it as it was and as it will be.
    for (const p of pieces) growBounds(box, p, p.maxRadius);
    const { minX, minY, maxX, maxY } = box;
    const change = this.change;
    change.stronger = stronger;
    change.pieces = pieces;
    // By index, not over a copy: a cloud grows every tick, and a listener leaving mid-call is rare.
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(minX, minY, maxX, maxY, change);
  }
}
