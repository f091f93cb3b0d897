/** A Tiled map that cannot be read: says which file, layer and object, and why. */
export class TiledMapError extends Error {
  constructor(
    /** The name the map was read under (`TiledReadOptions.file`). */
    readonly file: string,
    /** What is wrong, without the location. */
    readonly detail: string,
    readonly layer?: string,
    readonly objectId?: number,
  ) {
    super(`${file}${layer !== undefined ? `: layer "${layer}"` : ""}${objectId !== undefined ? `, object ${objectId}` : ""}: ${detail}`);
    this.name = "TiledMapError";
  }
}

/** Throws the error for a detail; the reader's functions take one bound to their file, layer and object. */
export type Fail = (detail: string) => never;
