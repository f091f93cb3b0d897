// Culling turned off, as a sibling of `ViewCulling` behind the same `ClientViews`: kept in its own file
// because it shares none of the culling's machinery (no sight, no keeper, no audit), only its surface.
import { fail, nonEmptyString } from "../../shared/validation/rangeChecks.js";
import type { ClientViews } from "./clientViews.js";
import type { AuditCounts } from "./cullingAudit.js";
import type { AuditOptions, CullingEntity, CullingReport, RevealOptions, RevealTarget, ViewListener } from "./viewCullingOptions.js";

/**
 * Culling turned off (`culling: false`): every view holds every entity, as if the state were broadcast.
 * The baseline a studio measures culling against (bytes per client, CPU); never a choice for a game that
 * cares about wallhacks. The same {@link ClientViews} as `ViewCulling`, so the plugin runs both alike.
 * With everything in view there is nothing to leak or miss, so there is no audit, and no round trip
 * sizes anything.
 * @internal
 */
export class EverythingInView implements ClientViews {
  readonly cullingEnabled = false;
  readonly range = Infinity;
  readonly maxRoundTripMs = 0;
  readonly audit: { readonly counts: AuditCounts; readonly failures: readonly string[] } | null = null;
  private readonly entities = new Map<string, string | undefined>();
  private readonly clients = new Map<string, string>();
  private readonly report: CullingReport = { adds: 0, removes: 0, maxPerClient: 0, potentiallyVisible: 0, pairsTested: 0, occluderTests: 0, ms: 0 };
  private adds = 0;
  private removes = 0;
  private pendingAdds = 0;

  constructor(private readonly onAdd: ViewListener, private readonly onRemove: ViewListener) {}

  addEntity(id: string, entity: CullingEntity): void {
    nonEmptyString("ViewCulling.addEntity id", id);
    if (this.entities.has(id)) fail("ViewCulling.addEntity id", "is already an entity", id);
    if (entity.character === true && entity.team === undefined) fail("CullingEntity.team", "is required for a character (the team it looks for)", undefined);
    // As the culling checks it: a room that turns culling off must not take a team the culling refuses.
    if (entity.team !== undefined) nonEmptyString("CullingEntity.team", entity.team);
    this.entities.set(id, entity.character === true ? entity.team : undefined);
    for (const clientId of this.clients.keys()) this.add(clientId, id);
  }

  moveEntity(id: string, _x: number, _y: number): void {
    if (!this.entities.has(id)) fail("ViewCulling.moveEntity id", "is not an entity", id);
  }

  /** Every view holds every entity, so a teleport is just a move. */
  teleportEntity(id: string, _x: number, _y: number): void {
    if (!this.entities.has(id)) fail("ViewCulling.teleportEntity id", "is not an entity", id);
  }

  setTeam(id: string, team: string | undefined): void {
    if (!this.entities.has(id)) fail("ViewCulling.setTeam id", "is not an entity", id);
    if (team !== undefined) nonEmptyString("ViewCulling.setTeam team", team);
  }

  removeEntity(id: string): void {
    if (!this.entities.has(id)) return;
    for (const [clientId, characterId] of this.clients) {
      if (characterId === id) fail("ViewCulling.removeEntity id", `is the character of client ${JSON.stringify(clientId)}: remove that client or call setCharacter first`, id);
    }
    this.entities.delete(id);
    for (const clientId of this.clients.keys()) {
      this.removes++;
      this.onRemove(clientId, id);
    }
  }

  addClient(clientId: string, characterId: string): void {
    if (this.clients.has(clientId)) fail("ViewCulling.addClient clientId", "already has a view", clientId);
    this.checkCharacter("ViewCulling.addClient characterId", characterId);
    this.clients.set(clientId, characterId);
    for (const id of this.entities.keys()) this.add(clientId, id);
  }

  removeClient(clientId: string): boolean {
    return this.clients.delete(clientId);
  }

  setCharacter(clientId: string, characterId: string): void {
    if (!this.clients.has(clientId)) fail("ViewCulling.setCharacter clientId", "has no view", clientId);
    this.checkCharacter("ViewCulling.setCharacter characterId", characterId);
    this.clients.set(clientId, characterId);
  }

  /** Everything is shown already: a reveal only checks its entity. */
  reveal(entityId: string, _options?: RevealOptions): void {
    if (!this.entities.has(entityId)) fail("ViewCulling.reveal entityId", "is not an entity", entityId);
  }

  conceal(_entityId: string, _options?: RevealTarget): number {
    return 0;
  }

  /** Nothing is ever withheld, so nothing can wait. */
  settle(): number {
    return 0;
  }

  startAudit(_options?: AuditOptions): void {
    fail("ViewCulling.startAudit", "needs culling on: with every view holding everything there is nothing to leak", false);
  }

  /** Round trips do not matter when nothing is withheld. */
  setRoundTrip(_clientId: string, _roundTripMs: number | undefined, _actualMs?: number): void {}

  update(): CullingReport {
    this.report.adds = this.pendingAdds;
    this.report.maxPerClient = this.pendingAdds;
    this.report.potentiallyVisible = this.entities.size;
    this.pendingAdds = 0;
    return this.report;
  }

  has(clientId: string, entityId: string): boolean {
    return this.clients.has(clientId) && this.entities.has(entityId);
  }

  viewOf(clientId: string): string[] {
    return this.clients.has(clientId) ? [...this.entities.keys()] : [];
  }

  get totals(): { adds: number; removes: number; clientUpdates: number } {
    return { adds: this.adds, removes: this.removes, clientUpdates: 0 };
  }

  dispose(): void {}

  private add(clientId: string, id: string): void {
    this.adds++;
    this.pendingAdds++;
    this.onAdd(clientId, id);
  }

  private checkCharacter(field: string, id: string): void {
    if (!this.entities.has(id)) fail(field, "is not an entity", id);
    if (this.entities.get(id) === undefined) fail(field, "is not a character (add it with character: true and a team)", id);
  }
}
