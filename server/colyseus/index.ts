/**
 * `sightline/colyseus`: anti-wallhack culling as a Colyseus 0.18 room plugin. Add a `SightlinePlugin`
 * to your room with `definePlugins`, declare your entities and each client's character, and every
 * client's `StateView` holds only what its team could see soon (or was revealed to it); `sendToViewersOf`
 * culls messages alike, and `sendNoise` delivers a noise only to the clients whose team could hear it,
 * naming its emitter only to those whose view holds it. Spectators follow a character without its owner-only fields; casters see all.
 */
export { SightlinePlugin } from "./sightlinePlugin.js";
export type { RewoundPoses } from "./rewoundPoses.js";
export { fieldSlot, liveValues } from "./liveFields.js";
export type { EntitySpec, CulledSendOptions, SightlineCounters, PluginRevealOptions, SpectateOptions } from "./pluginTypes.js";
export { DEFAULT_SIGHTLINE_OPTIONS, type SightlineOptions, type Position } from "./sightlineOptions.js";
export type { RoundTripCounts } from "./roundTrips.js";
export type { MessageCounts } from "./culledMessages.js";
export type { AuditOptions } from "../culling/index.js";
export type { NoiseCounts, NoiseSendOptions } from "./culledNoises.js";
export type { HeardNoiseMessage } from "../culling/noiseDelivery.js";
