// Capture the flag with anti-wallhack culling, as a studio would write it on `sightline/colyseus`: each
// client receives the players its team could see soon; a flag carrier is revealed to everyone; a radar
// ping and a "spotted" mark reveal enemies to a team for a few seconds; health and loadout reach teammates
// only, ammo its owner only; a tagged player respawns three seconds later from a room clock timer, and no
// one who cannot see its base learns where it went. Footsteps reach the enemies who could hear them round
// the walls, as a loudness and a way, never who made them. Spectators watch one player without its ammo; a
// caster with the room's token sees everything. Run it: `npx tsx examples/capture-the-flag/server.ts`.
import { definePlugins, Room, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { SightlinePlugin } from "sightline/colyseus";
import { BASES, blocked, fieldOccluders, FOOTSTEP, halfOf, PLAYER_RADIUS, run, SPEED, TEAMS, TICK_SECONDS, type Team } from "./ctfField.js";

/** View tags: owner-only fields (ammo) and team-only fields (health, loadout). */
export const OWNER = 1;
export const TEAM = 2;

export const Player = schema({
  x: t.float32().default(0),
  y: t.float32().default(0),
  team: t.string().default(""),
  /** The flag it carries ("" for none). */
  carrying: t.string().default(""),
  health: t.uint8().default(100).view(TEAM),
  loadout: t.string().default("").view(TEAM),
  ammo: t.uint8().default(30).view(OWNER),
}, "CtfPlayer");
export type Player = InstanceType<typeof Player>;

export const Flag = schema({ x: t.float32().default(0), y: t.float32().default(0), team: t.string().default("") }, "CtfFlag");

/** Players and flags sit in `.view()` maps: a client receives only what its view holds. Scores are public. */
export const CtfState = schema({
  players: t.map(Player).view(),
  flags: t.map(Flag).view(),
  score: t.map("uint16"),
}, "CtfState");
export type CtfState = InstanceType<typeof CtfState>;

const RESPAWN_MS = 3000;
const PING_RANGE = 15;
const PING_SECONDS = 2;
const PING_COOLDOWN_MS = 5000;
const SPOT_SECONDS = 3;
/** Shortest caster token: a caster sees everything. */
const MIN_TOKEN = 16;

export interface CtfCreateOptions {
  /** Lets a client join with `{ caster: token }` and see everything. Unset: no casters. */
  casterToken?: string;
  /** Runs the culling's truth audit (tests). */
  audit?: boolean;
}

export class CtfRoom extends Room<{ state: CtfState }> {
  override state = new CtfState();
  override maxClients = 32;
  override plugins = definePlugins([new SightlinePlugin({ maxSpeed: SPEED, tickSeconds: TICK_SECONDS, update: "manual", ownerTag: OWNER, teamTag: TEAM })]);
  private casterToken: string | undefined;
  private readonly intents = new Map<string, { x: number; y: number }>();
  private readonly down = new Set<string>();
  private readonly lastPing = new Map<string, number>();
  /** What happened so far: a game that never got going proves nothing. */
  readonly events = { pickups: 0, captures: 0, returns: 0, tags: 0, respawns: 0, pings: 0, spots: 0, footsteps: 0 };
  /** Meters each player ran since its last footstep. */
  private readonly sinceStep = new Map<string, number>();
  /** Spectators, by the player each one watches. */
  private readonly watching = new Map<string, string>();

  override onCreate(options: CtfCreateOptions = {}): void {
    const token = options.casterToken;
    this.casterToken = typeof token === "string" && token.length >= MIN_TOKEN ? token : undefined;
    this.plugins.sightline.start({ occluders: fieldOccluders(), audit: options.audit === true });
    for (const team of TEAMS) {
      const flag = new Flag().assign({ ...BASES[team], team });
      this.state.flags.set(`flag:${team}`, flag);
      this.plugins.sightline.addEntity(`flag:${team}`, flag, { radius: 0.3, team });
      // An objective everyone sees, wherever it is carried.
      this.plugins.sightline.reveal(`flag:${team}`);
      this.state.score.set(team, 0);
    }
    this.onMessage("move", (client, m: { x?: unknown; y?: unknown } | null) => {
      const x = typeof m?.x === "number" ? m.x : NaN;
      const y = typeof m?.y === "number" ? m.y : NaN;
      const length = Math.hypot(x, y);
      if (Number.isFinite(length)) this.intents.set(client.sessionId, length > 1 ? { x: x / length, y: y / length } : { x, y });
    });
    this.onMessage("ping", (client) => this.ping(client.sessionId));
    this.onMessage("spot", (client, id: unknown) => this.spot(client.sessionId, id));
    this.setTimestep(() => this.step(), TICK_SECONDS * 1000);
  }

  override onJoin(client: Client, options: { team?: unknown; spectate?: unknown; caster?: unknown } = {}): void {
    const plugin = this.plugins.sightline;
    if (options.caster !== undefined) {
      if (this.casterToken === undefined || options.caster !== this.casterToken) throw new Error("wrong caster token");
      plugin.spectateAll(client, { ownerFields: true });
      return;
    }
    if (typeof options.spectate === "string") {
      if (!this.state.players.has(options.spectate)) throw new Error("no such player to spectate");
      plugin.spectate(client, options.spectate); // what the team knows, not the player's ammo
      this.watching.set(client.sessionId, options.spectate);
      return;
    }
    const team: Team = options.team === "blue" ? "blue" : options.team === "red" ? "red" : this.smallerTeam();
    const player = new Player().assign({ ...BASES[team], team, loadout: `${team}-kit-${client.sessionId}` });
    this.state.players.set(client.sessionId, player);
    plugin.addEntity(client.sessionId, player, { radius: PLAYER_RADIUS, team, character: true });
    plugin.setCharacter(client, client.sessionId);
  }

  override onLeave(client: Client): void {
    this.watching.delete(client.sessionId);
    const player = this.state.players.get(client.sessionId);
    if (player === undefined) return;
    if (player.carrying !== "") this.drop(client.sessionId, player);
    // Its spectators move to a teammate, or leave: nobody may follow a character that is gone.
    for (const [watcher, watched] of this.watching) {
      if (watched !== client.sessionId) continue;
      const next = [...this.state.players.entries()].find(([id, p]) => id !== watched && p.team === player.team)?.[0];
      const spectator = this.clients.getById(watcher);
      if (next !== undefined && spectator !== undefined) {
        this.plugins.sightline.spectate(spectator, next);
        this.watching.set(watcher, next);
      } else {
        this.plugins.sightline.release(watcher);
        this.watching.delete(watcher);
        spectator?.leave();
      }
    }
    this.plugins.sightline.removeEntity(client.sessionId);
    this.state.players.delete(client.sessionId);
    this.intents.delete(client.sessionId);
    this.sinceStep.delete(client.sessionId);
  }

  // Without it, one exception in a handler stops the whole process.
  override onUncaughtException(error: Error, method: string): void {
    console.error(`ctf ${method}:`, error);
  }

  private step(): void {
    for (const [id, player] of this.state.players) {
      const intent = this.intents.get(id);
      if (intent === undefined || this.down.has(id)) continue;
      const { x, y } = player;
      run(player, intent.x, intent.y);
      this.footsteps(id, player, Math.hypot(player.x - x, player.y - y));
    }
    this.flagsAndTags();
    // After every move of the step: the patch carries moves and views together.
    this.plugins.sightline.update();
  }

  /**
   * A footstep every stride run, sent to whoever could hear it: enemies only (its own team knows where it
   * is), and only those whose view lacks the runner, who see it run anyway. The plugin tells them how loud
   * and from which way, never the runner's id or spot.
   */
  private footsteps(id: string, player: Player, moved: number): void {
    const since = (this.sinceStep.get(id) ?? 0) + moved;
    if (since < FOOTSTEP.stride) {
      this.sinceStep.set(id, since);
      return;
    }
    this.sinceStep.set(id, since - FOOTSTEP.stride);
    this.plugins.sightline.sendNoise({ x: player.x, y: player.y, loudness: FOOTSTEP.loudness, kind: "footstep", emitter: id }, "footstep", { whenHidden: true });
    this.events.footsteps++;
  }

  /** Pick-ups, captures, returns and tags. */
  private flagsAndTags(): void {
    const plugin = this.plugins.sightline;
    for (const [id, player] of this.state.players) {
      if (this.down.has(id)) continue;
      const team = player.team as Team;
      for (const [flagId, flag] of this.state.flags) {
        const home = BASES[flag.team as Team];
        const near = Math.hypot(flag.x - player.x, flag.y - player.y) < 1;
        if (player.carrying === flagId) {
          flag.x = player.x;
          flag.y = player.y;
          if (Math.hypot(BASES[team].x - player.x, BASES[team].y - player.y) < 2) this.capture(id, player, flagId);
        } else if (near && flag.team !== team && !this.carried(flagId)) {
          player.carrying = flagId;
          plugin.reveal(id); // a flag carrier is seen by everyone
          this.events.pickups++;
        } else if (near && flag.team === team && !this.carried(flagId) && (flag.x !== home.x || flag.y !== home.y)) {
          Object.assign(flag, home);
          plugin.teleported(flagId);
          this.events.returns++;
        }
      }
    }
    // Tags: two enemies within reach, the one in the other's half goes down.
    const players = [...this.state.players.entries()];
    for (const [a, pa] of players) {
      for (const [b, pb] of players) {
        if (pa.team === pb.team || this.down.has(a) || this.down.has(b) || Math.hypot(pa.x - pb.x, pa.y - pb.y) > 1.2) continue;
        if (halfOf(pa.x) !== pa.team) this.tag(a, pa);
      }
    }
  }

  private carried(flagId: string): boolean {
    for (const p of this.state.players.values()) if (p.carrying === flagId) return true;
    return false;
  }

  private capture(id: string, player: Player, flagId: string): void {
    const team = player.team as Team;
    this.state.score.set(team, (this.state.score.get(team) ?? 0) + 1);
    const flag = this.state.flags.get(flagId)!;
    Object.assign(flag, BASES[flag.team as Team]);
    this.plugins.sightline.teleported(flagId);
    player.carrying = "";
    this.plugins.sightline.conceal(id);
    this.events.captures++;
  }

  private drop(id: string, player: Player): void {
    player.carrying = "";
    this.plugins.sightline.conceal(id);
  }

  /** Down for three seconds, then back at its base: a respawn from a room clock timer, declared a teleport. */
  private tag(id: string, player: Player): void {
    if (player.carrying !== "") this.drop(id, player);
    player.health = 0;
    this.down.add(id);
    this.events.tags++;
    this.clock.setTimeout(() => {
      const p = this.state.players.get(id);
      this.down.delete(id);
      if (p === undefined) return;
      const base = BASES[p.team as Team];
      // The first free spot around the base (players may stand on it).
      for (let i = 0; i < 8; i++) {
        const x = base.x + Math.cos(i) * (i === 0 ? 0 : 1.5);
        const y = base.y + Math.sin(i) * (i === 0 ? 0 : 1.5);
        if (!blocked(x, y)) {
          Object.assign(p, { x, y, health: 100 });
          break;
        }
      }
      this.plugins.sightline.teleported(id);
      this.events.respawns++;
    }, RESPAWN_MS);
  }

  /** A radar ping: every enemy within range of the pinger, shown to the pinger's team for two seconds. */
  private ping(id: string): void {
    const me = this.state.players.get(id);
    const now = this.clock.currentTime;
    if (me === undefined || now - (this.lastPing.get(id) ?? -Infinity) < PING_COOLDOWN_MS) return;
    this.lastPing.set(id, now);
    this.events.pings++;
    for (const [other, p] of this.state.players) {
      if (p.team !== me.team && Math.hypot(p.x - me.x, p.y - me.y) <= PING_RANGE) this.plugins.sightline.reveal(other, { team: me.team, seconds: PING_SECONDS });
    }
  }

  /** A "spotted" mark: an enemy the spotter's client holds, shown to its team for three seconds. */
  private spot(id: string, target: unknown): void {
    const me = this.state.players.get(id);
    if (me === undefined || typeof target !== "string") return;
    const enemy = this.state.players.get(target);
    // Only what the spotter's view holds: a client must not probe for hidden ids.
    if (enemy === undefined || enemy.team === me.team || !this.plugins.sightline.has(id, target)) return;
    this.plugins.sightline.reveal(target, { team: me.team, seconds: SPOT_SECONDS });
    this.events.spots++;
    this.plugins.sightline.sendToViewersOf(target, "spotted", { by: id, target });
  }

  private smallerTeam(): Team {
    let red = 0;
    for (const p of this.state.players.values()) if (p.team === "red") red++;
    return red * 2 <= this.state.players.size ? "red" : "blue";
  }
}
