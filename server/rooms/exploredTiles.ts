import type { MapSchema } from "@colyseus/schema";
import { OccluderOpacity, TileVision, type OpacityGrid } from "sightline/fov";
import { Occluders } from "sightline/occluders";
import { PLAYER_SIGHT_RANGE } from "../../shared/gameRules.js";
import type { StealthMap } from "../sim/tiledMap.js";


/** Where a player is, as the room knows it. */
interface PlayerAt {
  readonly id: string;
  readonly body: { getPosition(): { x: number; y: number } };
}

/** What the room syncs for a player: its `explored` words by index (PlayerState.explored, OWNER tag). */
interface ExploredField {
  readonly explored: MapSchema<number>;
}

/**
 * Each player's tile sight and explored memory in a room: a `TileVision` per player over an opacity grid
 * that follows the room's occluders (walls, solid tiles, shut doors, smoke; glass is transparent), fed the
 * player's tile each tick and recomputed only when that tile changed or a door or a cloud changed near it:
 * a door opened this step shows the room behind it at this step's update. The memory reaches the player's own client
 * through its `explored` schema field as 32-tile words keyed by word index (tile i = y * columns + x is
 * bit i & 31 of word i >>> 5; a word with nothing seen has no key); only words that gained a tile are
 * written, so a patch carries just those. What the player sees now is not sent: a client computes it with
 * `computeFov` from the public map and its own position.
 */
export class ExploredTiles {
  /** The opacity grid, following the occluders; a change on it makes nearby players recompute. */
  readonly grid: OpacityGrid;
  private readonly opacity: OccluderOpacity;
  /** Sight radius, tiles. */
  readonly radius: number;
  /** Field-of-view recomputes so far, over all players. */
  recomputes = 0;
  private readonly seats = new Map<string, { vision: TileVision; field: ExploredField }>();
  private readonly eye = { x: 0, y: 0 };
  /** The word indices as map keys, made once so a tick allocates no strings. */
  private readonly keys: string[];

  /**
   * @param occluders what blocks sight in the room (the simulation's); default the map's, as it starts
   * @param sightMeters how far players see, meters (default `PLAYER_SIGHT_RANGE`)
   */
  constructor(map: StealthMap, occluders: Occluders = Occluders.fromLevel(map, { file: map.file }), sightMeters = PLAYER_SIGHT_RANGE) {
    this.opacity = new OccluderOpacity(occluders, map);
    this.grid = this.opacity.grid;
    this.radius = sightMeters / Math.max(map.tileWidth, map.tileHeight);
    this.keys = Array.from({ length: Math.ceil((map.columns * map.rows) / 32) }, (_, w) => String(w));
  }

  /** Stops following the occluders (the room is gone). */
  dispose(): void {
    this.opacity.dispose();
  }

  /** Starts a player's memory, empty. */
  add(id: string, field: ExploredField): void {
    field.explored.clear();
    this.seats.set(id, { vision: new TileVision(this.grid, { radius: this.radius }), field });
  }

  /** Forgets a player's sight and memory (it left the room). */
  remove(id: string): void {
    this.seats.delete(id);
  }

  /** The player's tile vision (tests and tools), if it has one. */
  visionOf(id: string): TileVision | undefined {
    return this.seats.get(id)?.vision;
  }

  /** One tick: each player's eye to its current tile, recomputing and syncing only what changed. */
  update(players: Iterable<PlayerAt>): void {
    for (const p of players) {
      const seat = this.seats.get(p.id);
      if (seat === undefined) continue;
      const at = p.body.getPosition();
      // A body knocked to NaN is a bug elsewhere: skip its sight this tick rather than throw out of it.
      if (!Number.isFinite(at.x) || !Number.isFinite(at.y)) continue;
      const tile = this.grid.eyeTile(at.x, at.y, this.eye);
      const vision = seat.vision;
      if (!vision.update(tile.x, tile.y)) continue;
      this.recomputes++;
      const words = seat.field.explored;
      for (let k = 0; k < vision.exploredChangeCount; k++) {
        const w = vision.exploredChanges[k]!;
        words.set(this.keys[w]!, vision.explored[w]!);
      }
      vision.clearExploredChanges();
    }
  }
}
