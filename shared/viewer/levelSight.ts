import { OccluderOpacity, type OpacityGrid } from "sightline/fov";
import { Occluders, type OccluderId } from "sightline/occluders";
import { SMOKE } from "../gameRules.js";
import type { MapDoor, MapGeometry } from "./tiledGeometry.js";

/** What the page reads of a synced door (`DoorState` in shared/schema.ts). */
export interface DoorReading {
  open: boolean;
}

/** What the page reads of a synced smoke cloud (`SmokeCloud` in shared/schema.ts). */
export interface CloudReading {
  x: number;
  y: number;
  radius: number;
  density: number;
}

/** A schema map as the page reads it: `forEach` with the key, which the SDK's MapSchema has. */
export interface Keyed<T> {
  forEach(callback: (value: T, key: string) => void): void;
}

/**
 * The mirrored clouds are never aged (the page does not call `advance`): their size and life come from
 * the state. The lifetime only has to outlast any cloud, an hour does.
 */
const MIRROR_SECONDS = 3600;

interface MirroredCloud {
  occluder: OccluderId;
  x: number;
  y: number;
  radius: number;
  /** The sync pass that last saw it in the state: older ones have left it. */
  seen: number;
}

/**
 * What blocks sight for this client, kept in step with the room: the public map's walls, solid tiles
 * and doors as an `Occluders` (`Occluders.fromTiled`, the reading the server's own set comes from), an
 * `OccluderOpacity` grid following it for the fog of war, and the state's doors and clouds mirrored into
 * it as they change. So the page's fog and cones stop where the server's sight stops: a shut door, and a
 * cloud while it is dense (density at least `SMOKE.opaqueDensity`), block every line through them.
 *
 * A door's state is the one last received: the map's `open` until the door is first in view, then what
 * `state.doors` said while the client had it (culling drops it from the state out of sight; the page
 * keeps the last news rather than claim the map's state again).
 */
export class LevelSight {
  /** The fog's tile grid; it changes as doors and clouds do. */
  readonly grid: OpacityGrid;
  readonly doors: readonly MapDoor[];
  /**
   * The clouds blocking sight now, as x, y, radius triples, meters (the cones stop at them); rebuilt only
   * when a cloud changes.
   */
  readonly discs: number[] = [];
  /** Counts changes to doors and clouds, so drawings can tell when to redo their work. */
  version = 0;
  private readonly occluders: Occluders;
  private readonly opacity: OccluderOpacity;
  private readonly doorOccluders: OccluderId[];
  private readonly open: Uint8Array;
  private readonly doorIndex = new Map<string, number>();
  private readonly clouds = new Map<string, MirroredCloud>();
  private pass = 0;
  /** Mirrored clouds the current pass found in the state. */
  private seenThisPass = 0;
  private cloudsChanged = false;
  // Bound once, so a sync allocates nothing while nothing changes.
  private readonly syncDoor = (door: DoorReading, key: string): void => {
    const i = this.doorIndex.get(key);
    if (i === undefined || (this.open[i] === 1) === door.open) return;
    this.open[i] = door.open ? 1 : 0;
    this.occluders.setOpen(this.doorOccluders[i]!, door.open);
    this.version++;
  };
  private readonly syncCloud = (cloud: CloudReading, key: string): void => {
    const mirrored = this.clouds.get(key);
    if (cloud.density < SMOKE.opaqueDensity || !(cloud.radius > 0)) {
      if (mirrored !== undefined) this.forget(key, mirrored);
      return;
    }
    this.seenThisPass++;
    if (mirrored !== undefined) {
      mirrored.seen = this.pass;
      if (mirrored.radius === cloud.radius && mirrored.x === cloud.x && mirrored.y === cloud.y) return;
      // A cloud's radius is fixed once added: a grown one is a new occluder.
      this.occluders.remove(mirrored.occluder);
      mirrored.occluder = this.addCloud(cloud);
      mirrored.x = cloud.x;
      mirrored.y = cloud.y;
      mirrored.radius = cloud.radius;
    } else {
      this.clouds.set(key, { occluder: this.addCloud(cloud), x: cloud.x, y: cloud.y, radius: cloud.radius, seen: this.pass });
    }
    this.cloudsChanged = true;
  };

  /**
   * @param mapJson the public map (`GET /maps/<map>.tmj`)
   * @param map the same map as the page read it (its doors, in the same order, and its tile grid)
   */
  constructor(mapJson: unknown, map: MapGeometry) {
    this.occluders = Occluders.fromTiled(mapJson, { file: "map" });
    this.opacity = new OccluderOpacity(this.occluders, map);
    this.grid = this.opacity.grid;
    this.doors = map.doors;
    this.open = new Uint8Array(map.doors.length);
    this.doorOccluders = map.doors.map((d, i) => {
      const id = this.occluders.tiledDoor(d.id);
      if (id === undefined) throw new Error(`map: door ${d.id} has no occluder`);
      this.open[i] = d.open ? 1 : 0;
      this.doorIndex.set(String(d.id), i);
      return id;
    });
  }

  /** Whether door `i` (an index of {@link doors}) is open, as far as this client knows. */
  isOpen(i: number): boolean {
    return this.open[i] === 1;
  }

  /** Takes in the doors and clouds the state holds now; costs a pass over them, and work only for changes. */
  sync(doors: Keyed<DoorReading> | undefined, clouds: Keyed<CloudReading> | undefined): void {
    doors?.forEach(this.syncDoor);
    this.pass++;
    this.seenThisPass = 0;
    clouds?.forEach(this.syncCloud);
    // Only walk the mirror when some cloud left the state (iterating it allocates).
    if (this.seenThisPass < this.clouds.size) {
      for (const [key, mirrored] of this.clouds) if (mirrored.seen !== this.pass) this.forget(key, mirrored);
    }
    if (!this.cloudsChanged) return;
    this.cloudsChanged = false;
    this.version++;
    const discs = this.discs;
    discs.length = 0;
    for (const c of this.clouds.values()) discs.push(c.x, c.y, c.radius);
  }

  /** Whether the fog's grid holds the tile under (x, y) meters opaque now. */
  opaqueAt(x: number, y: number): boolean {
    return this.grid.isOpaque(Math.floor(x / this.grid.tileWidth), Math.floor(y / this.grid.tileHeight));
  }

  dispose(): void {
    this.opacity.dispose();
  }

  private addCloud(cloud: CloudReading): OccluderId {
    // Full size at once and never fading: the state says when it grows, thins and goes.
    return this.occluders.addSmoke(cloud.x, cloud.y, { radius: cloud.radius, seconds: MIRROR_SECONDS, growSeconds: 0, fadeSeconds: 0 });
  }

  private forget(key: string, mirrored: MirroredCloud): void {
    this.occluders.remove(mirrored.occluder);
    this.clouds.delete(key);
    this.cloudsChanged = true;
  }
}
