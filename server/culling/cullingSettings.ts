import { Occluders } from "../occluders/occluders.js";
import { fail, fraction, func, inRange, nonNegative, object, positive, within } from "../../shared/validation/rangeChecks.js";
import { DEFAULT_CULLING_OPTIONS, type AuditOptions, type ViewCullingOptions, type ViewListener } from "./viewCullingOptions.js";

/**
 * A `ViewCullingOptions` checked, with its defaults filled in and what follows from it worked out once.
 * @internal
 */
export interface CullingSettings {
  readonly occluders: Occluders;
  /** Seconds per update. */
  readonly tickSeconds: number;
  /** Meters per second. */
  readonly maxSpeed: number;
  /** Meters. */
  readonly range: number;
  /** Updates an entity lingers after it stops qualifying: `lingerSeconds` rounded up to whole updates. */
  readonly lingerTicks: number;
  /** Milliseconds. */
  readonly maxRoundTripMs: number;
  /** Meters. */
  readonly maxLookahead: number;
  /** Meters: farther than any mover gets in an update, twice over. */
  readonly teleportDistance: number;
  readonly onAdd: ViewListener;
  readonly onRemove: ViewListener;
  /** The share of clients to audit from construction, or false for no audit. */
  readonly auditSample: number | false;
}

const none: ViewListener = () => {};

/**
 * Checks the options of a `ViewCulling`. Throws a RangeError naming the field for a missing, malformed or
 * unsafe option.
 * @internal
 */
export function cullingSettings(options: ViewCullingOptions): CullingSettings {
  object("ViewCullingOptions", options);
  if (!(options.occluders instanceof Occluders)) fail("ViewCullingOptions.occluders", "must be an Occluders (from sightline/occluders)", options.occluders);
  const tickSeconds = options.tickSeconds;
  inRange("ViewCullingOptions.tickSeconds", tickSeconds, 0, 1, "seconds", "(]");
  const maxSpeed = nonNegative("ViewCullingOptions.maxSpeed", options.maxSpeed, "meters per second");
  const d = DEFAULT_CULLING_OPTIONS;
  const range = positive("ViewCullingOptions.range", options.range ?? d.range, "meters");
  const lingerSeconds = within("ViewCullingOptions.lingerSeconds", options.lingerSeconds ?? d.lingerSeconds, 0, 10, "seconds");
  const maxRoundTripMs = within("ViewCullingOptions.maxRoundTripMs", options.maxRoundTripMs ?? d.maxRoundTripMs, 0, 2000, "milliseconds");
  const maxLookahead = nonNegative("ViewCullingOptions.maxLookahead", options.maxLookahead ?? d.maxLookahead, "meters");
  const oneTick = maxSpeed * tickSeconds;
  if (maxLookahead < oneTick) {
    fail("ViewCullingOptions.maxLookahead", `must cover at least one tick of motion, maxSpeed x tickSeconds = ${oneTick} m: with less, whatever walks into sight arrives late`, maxLookahead);
  }
  for (const name of ["onAdd", "onRemove"] as const) {
    if (options[name] !== undefined) func(`ViewCullingOptions.${name}`, options[name], "(clientId, entityId) => void");
  }
  const audit = options.audit ?? false;
  if (typeof audit !== "boolean" && (typeof audit !== "object" || audit === null)) fail("ViewCullingOptions.audit", "must be a boolean or { sample }", audit);
  return {
    occluders: options.occluders,
    tickSeconds,
    maxSpeed,
    range,
    lingerTicks: Math.ceil(lingerSeconds / tickSeconds - 1e-9),
    maxRoundTripMs,
    maxLookahead,
    // Farther than any mover gets in an update: a respawn, which must not linger (the audit's threshold too).
    teleportDistance: maxSpeed > 0 ? 2 * oneTick : Number.MIN_VALUE,
    onAdd: options.onAdd ?? none,
    onRemove: options.onRemove ?? none,
    auditSample: audit === false ? false : auditSample("ViewCullingOptions.audit.sample", audit === true ? {} : audit),
  };
}

/**
 * The audit's sample of clients, in (0, 1] (default 1). Throws a RangeError naming `field`.
 * @internal
 */
export function auditSample(field: string, options: AuditOptions): number {
  object(field.replace(/\.sample$/, ""), options, "{ sample? }");
  return fraction(field, options.sample ?? 1, "(]", "clients");
}
