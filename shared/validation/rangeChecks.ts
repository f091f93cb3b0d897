/**
 * The library's one style for refusing bad input: a `RangeError` whose message starts with the field's
 * full name, states the rule, and shows what was passed, e.g.
 * `ViewCullingOptions.maxSpeed must be a finite number >= 0 of meters per second (got NaN)`.
 * Nothing is changed when a check fails.
 * @internal
 */

/** Throws the RangeError for `field` breaking `rule`. */
export function fail(field: string, rule: string, value: unknown): never {
  throw new RangeError(`${field} ${rule} (got ${describeValue(value)})`);
}

/** A short, bounded description of a value for an error message (never its whole contents). */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return typeof value;
}

/** A finite number. */
export function finite(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(field, "must be a finite number", value);
  return value;
}

/** A finite number > 0, in `unit`. */
export function positive(field: string, value: unknown, unit: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || !(value > 0)) fail(field, `must be a finite number > 0 of ${unit}`, value);
  return value;
}

/** A finite number >= 0, in `unit`. */
export function nonNegative(field: string, value: unknown, unit: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || !(value >= 0)) fail(field, `must be a finite number >= 0 of ${unit}`, value);
  return value;
}

/** A number in [min, max], in `unit`. */
export function within(field: string, value: unknown, min: number, max: number, unit: string): number {
  if (typeof value !== "number" || !(value >= min && value <= max)) fail(field, `must be a number of ${unit} in [${min}, ${max}]`, value);
  return value;
}

/** A plain object (options, a spec). */
export function object<T extends object>(field: string, value: T | unknown): T {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(field, "must be an object", value);
  return value as T;
}

/** A non-empty string (an id, a team name). */
export function nonEmptyString(field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0) fail(field, "must be a non-empty string", value);
  return value;
}
