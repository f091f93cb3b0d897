// The one interface per-client views are driven through, culling on (`ViewCulling`) or off
// (`EverythingInView`). Its own file so the two siblings implement it side by side, and so whoever drives
// them (the Colyseus plugin) names neither where it does not choose between them.
import type { AuditCounts } from "./cullingAudit.js";
import type { AuditOptions, CullingEntity, CullingReport, RevealOptions, RevealTarget } from "./viewCullingOptions.js";

/**
 * Which entities each client may receive, kept up to date as entities move: the surface a server
 * drives, whether culling is on or off. Everything that differs between the two is behind it: the
 * {@link cullingEnabled} flag, and figures that culling off reports as nothing to measure (an infinite
 * range, no round-trip cap, no audit, zero pairs tested). Not exported by `sightline/culling` (the
 * plugin is its only driver), yet not fenced as internal: `ViewCulling`'s published declaration names it.
 */
export interface ClientViews {
  /** Whether views are culled: false when every view holds every entity. */
  readonly cullingEnabled: boolean;
  /** How far characters could see for culling now, meters (Infinity when culling is off). */
  readonly range: number;
  /** Round trips are capped at this, ms (0 when culling is off: no look-ahead depends on them). */
  readonly maxRoundTripMs: number;
  /** The truth audit's counts and its last failures, or null when it is off (always, with culling off). */
  readonly audit: { readonly counts: AuditCounts; readonly failures: readonly string[] } | null;
  /** Totals of view changes since construction: adds, removes, and client-updates counted. */
  readonly totals: { adds: number; removes: number; clientUpdates: number };
  addEntity(id: string, entity: CullingEntity): void;
  moveEntity(id: string, x: number, y: number): void;
  teleportEntity(id: string, x: number, y: number): void;
  setTeam(id: string, team: string | undefined): void;
  removeEntity(id: string): void;
  addClient(clientId: string, characterId: string): void;
  removeClient(clientId: string): boolean;
  setCharacter(clientId: string, characterId: string): void;
  setRoundTrip(clientId: string, roundTripMs: number | undefined, actualMs?: number): void;
  reveal(entityId: string, options?: RevealOptions): void;
  conceal(entityId: string, options?: RevealTarget): number;
  /** Before a send between two updates: applies at once what must not wait (teleports, team changes). */
  settle(): number;
  startAudit(options?: AuditOptions): void;
  /** Brings every view up to date. The report is reused: read it before the next call. */
  update(): CullingReport;
  has(clientId: string, entityId: string): boolean;
  viewOf(clientId: string): string[];
  dispose(): void;
}
