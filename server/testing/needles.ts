// What a leak test searches received frames for: text as UTF-8 (an entity id, a name: schema strings and
// message strings both carry it verbatim) or exact bytes, with numbers turned into the bytes each wire
// encoding gives them. Kept apart from the recorder: it is the one home of "what does X look like on the wire".
import { getMessageBytes, Protocol } from "@colyseus/core";
import { encode } from "@colyseus/schema";
import { fail, oneOf } from "../../shared/validation/rangeChecks.js";

/** What to search for: a string (its UTF-8 bytes) or exact bytes (see {@link encoded}). */
export type Needle = string | Uint8Array;

/**
 * How a number travels: a schema field type (`float32`, `uint16`, ..., `number` for schema's variable
 * length `t.number()`), or `message` for a number inside a message payload (`client.send`,
 * `sendToViewersOf`: msgpack, as Colyseus packs it).
 */
export type NumberEncoding = "int8" | "uint8" | "int16" | "uint16" | "int32" | "uint32" | "int64" | "uint64" | "float32" | "float64" | "number" | "message";

const ENCODINGS: readonly NumberEncoding[] = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64", "number", "message"];

/**
 * The bytes `value` takes on the wire as a field of that schema type, or inside a message. Search for a
 * value unlikely to occur by chance (a float such as 23.371, not 1): four bytes of a float32 are specific,
 * one byte of a small integer is everywhere.
 */
export function encoded(value: number, as: NumberEncoding): Uint8Array {
  oneOf("encoded as", as, ENCODINGS);
  if (typeof value !== "number" || Number.isNaN(value)) fail("encoded value", "must be a number", value);
  if (as === "message") {
    // [ROOM_DATA][type 0]: two bytes of header, then the payload exactly as Colyseus packs it.
    return new Uint8Array(getMessageBytes.raw(Protocol.ROOM_DATA, 0, value).subarray(2));
  }
  const bytes = new Uint8Array(16);
  const it = { offset: 0 };
  encode[as](bytes, value, it);
  return bytes.slice(0, it.offset);
}

/** A needle as bytes. @internal */
export function needleBytes(needle: Needle): Buffer {
  if (typeof needle === "string") {
    if (needle.length === 0) fail("needle", "must not be empty: every frame contains the empty string", needle);
    return Buffer.from(needle, "utf8");
  }
  if (!(needle instanceof Uint8Array) || needle.byteLength === 0) fail("needle", "must be a non-empty string or Uint8Array", needle);
  return Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength);
}

/** How a needle reads in a message: text quoted, bytes in hex. @internal */
export function describeNeedle(needle: Needle, label?: string): string {
  const shown = typeof needle === "string" ? JSON.stringify(needle) : `bytes ${Buffer.from(needle).toString("hex").replace(/(..)(?=.)/g, "$1 ")}`;
  return label === undefined ? shown : `${label} (${shown})`;
}
