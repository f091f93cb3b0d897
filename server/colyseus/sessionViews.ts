// The plugin's sessions: each client's StateView, what it is to the room (a player, a spectator of one
// character, a caster who sees everything) and the view tags it holds. Kept apart from the plugin facade
// because it is the one place that calls `view.add` and `view.remove`: whoever changes what a client
// receives goes through here.
import type { Client } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import type { ClientViews } from "../culling/clientViews.js";
import { fail } from "../../shared/validation/rangeChecks.js";
import { isShipped, type EntityRecord, type EntityRegistry } from "./entityRegistry.js";

/** What a session is to the room. @internal */
export type SessionRole = "player" | "spectator" | "caster";

/** One client the plugin keeps a view for. @internal */
export interface Session {
  readonly id: string;
  readonly view: StateView;
  role: SessionRole;
  /** The character its view follows (a player's or a spectator's); undefined for a caster. */
  character: string | undefined;
  /** Whether it holds owner-only fields: of its character (players always), or of every character (a caster granted them). */
  ownerFields: boolean;
  /** Entities its view holds with the team tag (players and spectators). */
  readonly teamTagged: Set<string>;
}

/** The view tags of a room: owner-only and team-only fields (undefined: that kind is not used). @internal */
export interface ViewTags {
  owner: number | undefined;
  team: number | undefined;
}

/**
 * The sessions of one room and their StateViews. Players and spectators follow a character through the
 * culling (`ClientViews`); a caster's view holds every entity, outside the culling. Owner-only fields go to
 * a character's player, to a spectator or caster only when granted; team-only fields go to the views
 * of the entity's teammates (and to casters), and leave an old teammate's view the moment the entity or
 * the viewer changes team, before any further send.
 * @internal
 */
export class SessionViews {
  readonly sessions = new Map<string, Session>();
  /** Character id -> the session playing it (one player per character). */
  private readonly players = new Map<string, string>();
  /** Some team or character changed: views may lack team tags they now deserve. */
  private tagsStale = false;

  /** The session playing character `id`, if a client plays it. */
  playerOf(id: string): string | undefined {
    return this.players.get(id);
  }

  constructor(
    private readonly entities: EntityRegistry,
    private readonly views: () => ClientViews,
    private readonly tags: ViewTags,
  ) {}

  /** The culling's listener: `id` entered the view of `sessionId`. */
  entered(sessionId: string, id: string): void {
    const session = this.sessions.get(sessionId);
    const record = this.entities.get(id);
    if (session === undefined || record === undefined) return;
    this.hold(record);
    session.view.add(record.instance);
    if (this.tags.team !== undefined && record.team !== undefined && record.team === this.teamOf(session)) {
      session.view.add(record.instance, this.tags.team);
      session.teamTagged.add(id);
    }
  }

  /** The culling's listener: `id` left the view of `sessionId` (every tag of it goes too). */
  left(sessionId: string, id: string): void {
    const session = this.sessions.get(sessionId);
    const record = this.entities.get(id);
    if (session === undefined || record === undefined) return;
    session.view.remove(record.instance);
    session.teamTagged.delete(id);
    record.holders--;
  }

  /**
   * The client follows `characterId` as its player (`role` "player") or as a spectator. Creates its view on
   * the first call (adopting a `client.view` already set), and moves the owner tag. Throws a RangeError
   * for a character another client plays, when `role` is "player".
   */
  follow(client: Client, characterId: string, role: "player" | "spectator", ownerFields: boolean, method: string): Session {
    const sessionId = client.sessionId;
    const record = this.entities.get(characterId);
    if (record === undefined) fail(`${method} characterId`, "is not an entity", characterId);
    // Checked before anything changes: the culling would refuse it only after a caster's view was emptied.
    if (!record.character) fail(`${method} characterId`, "is not a character (add it with character: true and a team)", characterId);
    const player = this.players.get(characterId);
    if (role === "player" && player !== undefined && player !== sessionId) {
      fail(`${method} characterId`, `is played by client ${JSON.stringify(player)}: watch it with spectate(client, id), or give that client another character first`, characterId);
    }
    let session = this.sessions.get(sessionId);
    if (session !== undefined && session.role === "caster") {
      this.sessions.delete(sessionId);
      for (const r of this.entities.all()) {
        session.view.remove(r.instance);
        r.holders--;
      }
      session = undefined;
    }
    const views = this.views();
    const previous = session?.character;
    const hadOwnerFields = session?.ownerFields ?? false;
    if (session === undefined) {
      session = { id: sessionId, view: (client.view as StateView | undefined) ?? new StateView(), role, character: characterId, ownerFields, teamTagged: new Set() };
      this.sessions.set(sessionId, session);
      try {
        views.addClient(sessionId, characterId);
      } catch (err) {
        this.sessions.delete(sessionId);
        throw err;
      }
      client.view = session.view;
    } else {
      views.setCharacter(sessionId, characterId);
      session.character = characterId;
      session.role = role;
      session.ownerFields = ownerFields;
    }
    if (previous !== undefined && this.players.get(previous) === sessionId) this.players.delete(previous);
    if (role === "player") this.players.set(characterId, sessionId);
    this.moveOwnerTag(session, previous, hadOwnerFields, record);
    if (previous !== characterId) this.retag(session);
    return session;
  }

  /** The client watches everything: a view of every entity, team-only fields of every team, owner-only ones when granted. */
  watchAll(client: Client, ownerFields: boolean): Session {
    const sessionId = client.sessionId;
    let session = this.sessions.get(sessionId);
    if (session !== undefined && session.role !== "caster") {
      // A player or spectator turned caster keeps no owner tag it is not granted now.
      const old = session.character === undefined ? undefined : this.entities.get(session.character);
      if (old !== undefined && session.ownerFields && !ownerFields && this.tags.owner !== undefined) session.view.remove(old.instance, this.tags.owner);
      this.release(sessionId);
    }
    session = this.sessions.get(sessionId);
    const view = session?.view ?? (client.view as StateView | undefined) ?? new StateView();
    session = { id: sessionId, view, role: "caster", character: undefined, ownerFields, teamTagged: new Set() };
    this.sessions.set(sessionId, session);
    client.view = view;
    for (const record of this.entities.all()) this.showToCaster(session, record);
    return session;
  }

  /** Forgets a session (it left, or the room releases it): a culled one leaves the culling. */
  release(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return undefined;
    // What its view held is held by one view fewer (the culling does not announce a removed client's entities).
    const views = this.views();
    for (const r of this.entities.all()) if (session.role === "caster" || views.has(sessionId, r.id)) r.holders--;
    this.sessions.delete(sessionId);
    if (session.role !== "caster") views.removeClient(sessionId);
    if (session.character !== undefined && this.players.get(session.character) === sessionId) this.players.delete(session.character);
    return session;
  }

  /** A new entity: every caster sees it at once (culled views gain it through the culling). */
  added(record: EntityRecord): void {
    for (const session of this.sessions.values()) if (session.role === "caster") this.showToCaster(session, record);
  }

  /** An entity is about to leave the state: casters let it go (culled views did, through the culling). */
  removing(record: EntityRecord): void {
    // Left in the state by a room that only stops culling it, it must record its changes again.
    if (record.paused) {
      record.paused = false;
      record.instance.resumeTracking();
    }
    for (const session of this.sessions.values()) {
      if (session.role === "caster") {
        session.view.remove(record.instance);
        record.holders--;
      }
      session.teamTagged.delete(record.id);
    }
  }

  /**
   * An entity moved to another team: it leaves at once the team tags of views whose team it is no longer
   * on, and if it is some view's character, that view's old teammates leave its team tags too. Tags the
   * new team deserves come with the next {@link retagAll}.
   */
  teamChanged(record: EntityRecord, team: string | undefined): void {
    record.team = team;
    const tag = this.tags.team;
    if (tag === undefined) return;
    for (const session of this.sessions.values()) {
      if (session.role === "caster") continue;
      if (session.character === record.id) {
        this.retag(session);
        continue;
      }
      if (session.teamTagged.has(record.id) && this.teamOf(session) !== team) {
        session.view.remove(record.instance, tag);
        session.teamTagged.delete(record.id);
      }
    }
    this.tagsStale = true;
  }

  /** Gives every view the team tags it now deserves, if a team or a character changed since the last call. */
  retagAll(): void {
    if (!this.tagsStale) return;
    this.tagsStale = false;
    const tag = this.tags.team;
    if (tag === undefined) return;
    const views = this.views();
    for (const session of this.sessions.values()) {
      const team = this.teamOf(session);
      if (session.role === "caster" || team === undefined) continue;
      for (const record of this.entities.all()) {
        if (record.team !== team || session.teamTagged.has(record.id) || !views.has(session.id, record.id)) continue;
        session.view.add(record.instance, tag);
        session.teamTagged.add(record.id);
      }
    }
  }

  /** Whether the session's view holds the entity now. */
  has(sessionId: string, entityId: string): boolean {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return false;
    return session.role === "caster" ? this.entities.has(entityId) : this.views().has(sessionId, entityId);
  }

  /** The team of a session's character (undefined for a caster). */
  teamOf(session: Session): string | undefined {
    return session.character === undefined ? undefined : this.entities.get(session.character)?.team;
  }

  /** Moves the owner tag from the old character to the new one, as far as the session is granted it. */
  private moveOwnerTag(session: Session, previous: string | undefined, hadOwnerFields: boolean, record: EntityRecord): void {
    const tag = this.tags.owner;
    if (tag === undefined) return;
    if (previous !== undefined && hadOwnerFields && (previous !== record.id || !session.ownerFields)) {
      const old = this.entities.get(previous);
      if (old !== undefined) session.view.remove(old.instance, tag);
    }
    if (session.ownerFields && (previous !== record.id || !hadOwnerFields)) session.view.add(record.instance, tag);
  }

  /** The session's team changed: team tags of entities not on its new team leave now; the new ones come with {@link retagAll}. */
  private retag(session: Session): void {
    const tag = this.tags.team;
    if (tag === undefined) return;
    const team = this.teamOf(session);
    for (const id of session.teamTagged) {
      const record = this.entities.get(id);
      if (record === undefined || record.team === team) continue;
      session.view.remove(record.instance, tag);
      session.teamTagged.delete(id);
    }
    this.tagsStale = true;
  }

  /**
   * Stops recording the schema changes of entities no view holds: every write to one of them was recorded
   * for a patch no client would receive any of, and each view's encode walked past it. The first view to
   * hold it again gets it whole, from its live fields, as for any entity entering a view; its recording
   * resumes first. An entity is paused only once it has been through a patch (Colyseus ships a new one from
   * what it recorded), and only when no session holds it by the culling's own word, not only by the count.
   */
  pauseUnheld(): void {
    const records = this.entities.all();
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      if (r.paused || r.holders > 0 || !isShipped(r.instance) || this.anyHolds(r)) continue;
      r.instance.pauseTracking();
      r.paused = true;
    }
  }

  /** A view is about to hold the entity: its changes are recorded again before the view takes it. */
  private hold(record: EntityRecord): void {
    record.holders++;
    if (!record.paused) return;
    record.paused = false;
    record.instance.resumeTracking();
  }

  /** Whether some session's view holds the entity now (a caster's holds all). */
  private anyHolds(record: EntityRecord): boolean {
    if (record.holders < 0) record.holders = 0;
    const views = this.views();
    for (const session of this.sessions.values()) if (session.role === "caster" || views.has(session.id, record.id)) return true;
    return false;
  }

  private showToCaster(session: Session, record: EntityRecord): void {
    this.hold(record);
    session.view.add(record.instance);
    if (this.tags.team !== undefined && record.team !== undefined) session.view.add(record.instance, this.tags.team);
    if (this.tags.owner !== undefined && session.ownerFields) session.view.add(record.instance, this.tags.owner);
  }
}
