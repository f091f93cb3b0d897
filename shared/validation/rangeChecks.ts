/**
 * The one style for refusing bad input: a `RangeError` whose message is
 * `<Owner>.<field> must be <rule> (got <value>)`, e.g.
 * `ViewCullingOptions.maxSpeed must be a finite number >= 0 of meters per second (got NaN)`.
 * A message no rule fits (a self-intersecting polygon) keeps its own words after an `<Owner>: ` prefix.
 * Nothing is changed when a check fails. Browser-safe (no Node, no zod), so the fov and occluder entry
 * points can use it. The checks allocate nothing when they pass: some run for every sighting of a tick.
 * @internal
 */

/** Longest rendering of one value inside a message, characters: a message quotes, it never dumps. */
export const MAX_VALUE_CHARS = 48;

/** Which ends of an interval belong to it, as written in math: `[` closed, `(` open. */
export type Bounds = "[]" | "[)" | "(]" | "()";

/** Throws the RangeError for `field` breaking `rule`. */
export function fail(field: string, rule: string, value: unknown): never {
  throw new RangeError(`${field} ${rule} (got ${describeValue(value)})`);
}

/**
 * The one description of a passed value in a message: numbers, booleans and `undefined` plain, strings
 * as (cut) JSON, anything else by its kind (`an object`, `an array (3 items)`, `a function`). Never calls
 * the value's own methods (`{ toString: 0 }` makes `String(value)` throw) and never renders more than
 * {@link MAX_VALUE_CHARS} characters, whoever sent the value.
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return cut(JSON.stringify(value.slice(0, MAX_VALUE_CHARS)));
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return cut(`${value.toString()}n`);
    case "object":
      if (value === null) return "null";
      return Array.isArray(value) ? `an array (${value.length} items)` : "an object";
    default:
      return `a ${typeof value}`;
  }
}

function cut(text: string): string {
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS - 1)}…`;
}

/** A finite number (of `unit`, when given). */
export function finite(field: string, value: unknown, unit = ""): number {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(field, `must be a finite number${of(unit)}`, value);
  return value;
}

/**
 * A number from `min` to `max`, ends as `bounds` say. An infinite end reads as a one-sided rule: a closed
 * one admits Infinity (`must be a number >= 0 of meters (Infinity allowed)`), an open one does not
 * (`must be a finite number > 0 of meters`).
 */
export function inRange(field: string, value: unknown, min: number, max: number, unit = "", bounds: Bounds = "[]"): number {
  if (typeof value !== "number" || !inside(value, min, max, bounds)) fail(field, rangeRule("number", min, max, unit, bounds), value);
  return value;
}

/** An integer from `min` to `max` (both included; `max` Infinity for no ceiling). */
export function integer(field: string, value: unknown, min: number, max = Infinity, unit = ""): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const rule = max !== Infinity ? `must be an integer${of(unit)} in [${min}, ${max}]` : min === -Infinity ? `must be an integer${of(unit)}` : `must be an integer >= ${min}${of(unit)}`;
    fail(field, rule, value);
  }
  return value;
}

/** A fraction in [0, 1], or with open ends as `bounds` say; `of` names what it is a fraction of. */
export function fraction(field: string, value: unknown, bounds: Bounds = "[]", ofWhat = ""): number {
  if (typeof value !== "number" || !inside(value, 0, 1, bounds)) fail(field, rangeRule("fraction", 0, 1, ofWhat, bounds), value);
  return value;
}

/** A finite number > 0, in `unit`. */
export function positive(field: string, value: unknown, unit = ""): number {
  return inRange(field, value, 0, Infinity, unit, "()");
}

/** A finite number >= 0, in `unit`. */
export function nonNegative(field: string, value: unknown, unit = ""): number {
  return inRange(field, value, 0, Infinity, unit, "[)");
}

/** A number in [min, max], in `unit`. */
export function within(field: string, value: unknown, min: number, max: number, unit = ""): number {
  return inRange(field, value, min, max, unit, "[]");
}

/** A plain object (options, a spec): not null, not an array. */
export function object<T extends object>(field: string, value: T | unknown, shape = ""): T {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(field, `must be an object${shape === "" ? "" : ` ${shape}`}`, value);
  return value as T;
}

/**
 * An object with no own key outside `known` (its options' or its shape's fields): a misspelt option would
 * otherwise leave its default in silence. Names the first stranger, and the key it most likely meant.
 * `what` says what a key is ("an option", "a state").
 */
export function knownKeys(owner: string, value: object, known: readonly string[], what = "an option"): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const meant = known.find((k) => k.toLowerCase() === key.toLowerCase());
    fail(`${owner}.${key}`, `is not ${what} (${meant === undefined ? known.join(", ") : `did you mean ${meant}?`})`, (value as Record<string, unknown>)[key]);
  }
}

/** Whether `value` can be walked with `for...of` (`null` and `undefined` cannot). */
export function isIterable(value: unknown): value is Iterable<unknown> {
  return value !== null && value !== undefined && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/** A non-empty string (an id, a team name). */
export function nonEmptyString(field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0) fail(field, "must be a non-empty string", value);
  return value;
}

/** A function; `signature` (e.g. `(x, y) => void`) says how it is called. */
export function func<F extends (...args: never[]) => unknown>(field: string, value: F | unknown, signature = ""): F {
  if (typeof value !== "function") fail(field, `must be a function${signature === "" ? "" : ` ${signature}`}`, value);
  return value as F;
}

/** One of a few literal values (`must be "load" or "rooms"`). */
export function oneOf<T extends string | number | boolean>(field: string, value: unknown, choices: readonly T[]): T {
  if (!choices.includes(value as T)) fail(field, `must be ${listChoices(choices)}`, value);
  return value as T;
}

function listChoices(choices: readonly unknown[]): string {
  const shown = choices.map((c) => (typeof c === "string" ? JSON.stringify(c) : String(c)));
  if (shown.length <= 2) return shown.join(" or ");
  return `one of ${shown.join(", ")}`;
}

function of(unit: string): string {
  return unit === "" ? "" : ` of ${unit}`;
}

function inside(v: number, min: number, max: number, bounds: Bounds): boolean {
  const low = bounds[0] === "[" ? v >= min : v > min;
  const high = bounds[1] === "]" ? v <= max : v < max;
  return low && high;
}

function rangeRule(noun: "number" | "fraction", min: number, max: number, unit: string, bounds: Bounds): string {
  const lowClosed = bounds[0] === "[";
  const highClosed = bounds[1] === "]";
  if (max === Infinity && min !== -Infinity) {
    const sign = lowClosed ? ">=" : ">";
    return highClosed ? `must be a ${noun} ${sign} ${min}${of(unit)} (Infinity allowed)` : `must be a finite ${noun} ${sign} ${min}${of(unit)}`;
  }
  if (min === -Infinity && max !== Infinity) {
    const sign = highClosed ? "<=" : "<";
    return lowClosed ? `must be a ${noun} ${sign} ${max}${of(unit)} (-Infinity allowed)` : `must be a finite ${noun} ${sign} ${max}${of(unit)}`;
  }
  return `must be a ${noun}${of(unit)} in ${bounds[0]}${min}, ${max}${bounds[1]}`;
}
