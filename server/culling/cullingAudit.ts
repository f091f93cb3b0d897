import type { Occluders } from "../occluders/occluders.js";
import { VisionSystem } from "../vision/visionSystem.js";
import { HIDDEN_MARGIN } from "./pairVerdicts.js";
import type { PotentialSight } from "./potentialSight.js";
import { RecentOccluderChanges } from "./recentOccluderChanges.js";
import { Reveals } from "./reveals.js";
import type { ViewKeeper } from "./viewKeeper.js";
import type { AuditCounts } from "./auditCounts.js";

export type { AuditCounts } from "./auditCounts.js";

/** Options of a {@link CullingAudit}. @internal */
export interface CullingAuditOptions {
  /** Seconds per tick. */
  tickSeconds: number;
  /** The linger of the views audited, ticks. */
  lingerTicks: number;
  /**
   * Per-tick displacement (meters) beyond which an entity counts as teleported (a respawn), as does a
   * move declared a teleport however short: for the ticks its clients need to hear of it, pop-ins
   * involving it are not counted.
   */
  teleportDistance: number;
  /**
   * Fraction of clients audited, in (0, 1]; default 1. A client is in or out for its whole stay (pop-ins
   * need its history), picked evenly by join order. The oracle's cost grows with the clients audited.
   */
  sample?: number;
}

/** Longest one-way delay the history covers, ticks. */
const HISTORY = 30;

interface AuditedClient {
  character: string;
  /** The client's character at the last audit: another one since is news a send must not carry. */
  characterAtAudit: string;
  /** The character's team at the last audit: a change restarts the client's history. */
  team: string | undefined;
  /** Round-trip time the client really has, ms (the delay before a view reaches it is half of it). */
  roundTripMs: number;
  /** Entity id -> bit k set if the entity was in the view k ticks ago. */
  readonly history: Map<string, number>;
  /** Entity id -> bit k set if a reveal showed it to the client k ticks ago. */
  readonly revealed: Map<string, number>;
  joinedAt: number;
}

/**
 * The truth harness: every tick, compares what each client's view holds with exact oracles.
 *
 * - A **leak** is an entity in the view that is neither potentially visible to the client's team (the
 *   same disc-to-disc rule as `PotentialSight`, recomputed by brute force over every occluder, no grid, no
 *   cache) in any of the last `lingerTicks + 1` ticks, nor the client's own character or a teammate; or
 *   one still lingering after it teleported while not potentially visible (its new spot is news the
 *   client must not get).
 * - A **pop-in** is an entity the client's own character truly sees now (the vision engine's exact
 *   `check`: all around, the culling range, the entity's real body, three rays) that was not in the view
 *   the client has received by now: the view of `ceil(roundTrip / 2 / tick)` ticks ago, since a patch
 *   takes half a round trip to arrive. A client that just joined, or whose character just changed team,
 *   is excused for that long: nobody could have sent it earlier. When occluders changed near the two
 *   within that time (a door opened, a cloud thinned), the view must hold the entity from the latest such
 *   change on: the client learns of the change from the same patch, so what it reveals must come with it,
 *   never after. No change to the occluders is excused.
 * - A **miss** is an entity the oracle finds potentially visible now that the view lacks now, or one a
 *   reveal shows the client now that the view lacks.
 * - An entity a reveal shows the client counts as potentially visible for that tick: held then, or
 *   lingering after, it is no leak.
 * - **At a send between two updates** ({@link auditSend}), an entity in the view that teleported or changed
 *   team since the last update, or anything in the view of a client whose character changed team or who
 *   took another character since, must be potentially visible where it is now (or revealed): otherwise the
 *   send would carry its new spot to a client that could not see it there, a leak.
 *
 * Costly by design (exact rays and a brute-force oracle): tests run it every tick; a room runs it on a
 * sample of its clients when asked to.
 * @internal
 */
export class CullingAudit {
  readonly counts: AuditCounts = { leaks: 0, popIns: 0, misses: 0, clientTicks: 0, excused: 0, truthChecks: 0, oracleChecks: 0, sends: 0, soundLeaks: 0, soundsAudited: 0 };
  /** Details of the last few failures, for test messages. */
  readonly failures: string[] = [];
  private readonly truth: VisionSystem;
  private readonly clients = new Map<string, AuditedClient>();
  /** Where each entity was at the last audit, on which team, and the tick it last teleported. */
  private readonly lastAt = new Map<string, { x: number; y: number; team: string | undefined; teleportedAt: number }>();
  /** Entities registered in the truth engine. */
  private readonly known = new Set<string>();
  /** (team, entity) -> the tick of the oracle's answer this tick (times 2) plus the answer (1: sees). */
  private readonly oracleMemo = new Map<string, Map<string, number>>();
  /** (team, entity) -> bit k set if the oracle found it potentially visible k ticks ago. */
  private readonly potential = new Map<string, Map<string, number>>();
  private readonly scratch = { x: 0, y: 0, radius: 0 };
  private readonly other = { x: 0, y: 0, radius: 0 };
  /** The audited client's view, `viewIdsInto`'s reused array. */
  private readonly held: string[] = [];
  private tick = 0;
  /** Clients offered to {@link addClient}, audited or not (the sampling counts them). */
  private offered = 0;

  /** Range of the truth's observers, meters: the sight's range when they were last set. */
  private truthRange: number;
  private readonly changes: RecentOccluderChanges;

  constructor(occluders: Occluders, private readonly sight: PotentialSight, private readonly keeper: ViewKeeper, private readonly reveals: Reveals, private readonly options: CullingAuditOptions) {
    this.truth = new VisionSystem(occluders, { raysPerTick: Infinity });
    this.truthRange = sight.range;
    this.changes = new RecentOccluderChanges(occluders, () => this.tick, HISTORY);
  }

  /** Releases the truth engine's listeners. */
  dispose(): void {
    this.changes.dispose();
    this.truth.dispose();
  }

  /** Starts auditing a client whose character is `character`, with its real round trip (ms). */
  addClient(clientId: string, character: string, roundTripMs: number): void {
    const sample = this.options.sample ?? 1;
    const n = this.offered++;
    // The first client is always in, then one in every 1 / sample.
    if (Math.floor(n * sample) === Math.floor((n - 1) * sample)) return;
    this.clients.set(clientId, { character, characterAtAudit: character, team: this.sight.teamOf(character), roundTripMs, history: new Map(), revealed: new Map(), joinedAt: this.tick });
  }

  setRoundTrip(clientId: string, roundTripMs: number): void {
    const c = this.clients.get(clientId);
    if (c !== undefined) c.roundTripMs = roundTripMs;
  }

  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** The client now follows another character: its history restarts. */
  setCharacter(clientId: string, character: string): void {
    const c = this.clients.get(clientId);
    if (c !== undefined) c.character = character;
  }

  /** Audits the views as they stand after `ViewKeeper.update(tick)`. */
  audit(tick: number): AuditCounts {
    this.tick = tick;
    this.syncTruth();
    const o = this.options;
    const linger = (1 << (o.lingerTicks + 1)) - 1;
    // Shift every history one tick back.
    for (const c of this.clients.values()) {
      shift(c.history);
      shift(c.revealed);
    }
    for (const m of this.potential.values()) shift(m);

    for (const [clientId, c] of this.clients) {
      // Ids into a reused array rather than a Map per client per tick: the audit runs every tick.
      const held = this.keeper.viewIdsInto(clientId, this.held);
      const team = this.sight.teamOf(c.character);
      if (held < 0 || team === undefined) continue;
      if (team !== c.team || this.keeper.characterOf(clientId) !== c.character) {
        // What the client received so far was another team's: it cannot be held to what this one sees.
        c.team = team;
        c.character = this.keeper.characterOf(clientId) ?? c.character;
        c.joinedAt = tick;
      }
      c.characterAtAudit = c.character;
      for (let i = 0; i < held; i++) c.history.set(this.held[i]!, (c.history.get(this.held[i]!) ?? 0) | 1);
      let pv = this.potential.get(team);
      if (pv === undefined) this.potential.set(team, (pv = new Map()));
      this.counts.clientTicks++;

      // Reveals in force: allowed like sight this tick, and one the view lacks is a miss.
      const teamIndex = this.sight.teamIndexOf(team);
      for (const r of this.reveals.list) {
        const id = this.sight.idOf(r.slot);
        if (id === undefined || r.generation !== this.sight.generationOf(r.slot) || !Reveals.shows(r, clientId, teamIndex, tick)) continue;
        c.revealed.set(id, (c.revealed.get(id) ?? 0) | 1);
        if (!this.keeper.has(clientId, id)) this.fail("miss", `tick ${tick}: ${id} is revealed to ${clientId} but not in its view`);
      }

      // Leaks.
      for (let i = 0; i < held; i++) {
        const id = this.held[i]!;
        if (this.sight.teamOf(id) === team) continue;
        let bits = pv.get(id) ?? 0;
        if ((bits & 1) === 0 && this.oracleThisTick(team, id)) {
          bits |= 1;
          pv.set(id, bits);
        }
        bits |= c.revealed.get(id) ?? 0;
        if ((bits & linger) === 0) this.fail("leak", `tick ${tick}: ${clientId}'s view holds ${id}, neither potentially visible nor revealed for ${o.lingerTicks + 1} ticks`);
        else if ((bits & 1) === 0 && this.teleportedWithin(id, ticksSinceSet(bits) - 1)) {
          this.fail("leak", `tick ${tick}: ${clientId}'s view holds ${id}, which teleported where it is not potentially visible`);
        }
      }

      // Misses: out of the view now, yet potentially visible by the oracle.
      for (const id of this.sight.entityIds()) {
        if (this.keeper.has(clientId, id) || this.sight.teamOf(id) === team) continue;
        if (this.oracleThisTick(team, id)) this.fail("miss", `tick ${tick}: ${id} is potentially visible to team ${team} but not in ${clientId}'s view`);
      }

      // Pop-ins.
      const delay = Math.min(HISTORY - 1, Math.ceil(c.roundTripMs / 2 / 1000 / o.tickSeconds - 1e-9));
      if (tick - c.joinedAt < delay || this.teleportedWithin(c.character, delay + 1)) {
        this.counts.excused++;
        continue;
      }
      const me = this.scratch;
      this.sight.read(c.character, me);
      let eyePlaced = false;
      const reachBase = this.sight.range;
      const recentChange = this.changes.within(delay);
      for (const id of this.sight.entityIds()) {
        if (id === c.character || this.sight.teamOf(id) === team) continue;
        const history = c.history.get(id) ?? 0;
        if (!recentChange && (history >> delay & 1) === 1) continue;
        const it = this.other;
        this.sight.read(id, it);
        const reach = reachBase + it.radius;
        if ((it.x - me.x) ** 2 + (it.y - me.y) ** 2 > reach * reach) continue;
        if (this.teleportedWithin(id, delay + 1)) continue;
        // The view the client has now, or the one that came with the latest change to what lies between.
        const lag = recentChange ? this.changes.lagNear(me, it, (delay + 1) * o.teleportDistance + me.radius + it.radius, delay) : delay;
        if ((history >> lag & 1) === 1) continue;
        this.counts.truthChecks++;
        if (!eyePlaced) {
          this.truth.moveObserver(c.character, me.x, me.y, 0);
          eyePlaced = true;
        }
        this.truth.moveObservable(id, it.x, it.y);
        if (this.truth.check(c.character, id)) {
          const when = lag < delay ? `missing from ${clientId}'s view since occluders changed ${lag} ticks ago` : `missing from ${clientId}'s view of ${delay} ticks ago`;
          this.fail("popIn", `tick ${tick}: ${c.character} sees ${id} at (${it.x.toFixed(2)}, ${it.y.toFixed(2)}) from (${me.x.toFixed(2)}, ${me.y.toFixed(2)}), ${when} (round trip ${c.roundTripMs.toFixed(0)} ms)`);
        }
      }
    }
    return this.counts;
  }

  /**
   * Audits the views at a send between two updates, after `ViewKeeper.settle`: what is news since the
   * last audit (an entity put somewhere, moved farther than the teleport distance or onto another team; or
   * every entity, for a client whose character changed team or who took another character) must be
   * potentially visible where it is now, or revealed, else the send leaks it.
   */
  auditSend(): void {
    for (const [clientId, c] of this.clients) {
      const held = this.keeper.viewIdsInto(clientId, this.held);
      const character = this.keeper.characterOf(clientId);
      const team = character === undefined ? undefined : this.sight.teamOf(character);
      if (held < 0 || team === undefined) continue;
      this.counts.sends++;
      const whole = team !== c.team || character !== c.characterAtAudit;
      const teamIndex = this.sight.teamIndexOf(team);
      for (let i = 0; i < held; i++) {
        const id = this.held[i]!;
        if (id === character || this.sight.teamOf(id) === team) continue;
        if (!whole && !this.newsSinceAudit(id)) continue;
        const slot = this.sight.slotOf(id);
        if (this.reveals.shows(slot, this.sight.generationOf(slot), clientId, teamIndex, this.tick) || this.oracleSees(team, id)) continue;
        this.fail("leak", `send after tick ${this.tick}: ${clientId}'s view holds ${id}, which ${whole ? "its new team" : "after a teleport or a team change, its team"} could not potentially see where it is`);
      }
    }
  }

  /** Whether an entity was put somewhere or changed team since the last audit (moved farther than a walk allows). */
  private newsSinceAudit(id: string): boolean {
    const last = this.lastAt.get(id);
    if (last === undefined || this.sight.isPlacing(id) || this.sight.teamOf(id) !== last.team) return true;
    const s = this.other;
    this.sight.read(id, s);
    return (s.x - last.x) ** 2 + (s.y - last.y) ** 2 > this.options.teleportDistance ** 2;
  }

  /**
   * {@link oracleSees} for the audit of this tick, answered once per team and entity: every audited
   * client of a team asks the same question of every entity, and a level's static scenery (its doors)
   * makes for many of them.
   */
  private oracleThisTick(team: string, id: string): boolean {
    let memo = this.oracleMemo.get(team);
    if (memo === undefined) this.oracleMemo.set(team, (memo = new Map()));
    const known = memo.get(id);
    if (known !== undefined && known >> 1 === this.tick) return (known & 1) === 1;
    const sees = this.oracleSees(team, id);
    memo.set(id, (this.tick << 1) | (sees ? 1 : 0));
    return sees;
  }

  /** The oracle: brute force over every character of the team and every occluder, no grid, no cache. */
  private oracleSees(team: string, id: string): boolean {
    this.counts.oracleChecks++;
    const it = this.other;
    if (!this.sight.read(id, it)) return false;
    const eye = this.scratch;
    const d = this.sight.lookahead(team);
    const occ = this.sight.occluders.packed;
    // By index: the oracle runs for every audited pair every tick, and a list of ids per call was most of
    // the audit's allocation.
    const members = this.sight.memberCount(team);
    for (let m = 0; m < members; m++) {
      const member = this.sight.memberOf(team, m);
      this.sight.read(member, eye);
      const reach = this.sight.range + it.radius + 2 * d;
      if ((it.x - eye.x) ** 2 + (it.y - eye.y) ** 2 > reach * reach) continue;
      let hidden = false;
      for (let k = 0; k < occ.size && !hidden; k++) {
        if (!occ.isActive(k) || !occ.touches(k, eye.x, eye.y, it.x, it.y)) continue;
        hidden = occ.margin(k, eye.x, eye.y, eye.radius + d, it.x, it.y, it.radius + d) < HIDDEN_MARGIN;
      }
      if (!hidden) return true;
    }
    return false;
  }

  private syncTruth(): void {
    const s = this.scratch;
    const truth = this.truth;
    if (this.sight.range !== this.truthRange) {
      this.truthRange = this.sight.range;
      for (const id of this.known) if (this.sight.isCharacter(id)) truth.updateObserver(id, { range: this.truthRange });
    }
    for (const id of this.sight.entityIds()) {
      this.sight.read(id, s);
      const last = this.lastAt.get(id);
      if (last === undefined) {
        this.lastAt.set(id, { x: s.x, y: s.y, team: this.sight.teamOf(id), teleportedAt: this.tick });
      } else {
        // A declared teleport can be short (caught a step from the spawn), yet no look-ahead covers it either.
        const jumped = (s.x - last.x) ** 2 + (s.y - last.y) ** 2 > this.options.teleportDistance ** 2;
        if (jumped || this.sight.wasPlaced(id)) last.teleportedAt = this.tick;
        last.x = s.x;
        last.y = s.y;
        last.team = this.sight.teamOf(id);
      }
      // Positions reach the truth engine only when a check needs them (see the pop-in loop): moving every
      // entity every tick kept its spatial index up to date for nothing, a third of the audit's cost.
      if (!this.known.has(id)) {
        truth.addObservable(id, { position: { x: s.x, y: s.y }, radius: s.radius });
        if (this.sight.isCharacter(id)) truth.addObserver(id, { position: { x: s.x, y: s.y }, facing: 0, fov: 2 * Math.PI, range: this.truthRange });
        this.known.add(id);
      }
    }
    for (const id of this.known) {
      if (this.sight.has(id)) continue;
      truth.remove(id);
      this.known.delete(id);
      this.lastAt.delete(id);
      for (const m of this.potential.values()) m.delete(id);
      for (const m of this.oracleMemo.values()) m.delete(id);
      for (const c of this.clients.values()) c.history.delete(id);
    }
  }

  private teleportedWithin(id: string, ticks: number): boolean {
    const last = this.lastAt.get(id);
    return last !== undefined && this.tick - last.teleportedAt <= ticks;
  }

  private fail(kind: "leak" | "popIn" | "miss", detail: string): void {
    if (kind === "leak") this.counts.leaks++;
    else if (kind === "popIn") this.counts.popIns++;
    else this.counts.misses++;
    if (this.failures.length < 20) this.failures.push(`${kind}: ${detail}`);
  }
}

/** Ticks since the most recent tick recorded in a history bitmask (bit k = k ticks ago); it must be non-zero. */
function ticksSinceSet(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}

/** Ages every bitmask by one tick, forgetting entries older than the history. */
function shift(history: Map<string, number>): void {
  for (const [id, bits] of history) {
    const next = (bits << 1) & ((1 << HISTORY) - 1);
    if (next === 0) history.delete(id);
    else history.set(id, next);
  }
}
