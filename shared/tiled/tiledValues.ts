import type { Fail } from "./tiledMapError.js";

/**
 * Reading Tiled's JSON values with a message that names what was wrong: custom properties and numbers.
 * @internal
 */

interface TiledProperty { name: string; type?: string; value: unknown }

/** Custom properties by name (Tiled keeps them as an array of `{ name, type, value }`). */
export function properties(raw: unknown, fail: Fail): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (raw === undefined) return out;
  if (!Array.isArray(raw)) fail("properties must be an array");
  for (const p of raw as TiledProperty[]) {
    if (typeof p !== "object" || p === null || typeof p.name !== "string") fail("has a property without a name");
    out.set(p.name, p.value);
  }
  return out;
}

export function finiteNum(v: unknown, what: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isFinite(v)) fail(`${what} must be a finite number (got ${JSON.stringify(v)})`);
  return v as number;
}

export function positiveNumber(v: unknown, what: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) fail(`${what} must be a positive number (got ${JSON.stringify(v)})`);
  return v as number;
}

export function positiveInt(v: unknown, what: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0 || v > 100_000) fail(`${what} must be a positive integer (got ${JSON.stringify(v)})`);
  return v as number;
}

/** A number, or `fallback` for anything else (optional fields such as a layer's offset). */
export function num(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}
