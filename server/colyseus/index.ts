/**
 * `sightline/colyseus`: anti-wallhack culling as a Colyseus 0.18 room plugin. Add a `SightlinePlugin`
 * to your room with `definePlugins`, declare your entities and each client's character, and every
 * client's `StateView` holds only what its team could see soon; `sendToViewersOf` culls messages alike.
 */
export { SightlinePlugin } from "./sightlinePlugin.js";
export type { EntitySpec, CulledSendOptions, SightlineCounters } from "./pluginTypes.js";
export { DEFAULT_SIGHTLINE_OPTIONS, type SightlineOptions, type Position } from "./sightlineOptions.js";
export type { RoundTripCounts } from "./roundTrips.js";
export type { MessageCounts } from "./culledMessages.js";
