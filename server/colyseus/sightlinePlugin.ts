import { RoomPlugin, type Client, type Room } from "@colyseus/core";
import type { Schema } from "@colyseus/schema";
import { ViewCulling, type AuditCounts, type AuditOptions, type CullingReport } from "../culling/index.js";
import type { ClientViews } from "../culling/clientViews.js";
import { EverythingInView } from "../culling/everythingInView.js";
import { fail, nonEmptyString, object } from "../../shared/validation/rangeChecks.js";
import { CulledMessages } from "./culledMessages.js";
import { CulledNoises, type NoiseSendOptions } from "./culledNoises.js";
import type { Noise } from "../hearing/hearing.js";
import { LoopWatch } from "./loopWatch.js";
import { checkCullable, EntityRegistry } from "./entityRegistry.js";
import { ownerFields, sessionOf, type CulledSendOptions, type EntitySpec, type PluginRevealOptions, type SightlineCounters, type SpectateOptions } from "./pluginTypes.js";
import { hookRoom } from "./roomHooks.js";
import { RoundTrips } from "./roundTrips.js";
import { SessionViews } from "./sessionViews.js";
import { checkPluginOptions, DEFAULT_SIGHTLINE_OPTIONS, readFixedXY, readXY, rewindCapOf, type SightlineOptions } from "./sightlineOptions.js";
import { RewoundPoses } from "./rewoundPoses.js";
import { ViewUpdates } from "./viewUpdates.js";

/**
 * `sightline/colyseus`: anti-wallhack culling in your own Colyseus 0.18 room and schema. Each client's
 * `StateView` holds its character, its team, and what its team could see soon; nothing else reaches it,
 * and messages about an entity reach only the clients whose view holds it.
 *
 * ```ts
 * class ArenaRoom extends Room<{ state: Arena }> {
 *   plugins = definePlugins([new SightlinePlugin({ maxSpeed: 6 })]);
 *   onCreate() { this.plugins.sightline.start({ occluders }); }
 *   onJoin(client) {
 *     this.state.tanks.set(client.sessionId, tank);
 *     this.plugins.sightline.addEntity(client.sessionId, tank, { radius: 1, team, character: true });
 *     this.plugins.sightline.setCharacter(client, client.sessionId);
 *   }
 *   onLeave(client) {
 *     this.plugins.sightline.removeEntity(client.sessionId); // before it leaves the state
 *     this.state.tanks.delete(client.sessionId);
 *   }
 * }
 * ```
 *
 * You own the schema (entities in `.view()` collections), the simulation, and which entity each client
 * plays. The plugin owns each client's `client.view` (created on {@link setCharacter}, {@link spectate} or
 * {@link spectateAll}, kept through a drop and a reconnection, released when the client leaves), the round
 * trips (WebSocket pings, with the server's own loop stalls taken off), the look-ahead, linger, teleport,
 * reveal and team-change policy, owner-only and team-only fields ({@link SightlineOptions.ownerTag},
 * {@link SightlineOptions.teamTag}) and the culled messages ({@link sendToViewersOf}). Whatever you change
 * between two updates (a respawn in a message handler, a timer, a join) is settled before state next
 * leaves the room, patch or full state: it never reaches a client that could not see it.
 */
export class SightlinePlugin extends RoomPlugin {
  override readonly pluginName = "sightline" as const;

  private readonly defaults: SightlineOptions | undefined;
  /** The views, culled or not: the plugin drives both alike. */
  private views: ClientViews | null = null;
  /** The same object when culling is on, for the policy figures only `ViewCulling` has (see {@link culling}). */
  private culler: ViewCulling | null = null;
  private readonly entities = new EntityRegistry(readXY, readFixedXY);
  /** Each kept session's StateView, role and tags (set in {@link start}). */
  private sessions: SessionViews | null = null;
  private roundTrips: RoundTrips | null = null;
  private router: CulledMessages | null = null;
  private cycle: ViewUpdates | null = null;
  private noises: CulledNoises | null = null;
  private releaseWatch: (() => void) | undefined;
  private poses: RewoundPoses | undefined;

  /** @param options options known when the room class is written; {@link start} adds the rest */
  constructor(options?: Partial<SightlineOptions>) {
    super();
    if (options !== undefined) checkPluginOptions(options as SightlineOptions);
    this.defaults = options as SightlineOptions | undefined;
  }

  /**
   * Starts culling (call it in `onCreate`, once): `options` are merged over the constructor's. Throws a
   * RangeError naming the field for a missing or bad option (`occluders` and `maxSpeed` are required
   * unless `culling` is false).
   */
  start(options: Partial<SightlineOptions> = {}): void {
    if (this.views !== null) throw new Error("SightlinePlugin.start was already called in this room");
    const o = { ...this.defaults, ...options } as SightlineOptions;
    checkPluginOptions(o);
    const room = this.room;
    const manual = (o.update ?? DEFAULT_SIGHTLINE_OPTIONS.update) === "manual";
    let tickSeconds = o.tickSeconds;
    if (tickSeconds === undefined) {
      if (manual) fail("SightlineOptions.tickSeconds", 'is required with update "manual" (your simulation step, seconds)', tickSeconds);
      const patchMs = room.patchRate;
      if (typeof patchMs !== "number" || !(patchMs > 0)) fail("SightlineOptions.tickSeconds", "is required when the room has no patchRate", patchMs);
      tickSeconds = patchMs / 1000;
    }
    const sessions = new SessionViews(this.entities, () => this.views!, { owner: o.ownerTag, team: o.teamTag });
    const onAdd = (sessionId: string, id: string) => this.entered(sessionId, id);
    const onRemove = (sessionId: string, id: string) => sessions.left(sessionId, id);
    if (o.culling === false) this.views = new EverythingInView(onAdd, onRemove);
    else this.views = this.culler = new ViewCulling({ ...o, tickSeconds, maxSpeed: o.maxSpeed, onAdd, onRemove });
    this.sessions = sessions;
    this.entities.read = o.position ?? readXY;
    this.entities.readFixed = o.position ?? readFixedXY;
    const watch = LoopWatch.shared();
    this.releaseWatch = watch.acquire();
    this.roundTrips = new RoundTrips(o.pingIntervalMs ?? DEFAULT_SIGHTLINE_OPTIONS.pingIntervalMs, this.views.maxRoundTripMs, (id) => room.clients.getById(id), (from, to) => watch.blockedWithin(from, to), o.roundTrip);
    const router = (this.router = new CulledMessages({
      sessions: () => sessions.sessions.keys(),
      holds: (sessionId, id) => sessions.has(sessionId, id),
      clientOf: (sessionId) => room.clients.getById(sessionId),
    }));
    const noises = (this.noises = new CulledNoises(o, this.entities, sessions, (id) => room.clients.getById(id), () => this.views?.audit ?? null));
    const cycle = (this.cycle = new ViewUpdates(room as Room, this.views, this.entities, sessions, this.roundTrips, router, noises, manual, o.pauseUnheld ?? DEFAULT_SIGHTLINE_OPTIONS.pauseUnheld));
    // Views are decided and messages resolved just before each patch, and settled before any other send;
    // a leaving client is released before the room's own onLeave, so the room may remove its character there.
    hookRoom(room, {
      beforePatch: () => cycle.beforePatch(),
      beforeSend: () => cycle.beforeSend(),
      leave: (client) => this.release(client.sessionId),
      dispose: () => this.stop(),
    });
  }

  /**
   * The fairness mode's history (`SightlineOptions.seenOnScreen`, given to the constructor): made on first
   * use, in `onCreate` (it calls `allowRewindState`). Give it to a `SeenOnScreen`; record your observers'
   * poses in it each step. Throws a RangeError when the option was not given.
   */
  get shownPoses(): RewoundPoses {
    const o = this.defaults?.seenOnScreen;
    if (o === undefined) fail("SightlineOptions.seenOnScreen", "must be given to the plugin's constructor to record poses", o);
    return (this.poses ??= new RewoundPoses(this.room as Room, rewindCapOf(o), (id) => this.sessions?.playerOf(id)));
  }

  /** Whether culling is on (false: every view holds everything). */
  get enabled(): boolean {
    return this.views?.cullingEnabled ?? false;
  }

  /** The `ViewCulling` behind the views (linger, look-ahead, audit details), or null when culling is off or not started. */
  get culling(): ViewCulling | null {
    return this.culler;
  }

  /** How far characters see for culling, meters (Infinity when culling is off). */
  get range(): number {
    return this.started().range;
  }

  /** The truth audit's counts and last failures, or null when it is off. */
  get audit(): { readonly counts: AuditCounts; readonly failures: readonly string[] } | null {
    return this.views?.audit ?? null;
  }

  /**
   * Declares an entity: `instance` is its schema instance, already in a `.view()` collection of your
   * state (ids share one namespace across collections). Its position is read from the instance. Throws a
   * RangeError naming the field for a duplicate id or a bad spec, and naming the id and the fix for an
   * instance not in the state yet or not in a `.view()` collection; nothing changes then.
   */
  addEntity(id: string, instance: Schema, spec: EntitySpec = {}): void {
    const views = this.started();
    nonEmptyString("SightlinePlugin.addEntity id", id);
    if (this.entities.has(id)) fail("SightlinePlugin.addEntity id", "is already an entity", id);
    checkCullable("SightlinePlugin.addEntity", id, instance);
    if (spec?.fixed !== undefined && typeof spec.fixed !== "boolean") fail("EntitySpec.fixed", "must be a boolean", spec.fixed);
    const at = this.entities.at;
    if (spec?.fixed === true) this.entities.readFixed(instance, at);
    else this.entities.read(instance, at);
    // Registered first: with culling off, views gain it during addEntity.
    const record = this.entities.add(id, instance, typeof spec?.team === "string" ? spec.team : undefined, spec?.character === true, spec?.fixed === true, at.x, at.y);
    try {
      views.addEntity(id, { radius: spec?.radius, team: spec?.team, character: spec?.character, sightRange: spec?.sightRange, x: at.x, y: at.y });
    } catch (err) {
      this.entities.remove(record);
      throw err;
    }
    this.sessions!.added(record);
  }

  /**
   * Tells the culling that the entity was put where its instance now says (a respawn, a portal, a blink)
   * rather than walked there at up to `maxSpeed`: the move is taken as a teleport (see
   * `ViewCulling.teleportEntity`). Call it when you move the instance, anywhere: in your step, a message
   * handler, a `this.clock` or native timer, `onJoin`. Before state next leaves the room (the next patch,
   * or a joining client's full state) every view that could not see the entity at its new spot lets it go,
   * so no client learns it. A move longer than `teleportDistance` counts as one anyway; a shorter one (a
   * player caught a step from its spawn) breaks the speed bound the look-ahead rests on unless declared,
   * and the audit reports the pop-ins it causes. Throws a RangeError for an unknown id.
   */
  teleported(id: string): void {
    this.started();
    const record = this.entities.get(id);
    if (record === undefined) fail("SightlinePlugin.teleported id", "is not an entity", id);
    record.teleported = true;
  }

  /**
   * Moves an entity to another team (or none; a character needs one). Its team-only fields leave its old
   * teammates' views at once; views its old team could not see it from let it go before state next leaves
   * the room; its new teammates gain it (and its team-only fields) at the next update.
   */
  setTeam(id: string, team: string | undefined): void {
    this.started().setTeam(id, team);
    const record = this.entities.get(id);
    if (record !== undefined && record.team !== team) this.sessions!.teamChanged(record, team);
  }

  /**
   * Shows an entity to clients whatever their sight says, from the next update: to every client (no
   * `team` or `client`), to a `team`'s clients, or to one `client`; for `seconds`, or until
   * {@link conceal}. A flag carrier, a radar ping, a "spotted" mark, an objective. Look-ahead does not
   * apply; linger does: it leaves `lingerSeconds` after the reveal ends, unless it qualifies otherwise.
   * Revealing it again to the same audience extends the reveal. A caster sees everything already.
   * Throws a RangeError naming the field for an unknown entity or client, both `team` and `client`, or
   * `seconds` that is not > 0.
   */
  reveal(entityId: string, options: PluginRevealOptions = {}): void {
    const views = this.started();
    if (!this.entities.has(entityId)) fail("SightlinePlugin.reveal entityId", "is not an entity", entityId);
    const o = object<PluginRevealOptions>("RevealOptions", options);
    const client = sessionOf(o.client);
    if (client !== undefined && this.sessions!.sessions.get(client)?.role === "caster") return;
    views.reveal(entityId, { team: o.team, client, seconds: o.seconds });
  }

  /** Ends an entity's reveals early: to `team`, to `client`, or all of them. Returns how many ended. */
  conceal(entityId: string, options: Omit<PluginRevealOptions, "seconds"> = {}): number {
    const o = object<PluginRevealOptions>("RevealTarget", options);
    return this.started().conceal(entityId, { team: o.team, client: sessionOf(o.client) });
  }

  /**
   * Removes an entity: every view lets it go now, so call it before you delete it from your state. Throws
   * a RangeError if a client still plays it (give that client another character first). Unknown ids are ignored.
   */
  removeEntity(id: string): void {
    const record = this.entities.get(id);
    if (record === undefined) return;
    this.started().removeEntity(id);
    this.sessions!.removing(record);
    this.entities.remove(record);
    this.router!.dropEntity(id);
  }

  /**
   * The client plays `characterId` (a character entity): on the first call the client gets its
   * `StateView` (yours, if you set `client.view` already), holding its character and its team now and
   * what its team could see from the next update. Later calls switch characters, owner tag included.
   * One player per character: throws a RangeError for a character another client plays (to watch it,
   * {@link spectate}).
   */
  setCharacter(client: Client, characterId: string): void {
    this.started();
    this.sessions!.follow(client, characterId, "player", true, "SightlinePlugin.setCharacter");
    this.roundTrips!.watch(client.sessionId);
  }

  /**
   * The client watches `characterId` without playing it: its view follows that character's team (what the
   * team knows, team-only fields included), but holds the character's owner-only fields only with
   * `ownerFields: true`. For a spectator of one player, a teammate's killcam, a coach. Its round trip
   * sizes the team's look-ahead like a player's. Call again to watch another; {@link setCharacter} to play.
   */
  spectate(client: Client, characterId: string, options: SpectateOptions = {}): void {
    this.started();
    this.sessions!.follow(client, characterId, "spectator", ownerFields(options), "SightlinePlugin.spectate");
    this.roundTrips!.watch(client.sessionId);
  }

  /**
   * The client sees everything: every entity, the team-only fields of every team, and owner-only fields
   * with `ownerFields: true`. For a trusted caster or an admin: never for a player, and never live to an
   * audience (anyone watching a live caster view can relay it to a player: stream it behind a delay).
   * It receives every culled message. Outside the culling: it neither sizes a look-ahead nor is audited.
   */
  spectateAll(client: Client, options: SpectateOptions = {}): void {
    this.started();
    const granted = ownerFields(options);
    this.roundTrips!.unwatch(client.sessionId);
    this.sessions!.watchAll(client, granted);
  }

  /** Stops keeping a client's view (done for you when it leaves). Its `client.view` stays as it is. */
  release(sessionId: string): void {
    if (this.sessions?.release(sessionId) === undefined) return;
    this.roundTrips?.unwatch(sessionId);
    this.router?.forget(sessionId);
  }

  /** Whether the client's view holds `entityId` now. */
  has(client: Client | string, entityId: string): boolean {
    return this.sessions?.has(sessionOf(client)!, entityId) ?? false;
  }

  /** The entity ids the client's view holds now (a copy). */
  viewOf(client: Client | string): string[] {
    const sessionId = sessionOf(client)!;
    if (this.sessions?.sessions.get(sessionId)?.role === "caster") return this.entities.all().map((r) => r.id);
    return this.views?.viewOf(sessionId) ?? [];
  }

  /**
   * Starts the truth audit now, if it is not on (see `audit` in {@link SightlineOptions}): for a test
   * harness that audits a room built without it (`sightline/testing`). Throws a RangeError with culling off.
   */
  startAudit(options?: AuditOptions): void {
    this.started().startAudit(options);
    this.noises!.auditSample = options?.sample ?? 1;
  }

  /**
   * Sends a message about an entity (a shot, a sound, an effect) to the clients whose view holds it when
   * the next patch goes out, right after that patch. With several ids, a client needs all of them in view.
   * A client whose view gains the entity later does not get it, unless `catchUpSeconds` says otherwise.
   * Throws a RangeError for an id that is not an entity.
   */
  sendToViewersOf(about: string | readonly string[], type: string | number, payload?: unknown, options: CulledSendOptions = {}): void {
    this.started();
    this.router!.sendAbout(about, type, payload, options, (id) => this.entities.has(id));
  }

  /**
   * Sends a noise (a footstep, a shot, a thud) to the clients whose character, or a teammate, could hear
   * it through the level (see `Hearing` in `sightline`), as `type`, a {@link HeardNoiseMessage}, right
   * after the next patch. A client whose view then holds the emitter is told who and where; any other
   * only how loud and from which way. The emitter's own team is not told unless `toEmitterTeam`. A
   * caster hears every noise as it was. The truth audit checks the
   * deliveries (sound leaks). Throws a RangeError naming the field for a malformed noise or an emitter
   * that is not an entity; nothing is queued then.
   */
  sendNoise(noise: Noise, type: string | number, options?: NoiseSendOptions): void {
    this.started();
    this.noises!.send(noise, type, options);
  }

  /**
   * A broadcast that respects views: with `about`, like {@link sendToViewersOf}; without, to every
   * client (nothing in it is culled), after the next patch like the culled ones, so it never overtakes them.
   */
  broadcast(type: string | number, payload?: unknown, options: CulledSendOptions & { about?: string | readonly string[] } = {}): void {
    if (options.about !== undefined) {
      this.sendToViewersOf(options.about, type, payload, options);
      return;
    }
    this.room.broadcast(type, payload, { except: options.except as Client | Client[] | undefined, afterNextPatch: true });
  }

  /**
   * Brings every view up to date: positions are read from the schema instances, round trips applied,
   * `view.add`/`view.remove` called. Automatic before each patch unless `update` is `"manual"`; then call
   * it once per step, after physics. A position that is not finite keeps the entity where it was and
   * throws a RangeError naming it, after every other entity was updated. The report is reused: read it
   * before the next call.
   */
  update(): Readonly<CullingReport> {
    this.started();
    return this.cycle!.update();
  }

  /** Counters since the room started (a copy). */
  get counters(): SightlineCounters {
    const views = this.views;
    const totals = views?.totals ?? { adds: 0, removes: 0 };
    const c = this.cycle?.counts ?? { updates: 0, lastUpdateMs: 0, churnMaxPerClient: 0, badPositions: 0, settles: 0, settled: 0 };
    return {
      clients: this.sessions?.sessions.size ?? 0,
      entities: this.entities.size,
      adds: totals.adds,
      removes: totals.removes,
      churnMaxPerClient: c.churnMaxPerClient,
      updates: c.updates,
      lastUpdateMs: c.lastUpdateMs,
      audit: views?.audit === null || views === null ? null : { ...views.audit.counts },
      roundTrips: this.roundTrips?.counts(this.sessions?.sessions.keys() ?? [][Symbol.iterator]()) ?? { p50: 0, max: 0, measured: 0, capped: 0 },
      messages: { ...(this.router?.counts ?? { sent: 0, withheld: 0, caughtUp: 0 }) },
      noises: { ...(this.noises?.counts ?? { noises: 0, delivered: 0, named: 0 }) },
      badPositions: c.badPositions,
      settles: c.settles,
      settled: c.settled,
    };
  }

  /** Stops the timers and the culling (the room is going away). */
  private stop(): void {
    this.roundTrips?.dispose();
    this.releaseWatch?.();
    this.releaseWatch = undefined;
    this.views?.dispose();
  }

  private started(): ClientViews {
    if (this.views === null) throw new Error("SightlinePlugin: call this.plugins.sightline.start(...) in onCreate first");
    return this.views;
  }

  private entered(sessionId: string, id: string): void {
    this.sessions!.entered(sessionId, id);
    this.router?.entered(sessionId, id, performance.now());
  }
}
