/**
 * `sightline/culling`: game-agnostic anti-wallhack culling. You say where entities and occluders are and
 * which character each client plays; it says which entity ids each client's view gains and loses, with
 * the look-ahead, linger and teleport policy built in, and can audit itself against exact sight.
 */
export { ViewCulling } from "./viewCulling.js";
export {
  DEFAULT_CULLING_OPTIONS,
  type ViewCullingOptions, type CullingEntity, type CullingReport, type ViewListener, type AuditOptions,
  type RevealOptions, type RevealTarget,
} from "./viewCullingOptions.js";
export type { AuditCounts } from "./cullingAudit.js";
export { NoiseDelivery, NOISE_LEVEL_STEPS, NOISE_DIRECTION_STEPS, type HeardNoiseMessage, type NoiseListener } from "./noiseDelivery.js";
/** @internal The truth audit's check of delivered noises, for benches and tests that deliver without the plugin. */
export { SoundAudit } from "./soundAudit.js";
export { madeAtEmitter, SPOT_WITHIN_METERS } from "./soundAudit.js";
