import type { AuditCounts } from "sightline/culling";

/** What one culling update did in a room. */
export interface RoomCullingReport {
  /** Entities that entered / left client views this update, over all clients; the largest per client. */
  adds: number;
  removes: number;
  maxPerClient: number;
  /** Entities potentially visible, summed over teams. */
  potentiallyVisible: number;
  /** Milliseconds spent deciding and keeping the views. */
  ms: number;
  /** The truth audit's totals so far, when it runs. */
  audit?: AuditCounts;
}

/**
 * How the stealth room decides what each client's view holds: culled (`StealthCulling`) or everything
 * (`EverythingVisible`, the baseline load tests compare culling with). The room drives both alike.
 */
export interface RoomCulling {
  /** False when every view holds everything. */
  readonly enabled: boolean;
  /** How far player characters see for culling, meters (Infinity when culling is off). */
  readonly range: number;
  /** The truth audit's counts and last failures, or null when it is off. */
  readonly audit: { readonly counts: AuditCounts; readonly failures: readonly string[] } | null;
  /** Gives a client the view of the player character `playerId` (already added to the simulation). */
  addClient(clientId: string, playerId: string): void;
  removeClient(clientId: string): void;
  /** A measured round trip, ms (undefined: not measured yet). `actualMs` is the audit's (tests simulate latency). */
  setRoundTrip(clientId: string, roundTripMs: number | undefined, actualMs?: number): void;
  /** Whether the client's view holds `entityId` now. */
  has(clientId: string, entityId: string): boolean;
  /** After a simulation step: positions in, views updated. */
  update(tick: number): RoomCullingReport;
  dispose(): void;
}
