import type { Occluders } from "../occluders/occluders.js";
import { fail, finite, inRange, nonEmptyString, nonNegative, object } from "../../shared/validation/rangeChecks.js";
import type { ClientViews } from "./clientViews.js";
import { auditSample, cullingSettings } from "./cullingSettings.js";
import { CullingAudit, type AuditCounts } from "./cullingAudit.js";
import { PotentialSight } from "./potentialSight.js";
import { audienceOf, Reveals } from "./reveals.js";
import { TeamLookaheads } from "./teamLookaheads.js";
import { ViewKeeper } from "./viewKeeper.js";
import type { AuditOptions, CullingEntity, CullingReport, RevealOptions, RevealTarget, ViewCullingOptions } from "./viewCullingOptions.js";

/**
 * Anti-wallhack culling for any game: decides, per client, which entities it may receive. Each client's
 * view holds its own character, everything on its team, and every entity its team's characters could
 * see soon; nothing else, so a hacked client has nothing to reveal. Game-agnostic: you tell it where
 * things are, it tells you what to add to and remove from each client's view (with Colyseus, a
 * `StateView`). Imports no networking code.
 *
 * "Could see soon" is exact geometry with a safety policy built in:
 * - **Look-ahead.** Both the character's eye and every target are grown by
 *   `min(maxLookahead, maxSpeed x (roundTrip / 2 + tickSeconds))` meters, so what walks into sight
 *   arrives before it is visible, however the client's latency goes (a team's slowest client decides).
 * - **Occluders one at a time.** Only a single occluder that hides the whole grown target from the
 *   whole grown eye hides it; in doubt, it sends.
 * - **Linger.** What stops qualifying leaves after `lingerSeconds`, not at once. **Range**: at least the
 *   longest `sightRange` of any entity.
 * - **Teleports.** An entity moved with {@link teleportEntity}, or farther than
 *   `2 x maxSpeed x tickSeconds` in one update, was put there (a respawn): it leaves the views it no
 *   longer qualifies for at once, since lingering would send its new, hidden spot.
 * - **Inside an occluder.** A character whose centre is inside a solid one sees out of it, as sight rays
 *   do; one inside a smoke cloud sees nothing out of it.
 * - **Changing occluders.** Doors, smoke and removals count from the next update, exactly: what a change
 *   reveals is in the views from then on, what it hides lingers.
 * - **Team changes** apply at once: a client keeps only what its new team qualifies for, and an entity
 *   that changes team leaves its old teammates' views that do not qualify for it.
 * - **Reveals.** {@link reveal} shows an entity whatever sight says, from the next update, until it ends.
 * - **Sends between updates.** Call {@link settle} just before each (see there).
 *
 * ```ts
 * const culling = new ViewCulling({
 *   occluders, tickSeconds: 1 / 20, maxSpeed: 6,
 *   onAdd: (clientId, id) => views.get(clientId)!.add(entityOf(id)),
 *   onRemove: (clientId, id) => views.get(clientId)!.remove(entityOf(id)),
 * });
 * culling.addEntity("guard-1", { x: 10, y: 4, radius: 0.4, sightRange: 12 });
 * culling.addEntity(sessionId, { x: 2, y: 2, radius: 0.4, team: "red", character: true });
 * culling.addClient(sessionId, sessionId);
 * // every tick, after physics:
 * culling.moveEntity(sessionId, x, y);
 * culling.update();
 * ```
 */
export class ViewCulling implements ClientViews {
  /** Always true: what tells it from culling turned off where either may drive the views. */
  readonly cullingEnabled = true;
  /** Meters per second the look-ahead and the teleport threshold assume. */
  readonly maxSpeed: number;
  /** Seconds per update. */
  readonly tickSeconds: number;
  /** Updates an entity lingers in a view after it stops qualifying. */
  readonly lingerTicks: number;
  /** Round trips are capped at this, ms. */
  readonly maxRoundTripMs: number;
  /** Ceiling of the look-ahead, meters. */
  readonly maxLookahead: number;
  /** One update's motion of the fastest mover, twice: farther than that in one update is a teleport. Meters. */
  readonly teleportDistance: number;
  private readonly baseRange: number;
  private readonly sight: PotentialSight;
  private readonly keeper: ViewKeeper;
  private auditor: CullingAudit | null = null;
  private readonly occluders: Occluders;
  private readonly lookaheads: TeamLookaheads;
  private readonly reveals = new Reveals();
  private readonly sightRanges = new Map<string, number>();
  private tick = 0;
  /** Something moved, changed team or took another character since the last update: a settle has work. */
  private touched = false;
  /** The occluders' version at the last update (or settle): a change since is news a settle must send. */
  private occluderVersion = -1;
  /** `sight.generationOf`, bound once: the reveals' expiry runs every update. */
  private readonly generationOf = (slot: number) => this.sight.generationOf(slot);
  private readonly report: CullingReport = { adds: 0, removes: 0, maxPerClient: 0, potentiallyVisible: 0, pairsTested: 0, occluderTests: 0, ms: 0 };

  /** Throws a RangeError naming the field for a missing, malformed or unsafe option. */
  constructor(options: ViewCullingOptions) {
    const settings = cullingSettings(options);
    ({ tickSeconds: this.tickSeconds, maxSpeed: this.maxSpeed, lingerTicks: this.lingerTicks, maxRoundTripMs: this.maxRoundTripMs } = settings);
    ({ maxLookahead: this.maxLookahead, teleportDistance: this.teleportDistance, range: this.baseRange, occluders: this.occluders } = settings);
    this.lookaheads = new TeamLookaheads(this.maxSpeed, this.tickSeconds, this.maxRoundTripMs, this.maxLookahead);
    this.sight = new PotentialSight(this.occluders, this.baseRange, this.teleportDistance);
    this.keeper = new ViewKeeper(this.sight, this.reveals, { lingerTicks: this.lingerTicks }, settings.onAdd, settings.onRemove);
    this.occluderVersion = this.occluders.version;
    if (settings.auditSample !== false) this.startAudit({ sample: settings.auditSample });
  }

  /** How far characters could see for culling now, meters: `range`, raised to the longest `sightRange`. */
  get range(): number {
    return this.sight.range;
  }

  /** Adds an entity. Throws a RangeError naming the field for a duplicate id or a bad spec; changes nothing then. */
  addEntity(id: string, entity: CullingEntity): void {
    nonEmptyString("ViewCulling.addEntity id", id);
    if (this.sight.has(id)) fail("ViewCulling.addEntity id", "is already an entity", id);
    object("CullingEntity", entity);
    const x = finite("CullingEntity.x", entity.x);
    const y = finite("CullingEntity.y", entity.y);
    const radius = entity.radius === undefined ? 0 : nonNegative("CullingEntity.radius", entity.radius, "meters");
    const team = entity.team === undefined ? undefined : nonEmptyString("CullingEntity.team", entity.team);
    if (entity.character !== undefined && typeof entity.character !== "boolean") fail("CullingEntity.character", "must be a boolean", entity.character);
    const character = entity.character === true;
    if (character && team === undefined) fail("CullingEntity.team", "is required for a character (the team it looks for)", undefined);
    const sightRange = entity.sightRange === undefined ? 0 : nonNegative("CullingEntity.sightRange", entity.sightRange, "meters");
    this.sight.addEntity(id, x, y, radius, team, character);
    if (sightRange > 0) {
      this.sightRanges.set(id, sightRange);
      this.syncRange();
    }
  }

  /** Moves an entity, meters. Throws a RangeError for an unknown id or a non-finite coordinate. */
  moveEntity(id: string, x: number, y: number): void {
    finitePosition("moveEntity", x, y);
    if (!this.sight.moveEntity(id, x, y)) fail("ViewCulling.moveEntity id", "is not an entity", id);
    this.touched = true;
  }

  /**
   * Moves an entity to (x, y), meters, and declares the move a teleport: a respawn, a portal, a blink,
   * anything that is not walking at up to `maxSpeed`. At the next update it leaves at once the views it no
   * longer qualifies for (lingering would send its new spot to clients that cannot see it there), and the
   * audit excuses the pop-ins it causes while the news travels: no look-ahead covers a jump. A move longer
   * than {@link teleportDistance} in one update counts as a teleport anyway; a shorter one (a player
   * caught a step from its spawn) counts only when declared, and undeclared it breaks the speed bound the
   * look-ahead rests on, which the audit reports as pop-ins. Throws a RangeError like {@link moveEntity}.
   */
  teleportEntity(id: string, x: number, y: number): void {
    finitePosition("teleportEntity", x, y);
    if (!this.sight.placeEntity(id, x, y)) fail("ViewCulling.teleportEntity id", "is not an entity", id);
    this.touched = true;
  }

  /**
   * Moves an entity to another team (or none; a character needs one). Clients whose character it is
   * follow: at the next update their views drop, at once, what the new team does not qualify for.
   */
  setTeam(id: string, team: string | undefined): void {
    if (!this.sight.has(id)) fail("ViewCulling.setTeam id", "is not an entity", id);
    if (team !== undefined) nonEmptyString("ViewCulling.setTeam team", team);
    else if (this.sight.isCharacter(id)) fail("ViewCulling.setTeam team", "is required for a character (the team it looks for)", team);
    if (this.sight.teamOf(id) === team) return;
    this.sight.setTeam(id, team);
    this.touched = true;
  }

  /**
   * Removes an entity: every view holding it lets it go now (`onRemove` is called before this returns,
   * so call it before you delete the entity from your own state). Unknown ids are ignored. Throws a
   * RangeError if a client still follows it as its character: remove the client or give it another first.
   */
  removeEntity(id: string): void {
    const slot = this.sight.slotOf(id);
    if (slot < 0) return;
    for (const clientId of this.keeper.clientIds()) {
      if (this.keeper.characterOf(clientId) === id) fail("ViewCulling.removeEntity id", `is the character of client ${JSON.stringify(clientId)}: remove that client or call setCharacter first`, id);
    }
    this.keeper.dropEntity(slot);
    this.reveals.remove(slot);
    this.sight.removeEntity(id);
    if (this.sightRanges.delete(id)) this.syncRange();
  }

  /**
   * Gives a client a view that follows `characterId` (a character entity). Its character and its team's
   * entities enter the view now; what the team could see enters at the next update. Throws a RangeError
   * for a client that already has a view or an id that is not a character.
   */
  addClient(clientId: string, characterId: string): void {
    nonEmptyString("ViewCulling.addClient clientId", clientId);
    if (this.lookaheads.has(clientId)) fail("ViewCulling.addClient clientId", "already has a view", clientId);
    this.checkCharacter("ViewCulling.addClient characterId", characterId);
    this.lookaheads.addClient(clientId, this.sight.slotOf(characterId));
    this.keeper.addClient(clientId, characterId);
    this.auditor?.addClient(clientId, characterId, this.maxRoundTripMs);
  }

  /**
   * Stops keeping a client's view (no `onRemove` calls: the view leaves with the client), and ends the
   * reveals made to it. To let a client reconnect, keep it instead, and give its new connection a view
   * holding {@link viewOf}.
   */
  removeClient(clientId: string): boolean {
    if (!this.lookaheads.removeClient(clientId)) return false;
    this.keeper.removeClient(clientId);
    this.reveals.removeClient(clientId);
    this.auditor?.removeClient(clientId);
    return true;
  }

  /** The client now follows another character (a respawn as a new entity, a spectator switching players). */
  setCharacter(clientId: string, characterId: string): void {
    if (!this.lookaheads.has(clientId)) fail("ViewCulling.setCharacter clientId", "has no view", clientId);
    this.checkCharacter("ViewCulling.setCharacter characterId", characterId);
    this.lookaheads.setCharacterSlot(clientId, this.sight.slotOf(characterId));
    this.keeper.setCharacter(clientId, characterId);
    this.auditor?.setCharacter(clientId, characterId);
    this.touched = true;
  }

  /**
   * A client's measured round trip, ms (undefined: unknown, counted as `maxRoundTripMs`). Sizes its team's
   * look-ahead from the next update. `actualMs` is for the audit only: the delay it assumes patches take
   * to reach the client (a test that simulates latency passes it; default the estimate). Unknown clients
   * are ignored (a measure may land after the client left).
   */
  setRoundTrip(clientId: string, roundTripMs: number | undefined, actualMs = roundTripMs): void {
    if (!this.lookaheads.has(clientId)) return;
    if (roundTripMs !== undefined) nonNegative("ViewCulling.setRoundTrip roundTripMs", roundTripMs, "milliseconds");
    this.lookaheads.setRoundTrip(clientId, roundTripMs);
    this.auditor?.setRoundTrip(clientId, actualMs ?? this.maxRoundTripMs);
  }

  /** The look-ahead (meters) a round trip (ms) buys: `min(maxLookahead, maxSpeed x (min(rtt, cap) / 2 + tickSeconds))`. */
  lookaheadFor(roundTripMs: number | undefined): number {
    return this.lookaheads.lookaheadFor(roundTripMs);
  }

  /**
   * Shows an entity whatever sight says, from the next update: to every client (no `team` or `client`), to
   * a `team`'s clients, or to one `client`; for `seconds` (rounded up to whole updates), or until
   * {@link conceal}. No look-ahead (it enters at the update the reveal starts); linger applies when it ends.
   * Revealing it again to the same audience extends it; the audit counts it allowed. Throws a RangeError
   * naming the field for an unknown entity, a client with no view, both `team` and `client`, or bad `seconds`.
   */
  reveal(entityId: string, options: RevealOptions = {}): void {
    const slot = this.sight.slotOf(entityId);
    if (slot < 0) fail("ViewCulling.reveal entityId", "is not an entity", entityId);
    const o = object<RevealOptions>("RevealOptions", options);
    const seconds = o.seconds === undefined ? Infinity : inRange("RevealOptions.seconds", o.seconds, 0, Infinity, "seconds", "(]");
    // A reveal to a team with no entity yet makes the team, so its first client finds the reveal.
    const [audience, team, client] = audienceOf("RevealOptions", o, (name) => this.sight.ensureTeam(name), (id) => this.lookaheads.has(id));
    const until = seconds === Infinity ? Infinity : this.tick + Math.max(1, Math.ceil(seconds / this.tickSeconds - 1e-9));
    this.reveals.add(slot, this.sight.generationOf(slot), audience, team, client, this.tick + 1, until);
  }

  /**
   * Ends an entity's reveals early: those to `team` or to `client`, or every reveal of it when neither is
   * given. The entity then lingers like anything that stops qualifying. Returns how many reveals ended; an
   * unknown entity or audience ends none.
   */
  conceal(entityId: string, options: RevealTarget = {}): number {
    const slot = this.sight.slotOf(entityId);
    if (slot < 0) return 0;
    const o = object<RevealTarget>("RevealTarget", options);
    if (o.team === undefined && o.client === undefined) return this.reveals.remove(slot);
    const [audience, team, client] = audienceOf("RevealTarget", o, (name) => this.sight.teamIndexOf(name));
    return audience === "team" && team < 0 ? 0 : this.reveals.remove(slot, audience, team, client);
  }

  /** Whether a reveal shows `entityId` to the client at the last update (or will from the next one, with `next`). */
  revealed(clientId: string, entityId: string, next = false): boolean {
    const slot = this.sight.slotOf(entityId);
    const character = this.keeper.characterOf(clientId);
    if (slot < 0 || character === undefined) return false;
    const team = this.sight.teamOfSlot(this.sight.slotOf(character));
    return this.reveals.shows(slot, this.sight.generationOf(slot), clientId, team, this.tick + (next ? 1 : 0));
  }

  /**
   * For a server that sends state between two updates (a handler, a timer or a join, while patches go out
   * on a timer of their own): call it just before each send. News since the update that may not wait is
   * applied at once: an entity teleported ({@link teleportEntity}, or farther than {@link teleportDistance})
   * or moved to another team leaves every view whose team could not potentially see it where it now is
   * (unless revealed there); a client whose character changed team or who took another keeps only what its
   * new team could see now, and gains its new team's own; after a change to the occluders (a door opened
   * in a handler) everything a team could see now enters its views, so what the change reveals goes out
   * with it. Nothing else enters, nothing lingers less, and time does not advance. Free when nothing of
   * that happened since the update. Audited when the audit is on. Returns how many entities left views.
   */
  settle(): number {
    const occludersChanged = this.occluders.version !== this.occluderVersion;
    if (!this.touched && !occludersChanged) return 0;
    const left = this.touched ? this.keeper.settle() : 0;
    if (occludersChanged) {
      this.keeper.admitSeenNow();
      this.occluderVersion = this.occluders.version;
    }
    this.auditor?.auditSend();
    return left;
  }

  /**
   * Starts the truth audit now, if it is not running (see {@link ViewCullingOptions.audit}): clients
   * already here are audited from now on (excused for their first delay, like a fresh join). For a test
   * harness that audits a room built without the option. Throws a RangeError for a bad `sample`.
   */
  startAudit(options: AuditOptions = {}): void {
    const sample = auditSample("AuditOptions.sample", options);
    if (this.auditor !== null) return;
    const auditor = new CullingAudit(this.occluders, this.sight, this.keeper, this.reveals, {
      tickSeconds: this.tickSeconds, lingerTicks: this.lingerTicks, teleportDistance: this.teleportDistance, sample,
    });
    for (const clientId of this.keeper.clientIds()) auditor.addClient(clientId, this.keeper.characterOf(clientId)!, this.lookaheads.roundTripOf(clientId) ?? this.maxRoundTripMs);
    this.auditor = auditor;
  }

  /**
   * After your simulation step: recomputes what each team could see soon and brings every view up to
   * date, calling `onAdd` and `onRemove`. Then audits, if asked to. The report is reused: read it before
   * the next call.
   */
  update(): CullingReport {
    const started = performance.now();
    const sight = this.sight;
    this.lookaheads.apply(sight);
    sight.update();
    this.reveals.expire(++this.tick, this.generationOf);
    const churn = this.keeper.update(this.tick);
    let potentiallyVisible = 0;
    for (let t = 0; t < sight.teamCount; t++) potentiallyVisible += sight.visibleCountOf(t);
    const r = this.report;
    r.adds = churn.adds;
    r.removes = churn.removes;
    r.maxPerClient = churn.maxPerClient;
    r.potentiallyVisible = potentiallyVisible;
    r.pairsTested = sight.pairsTested;
    r.occluderTests = sight.occluderTests;
    r.ms = performance.now() - started;
    this.touched = false;
    this.occluderVersion = this.occluders.version;
    this.auditor?.audit(this.tick);
    return r;
  }

  /** Whether the client's view holds `entityId` now. */
  has(clientId: string, entityId: string): boolean {
    return this.keeper.has(clientId, entityId);
  }

  /** The ids the client's view holds now (a copy), or an empty array for an unknown client. */
  viewOf(clientId: string): string[] {
    const view = this.keeper.viewOf(clientId);
    return view === undefined ? [] : [...view.keys()];
  }

  /** How many entities the client's view holds now. */
  viewSize(clientId: string): number {
    return this.keeper.viewSize(clientId);
  }

  /** Whether the client's team could potentially see `entityId` at the last update (linger not counted). */
  qualifies(clientId: string, entityId: string): boolean {
    const team = this.sight.teamOf(this.keeper.characterOf(clientId) ?? "");
    return team !== undefined && this.sight.sees(team, entityId);
  }

  /** The look-ahead (meters) of the client's team at the last update, or 0 for an unknown client. */
  lookaheadOf(clientId: string): number {
    const team = this.sight.teamOf(this.keeper.characterOf(clientId) ?? "");
    return team === undefined ? 0 : this.sight.lookahead(team);
  }

  /** Totals of view changes since construction: adds, removes, and client-updates counted. */
  get totals(): { adds: number; removes: number; clientUpdates: number } {
    const c = this.keeper.churn;
    return { adds: c.totalAdds, removes: c.totalRemoves, clientUpdates: c.clientUpdates };
  }

  /** The truth audit's counts and its last failures (details for a test message), or null when it is off. */
  get audit(): { readonly counts: AuditCounts; readonly failures: readonly string[] } | null {
    return this.auditor;
  }

  /** Releases its listeners on the occluders (its own and the audit's). The culling must not be used after. */
  dispose(): void {
    this.auditor?.dispose();
    this.sight.dispose();
  }

  private checkCharacter(field: string, id: string): void {
    if (!this.sight.has(id)) fail(field, "is not an entity", id);
    if (!this.sight.isCharacter(id)) fail(field, "is not a character (add it with character: true and a team)", id);
  }

  private syncRange(): void {
    let range = this.baseRange;
    for (const r of this.sightRanges.values()) if (r > range) range = r;
    this.sight.range = range;
  }
}

/** Refuses a position that is not two finite numbers, naming the method's field. */
function finitePosition(method: string, x: number, y: number): void {
  if (Number.isFinite(x) && Number.isFinite(y)) return;
  finite(`ViewCulling.${method} x`, x);
  finite(`ViewCulling.${method} y`, y);
}
