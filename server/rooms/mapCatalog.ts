import { fileURLToPath } from "node:url";
import { loadMapsDir, type MapError, type StealthMap } from "../sim/tiledMap.js";

import { describeValue } from "../../shared/validation/rangeChecks.js";
import { Refusal } from "./refusal.js";

/** The folder of maps shipped with the server (`server/maps`). */
export const MAPS_DIR = fileURLToPath(new URL("../maps/", import.meta.url));

/** What a map name may look like (the file name without `.tmj`): nothing that could walk a path. */
export const MAP_NAME = /^[\w-]{1,64}$/;

/** The map a room plays when its create options name none. */
const DEFAULT_MAP = "demo";

/**
 * The maps rooms may be created with, by name. Loaded once; a broken map file is reported (file, layer,
 * object id) and left out, and the server runs with the maps that loaded.
 */
export class MapCatalog {
  private readonly maps = new Map<string, StealthMap>();
  /** Map files that failed to load, with why. */
  readonly errors: MapError[] = [];

  /** Loads every `.tmj` in `dir`, keeping what loaded and recording what did not. */
  load(dir: string): this {
    const { maps, errors } = loadMapsDir(dir);
    for (const [name, map] of maps) this.maps.set(name, map);
    this.errors.push(...errors);
    return this;
  }

  /** Adds (or replaces) a map, e.g. one built in memory by a test. */
  add(map: StealthMap): this {
    this.maps.set(map.name, map);
    return this;
  }

  /**
   * The map a room's `map` create option names (default {@link DEFAULT_MAP}). Throws a {@link Refusal}
   * (answered to the client, bounded) for anything else.
   */
  forOption(option: unknown): StealthMap {
    const name = option ?? DEFAULT_MAP;
    if (typeof name !== "string" || !MAP_NAME.test(name)) {
      throw new Refusal(`option "map" must be a map name (letters, digits, '_', '-'); available: ${this.names.join(", ")}`);
    }
    const map = this.get(name);
    if (map === undefined) throw new Refusal(`unknown map ${describeValue(name)}; available: ${this.names.join(", ") || "none"}`);
    return map;
  }

  get(name: string): StealthMap | undefined {
    return this.maps.get(name);
  }

  get names(): string[] {
    return [...this.maps.keys()].sort();
  }

  private static shared: MapCatalog | undefined;

  /** The process-wide catalog of `server/maps`, loaded on first use; load errors are printed once. */
  static bundled(): MapCatalog {
    if (MapCatalog.shared === undefined) {
      MapCatalog.shared = new MapCatalog().load(MAPS_DIR);
      for (const err of MapCatalog.shared.errors) console.error(`map not loaded: ${err.message}`);
    }
    return MapCatalog.shared;
  }
}
