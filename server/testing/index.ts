/**
 * `sightline/testing`: prove in your own CI that your game does not leak. A raw-frame recorder for
 * `@colyseus/sdk` clients with byte-level absence and presence checks (an entity id, a string, a number
 * as the wire encodes it), a latency proxy, and the culling's truth audit run on your own room with bots.
 * Node only; for tests, never for a game server.
 */
export { FrameRecorder } from "./frameRecorder.js";
export { encoded, type Needle, type NumberEncoding } from "./needles.js";
export { LatencyProxy } from "./latencyProxy.js";
export { auditWithBots, AuditFailure, type BotAuditOptions, type BotAuditReport } from "./botAudit.js";
