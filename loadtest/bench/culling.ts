/**
 * culling: 64 clients x 500 entities (64 players, 436 guards) wandering a seeded
 * 120 m level of 360 random boxes, 20 Hz, the same trajectories for every variant. Per tick, what it costs
 * to decide and encode what each client receives, and what each client receives:
 *  - broadcast: no views, one patch for everyone (what a room without culling sends);
 *  - views of everything: a StateView per client holding every entity (the cost of views alone);
 *  - culling: a ViewCulling deciding each view (range 20 m, linger 5 ticks, round trips 0-120 ms per
 *    client), then the same encode; once free-for-all (each client its own team), once in squads of 4
 *    sharing vision (members spread over the level: the union of 4 separate views).
 * ms per tick = culling (moves in, potential sight, view upkeep) + encode (shared patch + one encodeView
 * per client), median and p99;
 * bytes per client per tick; view churn (adds + removes) per client per tick. The level's physics and
 * the schema field writes are outside the timings (every variant does the same).
 */
import { Encoder, StateView, schema, t } from "@colyseus/schema";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import { PLAYER_SIGHT_RANGE, TICK_SECONDS } from "../../shared/gameRules.js";
import { GuardState, PlayerState, StealthState } from "../../shared/schema.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { percentile } from "./percentile.js";

const CLIENTS = 64;
const GUARDS = 436;
const SIZE = 120;
const WALLS = 360;
const TICKS = 200;
const WARMUP = 20;
const RANGE = PLAYER_SIGHT_RANGE;
const TICK_S = TICK_SECONDS;
/** Fastest mover of the bench level (players, 3 m/s) plus the room's 10% margin. */
const MAX_SPEED = 3.3;
const LINGER = 5;

/** The same entities in plain (non-view) maps: the broadcast room. */
const BroadcastState = schema({
  tick: t.uint32().default(0),
  players: t.map(PlayerState),
  guards: t.map(GuardState),
}, "BroadcastState");

type Variant = "broadcast" | "views of everything" | "culling";

export async function cullingBench(): Promise<void> {
  // Room for the first full patch of 64 views of everything (the steady state is far smaller).
  Encoder.BUFFER_SIZE = 4 * 1024 * 1024;
  run("broadcast", 1);
  run("views of everything", 1);
  // Free-for-all (every client its own team), then squads of 4 sharing vision (scattered: the worst case).
  run("culling", 1);
  run("culling", 4);
}

function run(variant: Variant, squad: number): void {
  const squadOf = (playerId: string) => `squad${Math.floor(Number(playerId.slice(1)) / squad)}`;
  const level = buildBenchLevel({ seed: 77, walls: WALLS, guards: GUARDS, players: CLIENTS, size: SIZE });
  const state = variant === "broadcast" ? new BroadcastState() : new StealthState();
  const entities = new Map<string, InstanceType<typeof PlayerState> | InstanceType<typeof GuardState>>();
  for (const p of level.players) {
    const ps = new PlayerState();
    ps.team = squadOf(p.id);
    state.players.set(p.id, ps);
    entities.set(p.id, ps);
  }
  for (const g of level.guards) {
    const gs = new GuardState();
    gs.fov = Math.PI / 2;
    gs.range = 12;
    state.guards.set(g.id, gs);
    entities.set(g.id, gs);
  }
  const encoder = new Encoder(state);
  const views = new Map<string, StateView>();
  let culling: ViewCulling | null = null;
  if (variant !== "broadcast") {
    for (const p of level.players) {
      const view = new StateView();
      views.set(p.id, view);
      if (variant === "views of everything") for (const e of entities.values()) view.add(e);
    }
  }
  if (variant === "culling") {
    const c = new ViewCulling({
      occluders: Occluders.fromWorld(level.world, { opaqueMask: WALL }), tickSeconds: TICK_S, maxSpeed: MAX_SPEED, range: RANGE, lingerSeconds: LINGER * TICK_S,
      onAdd: (client, e) => views.get(client)!.add(entities.get(e)!),
      onRemove: (client, e) => views.get(client)!.remove(entities.get(e)!),
    });
    for (const p of level.players) c.addEntity(p.id, { x: p.x, y: p.y, radius: level.playerRadius, team: squadOf(p.id), character: true });
    for (const g of level.guards) c.addEntity(g.id, { x: g.x, y: g.y, radius: level.playerRadius });
    // One round trip per squad, the same for its members, drawn as the squads' largest were before.
    const rtt = new Map<string, number>();
    for (const p of level.players) {
      const squad = squadOf(p.id);
      rtt.set(squad, Math.max(rtt.get(squad) ?? 0, level.random() * 120));
    }
    for (const p of level.players) {
      c.addClient(p.id, p.id);
      c.setRoundTrip(p.id, rtt.get(squadOf(p.id)));
    }
    culling = c;
  }
  // The joins' full states are not part of the steady state being measured.
  flush(encoder, views);

  const ms: number[] = [];
  const cullMs: number[] = [];
  const encodeMs: number[] = [];
  let bytes = 0;
  let churn = 0;
  let potential = 0;
  let viewSize = 0;
  let pairsTested = 0;
  let occluderTests = 0;
  for (let tick = 1; tick <= WARMUP + TICKS; tick++) {
    stepBenchLevel(level);
    writeState(level, state, entities, tick);
    const t0 = performance.now();
    let report: ReturnType<ViewCulling["update"]> | undefined;
    if (culling !== null) {
      for (const p of level.players) culling.moveEntity(p.id, p.x, p.y);
      for (const g of level.guards) culling.moveEntity(g.id, g.x, g.y);
      report = culling.update();
    }
    const t1 = performance.now();
    const sent = flush(encoder, views);
    const t2 = performance.now();
    if (tick <= WARMUP) continue;
    ms.push(t2 - t0);
    cullMs.push(t1 - t0);
    encodeMs.push(t2 - t1);
    bytes += sent;
    if (report !== undefined) {
      churn += report.adds + report.removes;
      potential += report.potentiallyVisible;
      pairsTested = report.pairsTested;
      occluderTests = report.occluderTests;
    }
    if (culling !== null) for (const p of level.players) viewSize += culling.viewSize(p.id);
  }
  const clientTicks = CLIENTS * TICKS;
  console.log(JSON.stringify({
    bench: "culling", variant, clients: CLIENTS, entities: CLIENTS + GUARDS, walls: WALLS, sizeM: SIZE, rangeM: RANGE, ticks: TICKS,
    msPerTick: { median: round(percentile([...ms], 0.5)), p99: round(percentile(ms, 0.99)) },
    breakdownMedianMs: { culling: round(percentile([...cullMs], 0.5)), encode: round(percentile([...encodeMs], 0.5)) },
    bytesPerClientPerTick: Math.round(bytes / clientTicks),
    ...(variant === "culling" ? {
      entitiesPerView: round(viewSize / clientTicks),
      squadSize: squad,
      potentiallyVisiblePerSquad: round(potential / (TICKS * (CLIENTS / squad))),
      churnPerClientPerTick: round(churn / clientTicks),
      pairsTestedLastTick: pairsTested,
      occluderTestsLastTick: occluderTests,
    } : {}),
  }));
}

function writeState(level: BenchLevel, state: { tick: number }, entities: Map<string, { x: number; y: number; facing: number }>, tick: number): void {
  state.tick = tick;
  for (const a of level.players) write(entities.get(a.id)!, a);
  for (const a of level.guards) write(entities.get(a.id)!, a);
}

function write(e: { x: number; y: number; facing: number }, a: { x: number; y: number; facing: number }): void {
  e.x = a.x;
  e.y = a.y;
  e.facing = a.facing;
}

/** One patch round as a room sends it: the shared patch, then each view's; returns bytes summed over clients. */
function flush(encoder: Encoder, views: Map<string, StateView>): number {
  const it = { offset: 0 };
  const shared = encoder.encode(it);
  let total = 0;
  if (views.size === 0) {
    total = shared.length * CLIENTS;
  } else {
    const sharedOffset = it.offset;
    for (const view of views.values()) total += encoder.encodeView(view, sharedOffset, it).length;
  }
  encoder.discardChanges();
  return total;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
