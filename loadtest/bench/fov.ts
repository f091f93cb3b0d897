/**
 * fov: tile field of view on seeded 200 x 200 cellular-automata caves (`loadtest/maps/caves.ts`), radius
 * 8, 16 and 30, four peers side by side on the same grids and the same origins (random floor tiles):
 *  - ours:            `computeFov` reading the grid's opacity array (what `OpacityGrid` gives it);
 *  - ours (callback): `computeFov` on the same grid through `isOpaque(x, y)` only;
 *  - rot.js RecursiveShadowcasting and PreciseShadowcasting, through `lightPasses(x, y)` on the same array.
 *
 * Every peer gets radius R and the same reveal callback. rot.js's radius is its own (recursive: a disc of
 * dx^2 + dy^2 < (R + 1)^2; precise: the square of Chebyshev radius R), so the callback counts what lands
 * in our disc (dx^2 + dy^2 <= R^2) as "revealed", and every call as "callbacks" (rot.js repeats tiles).
 * Asymmetry: for sampled origins A and floor tiles B that A sees within the disc, the share of pairs
 * where B, with the same algorithm and radius, does not see A.
 * Calls per second: the fastest of the rounds, with the median next to it; ratios compare the fastest
 * rounds. Within a round the peers take turns every 50 origins, so load from other processes falls on
 * all of them alike.
 *
 * Then `fov-explored-sync`: what a player's explored memory costs on the wire and in the room. One player
 * walks nav-grid paths (3 m/s, 20 Hz) from every spawn to the exit and back on the demo and vault maps;
 * each tick its position and (in one of two otherwise identical runs) its explored words are written to
 * a PlayerState and encoded for its own StateView, as the room does. Bytes per tick are the difference
 * between the two runs; the join is the first full encode of the player's view.
 *
 * And `fov-room`: the room's simulation on the demo map with 8 players wandering nav-grid paths; per tick,
 * the simulation step next to `ExploredTiles.update` (what the room adds for tile vision), p50 and p99.
 */
import { Encoder, StateView } from "@colyseus/schema";
import { FOV } from "rot-js";
import { ExploredTiles } from "../../server/rooms/exploredTiles.js";
import { MAPS_DIR } from "../../server/rooms/mapCatalog.js";
import { NavGrid, type Waypoint } from "../../server/sim/navGrid.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { loadMapFile } from "../../server/sim/tiledMap.js";
import { computeFov, type FovGrid } from "sightline/fov";
import { seededRandom } from "../../shared/seededRandom.js";
import { OWNER, PlayerState, StealthState } from "../../shared/schema.js";
import { cellularCave, type Cave } from "../maps/caves.js";
import { median, percentile } from "./percentile.js";

const SIZE = 200;
const SEEDS = [11, 12, 13];
const ORIGINS_PER_CAVE = 600;
const RADII = [8, 16, 30];
const ROUNDS = 15;
/** Origins a peer runs before the next peer takes its turn. */
const BATCH = 50;
/** Asymmetry sample: origins per cave, and visible floor tiles B checked per origin. */
const ASYMMETRY_ORIGINS = 150;
const ASYMMETRY_TARGETS = 30;

type Fov = (x: number, y: number, radius: number, reveal: (x: number, y: number) => void) => void;
interface Peer { name: string; make(cave: Cave): Fov }

const PEERS: Peer[] = [
  { name: "ours", make: (cave) => (x, y, r, reveal) => computeFov(cave, x, y, r, reveal) },
  {
    name: "ours (isOpaque callback)",
    make: (cave) => {
      const grid: FovGrid = { width: cave.width, height: cave.height, isOpaque: (x, y) => cave.cells[y * cave.width + x] !== 0 };
      return (x, y, r, reveal) => computeFov(grid, x, y, r, reveal);
    },
  },
  { name: "rot.js RecursiveShadowcasting", make: (cave) => rot(new FOV.RecursiveShadowcasting(lightPasses(cave))) },
  { name: "rot.js PreciseShadowcasting", make: (cave) => rot(new FOV.PreciseShadowcasting(lightPasses(cave))) },
];

function lightPasses(cave: Cave): (x: number, y: number) => boolean {
  const { width, height, cells } = cave;
  return (x, y) => x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x] === 0;
}

function rot(algorithm: { compute(x: number, y: number, r: number, cb: (x: number, y: number) => void): void }): Fov {
  return (x, y, r, reveal) => algorithm.compute(x, y, r, reveal);
}

/** The shared reveal callback's state, set before each call, so the callback is cheap and allocates nothing. */
let originX = 0;
let originY = 0;
let radius2 = 0;
let revealed = 0;
let callbacks = 0;
function countReveal(x: number, y: number): void {
  callbacks++;
  const dx = x - originX;
  const dy = y - originY;
  if (dx * dx + dy * dy <= radius2) revealed++;
}

export function fovBench(): void {
  fovPeers();
  for (const name of ["demo", "vault"]) exploredSync(name);
  roomCost("demo");
}

function fovPeers(): void {
  const caves = SEEDS.map((seed) => cellularCave(SIZE, SIZE, seed));
  const origins = caves.map((cave, i) => pickFloors(cave, ORIGINS_PER_CAVE, 1000 + i));
  const calls = caves.length * ORIGINS_PER_CAVE;
  const fovs = PEERS.map((peer) => caves.map((cave) => peer.make(cave)));
  for (const radius of RADII) {
    console.error(`# fov radius ${radius}: ${ROUNDS} rounds of ${calls} calls per peer`);
    // Warm-up: every peer on every cave, so no peer pays for the JIT inside a timed round.
    for (let p = 0; p < PEERS.length; p++) for (let c = 0; c < caves.length; c++) runBatch(fovs[p]![c]!, caves[c]!, origins[c]!, 0, ORIGINS_PER_CAVE, radius);
    const rates: number[][] = PEERS.map(() => []);
    const counts = PEERS.map(() => ({ revealed: 0, callbacks: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      // Peers take turns every BATCH origins (in rotating order), so a burst of load from another
      // process on this shared machine lands on all of them alike rather than on one peer's round.
      const seconds = PEERS.map(() => 0);
      let turn = round;
      for (let c = 0; c < caves.length; c++) {
        for (let from = 0; from < ORIGINS_PER_CAVE; from += BATCH, turn++) {
          for (let k = 0; k < PEERS.length; k++) {
            const p = (k + turn) % PEERS.length;
            const start = performance.now();
            const n = runBatch(fovs[p]![c]!, caves[c]!, origins[c]!, from, Math.min(ORIGINS_PER_CAVE, from + BATCH), radius);
            seconds[p] += (performance.now() - start) / 1000;
            if (round === 0) {
              counts[p]!.revealed += n.revealed;
              counts[p]!.callbacks += n.callbacks;
            }
          }
        }
      }
      for (let p = 0; p < PEERS.length; p++) rates[p]!.push(calls / seconds[p]!);
    }
    // The fastest round is the peer's speed with the least interference from other processes on this
    // shared machine; the median is reported next to it.
    const best = (p: number) => Math.max(...rates[p]!);
    const rateOf = (name: string) => best(PEERS.findIndex((p) => p.name === name));
    for (let p = 0; p < PEERS.length; p++) {
      const asym = asymmetry(fovs[p]!, caves, origins, radius);
      const rate = best(p);
      console.log(JSON.stringify({
        bench: "fov", radius, peer: PEERS[p]!.name, size: `${SIZE}x${SIZE}`, caves: caves.length, callsPerRound: calls,
        callsPerSecond: Math.round(rate), usPerCall: round2(1e6 / rate), medianCallsPerSecond: Math.round(median([...rates[p]!])),
        vsRotRecursive: round2(rate / rateOf("rot.js RecursiveShadowcasting")),
        vsRotPrecise: round2(rate / rateOf("rot.js PreciseShadowcasting")),
        revealedPerCall: round2(counts[p]!.revealed / calls), callbacksPerCall: round2(counts[p]!.callbacks / calls),
        asymmetricPairs: asym.asymmetric, sampledVisiblePairs: asym.pairs, asymmetryRate: asym.pairs === 0 ? 0 : asym.asymmetric / asym.pairs,
      }));
    }
  }
}

/** One peer from origins [from, to) of one cave; what its reveal callback counted. */
function runBatch(run: Fov, cave: Cave, origins: Int32Array, from: number, to: number, radius: number): { revealed: number; callbacks: number } {
  revealed = 0;
  callbacks = 0;
  radius2 = radius * radius;
  const width = cave.width;
  for (let i = from; i < to; i++) {
    const x = origins[i]! % width;
    const y = (origins[i]! - x) / width;
    originX = x;
    originY = y;
    run(x, y, radius, countReveal);
  }
  return { revealed, callbacks };
}

/** Sampled visible pairs (A sees floor B within the disc) and how many of them B does not see back. */
function asymmetry(fovOf: Fov[], caves: Cave[], origins: Int32Array[], radius: number): { pairs: number; asymmetric: number } {
  let pairs = 0;
  let asymmetric = 0;
  const r2 = radius * radius;
  for (let c = 0; c < caves.length; c++) {
    const cave = caves[c]!;
    const width = cave.width;
    const seen = new Uint8Array(width * cave.height);
    for (const a of origins[c]!.subarray(0, ASYMMETRY_ORIGINS)) {
      const ax = a % width;
      const ay = (a - ax) / width;
      const targets: number[] = [];
      fovOf[c]!(ax, ay, radius, (x, y) => {
        const i = y * width + x;
        if (i !== a && cave.cells[i] === 0 && (x - ax) ** 2 + (y - ay) ** 2 <= r2 && !targets.includes(i)) targets.push(i);
      });
      const step = Math.max(1, Math.floor(targets.length / ASYMMETRY_TARGETS));
      for (let t = 0; t < targets.length; t += step) {
        const b = targets[t]!;
        seen.fill(0);
        fovOf[c]!(b % width, (b - (b % width)) / width, radius, (x, y) => {
          seen[y * width + x] = 1;
        });
        pairs++;
        if (seen[a] === 0) asymmetric++;
      }
    }
  }
  return { pairs, asymmetric };
}

/** `count` floor tiles of the cave, chosen at random (seeded), as row-major indices. */
function pickFloors(cave: Cave, count: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = cave.floors[Math.floor(random() * cave.floors.length)]!;
  return out;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The explored memory of one walking player: bytes on the wire and time spent, as the room syncs it. */
function exploredSync(mapName: string): void {
  const map = loadMapFile(`${MAPS_DIR}${mapName}.tmj`);
  const nav = NavGrid.ofMap(map);
  const exit = map.exits[0]!;
  const goal = { x: (exit[0]!.x + exit[2]!.x) / 2, y: (exit[0]!.y + exit[2]!.y) / 2 };
  // Every spawn to the exit and back, one after the other: 0.15 m per tick.
  const walk: Waypoint[] = [];
  for (const s of map.spawns) {
    for (const [from, to] of [[s, goal], [goal, s]] as const) {
      const path: Waypoint[] = [];
      if (!nav.findPath(from.x, from.y, to.x, to.y, path)) throw new Error(`${mapName}: no path from ${from.x}, ${from.y} to ${to.x}, ${to.y}`);
      let at = { x: from.x, y: from.y };
      for (const wp of path) {
        const d = Math.hypot(wp.x - at.x, wp.y - at.y);
        for (let k = 1; k * 0.15 < d; k++) walk.push({ x: at.x + ((wp.x - at.x) * k * 0.15) / d, y: at.y + ((wp.y - at.y) * k * 0.15) / d });
        walk.push(wp);
        at = wp;
      }
    }
  }
  const run = (withExplored: boolean) => {
    const state = new StealthState();
    const ps = new PlayerState();
    state.players.set("walker", ps);
    const explored = new ExploredTiles(map);
    explored.add("walker", ps);
    const encoder = new Encoder(state);
    const view = new StateView();
    view.add(ps, OWNER);
    const full = { offset: 0 };
    encoder.encodeAll(full);
    const join = encoder.encodeAllView(view, full.offset, { ...full }).length;
    encoder.discardChanges();
    const pose = { x: 0, y: 0 };
    const players = [{ id: "walker", body: { getPosition: () => pose } }];
    let bytes = 0;
    let ms = 0;
    for (const p of walk) {
      pose.x = p.x;
      pose.y = p.y;
      ps.x = p.x;
      ps.y = p.y;
      if (withExplored) {
        const started = performance.now();
        explored.update(players);
        ms += performance.now() - started;
      }
      const it = { offset: 0 };
      encoder.encode(it);
      bytes += encoder.encodeView(view, it.offset, it).length;
      encoder.discardChanges();
    }
    return { join, bytes, ms, recomputes: explored.recomputes, exploredTiles: explored.visionOf("walker")!.explored.reduce((n, w) => n + bitCount(w), 0) };
  };
  run(true); // warm-up: the timings below are of warm code
  const bare = run(false);
  const full = run(true);
  console.log(JSON.stringify({
    bench: "fov-explored-sync", map: mapName, tiles: `${map.columns}x${map.rows}`, words: Math.ceil((map.columns * map.rows) / 32), ticks: walk.length,
    recomputes: full.recomputes, exploredTiles: full.exploredTiles,
    joinBytes: full.join, joinBytesWithoutExplored: bare.join,
    bytesPerTick: round2(full.bytes / walk.length), bytesPerTickWithoutExplored: round2(bare.bytes / walk.length),
    exploredBytesPerTick: round2((full.bytes - bare.bytes) / walk.length), exploredBytesPerRecompute: round2((full.bytes - bare.bytes) / full.recomputes),
    usPerTick: round2((full.ms * 1000) / walk.length), usPerRecompute: round2((full.ms * 1000) / full.recomputes),
  }));
}

function bitCount(word: number): number {
  let n = 0;
  for (let w = word >>> 0; w !== 0; w &= w - 1) n++;
  return n;
}

/** Tile vision's share of a room tick: 8 players wandering the map, simulation step vs explored update. */
function roomCost(mapName: string): void {
  const map = loadMapFile(`${MAPS_DIR}${mapName}.tmj`);
  const sim = new StealthSimulation(map);
  const explored = new ExploredTiles(map);
  const random = seededRandom(99);
  const walkers = Array.from({ length: 8 }, (_, i) => {
    const id = `p${i}`;
    sim.addPlayer(id, { spawn: map.spawns[i % map.spawns.length]!.name });
    explored.add(id, new PlayerState());
    return { id, path: [] as Waypoint[], motion: { vx: 0, vy: 0, facing: 0, crouch: false }, last: { x: 0, y: 0 }, stuck: 0 };
  });
  const stepMs: number[] = [];
  const exploredMs: number[] = [];
  const WARMUP_TICKS = 200;
  const TICKS = 1200;
  let recomputesBefore = 0;
  for (let tick = 0; tick < WARMUP_TICKS + TICKS; tick++) {
    for (const w of walkers) {
      const at = sim.players.get(w.id)!.body.getPosition();
      while (w.path.length > 0 && Math.hypot(w.path[0]!.x - at.x, w.path[0]!.y - at.y) < 0.3) w.path.shift();
      // Pressed against a corner (or another player) for half a second: pick another goal.
      w.stuck = Math.hypot(at.x - w.last.x, at.y - w.last.y) < 0.01 ? w.stuck + 1 : 0;
      w.last.x = at.x;
      w.last.y = at.y;
      if (w.path.length === 0 || w.stuck > 10) {
        w.path.length = 0;
        const goal = { x: 1 + random() * (map.width - 2), y: 1 + random() * (map.height - 2) };
        if (sim.nav.isFree(goal.x, goal.y)) sim.nav.findPath(at.x, at.y, goal.x, goal.y, w.path);
      }
      const next = w.path[0];
      const d = next === undefined ? 0 : Math.hypot(next.x - at.x, next.y - at.y) || 1;
      w.motion.vx = next === undefined ? 0 : ((next.x - at.x) / d) * 3;
      w.motion.vy = next === undefined ? 0 : ((next.y - at.y) / d) * 3;
      sim.setMotion(w.id, w.motion);
    }
    // Counted from the first timed tick's update on, so recomputes cover the same TICKS ticks as the times.
    if (tick === WARMUP_TICKS) recomputesBefore = explored.recomputes;
    let started = performance.now();
    sim.step();
    const step = performance.now() - started;
    started = performance.now();
    explored.update(sim.players.values());
    const update = performance.now() - started;
    if (tick >= WARMUP_TICKS) {
      stepMs.push(step);
      exploredMs.push(update);
    }
  }
  const p = (values: number[], q: number) => round3(percentile([...values], q));
  const sum = (values: number[]) => values.reduce((a, v) => a + v, 0);
  console.log(JSON.stringify({
    bench: "fov-room", map: mapName, players: walkers.length, ticks: TICKS, radiusTiles: explored.radius,
    simulationStepMs: { p50: p(stepMs, 0.5), p99: p(stepMs, 0.99) }, exploredUpdateMs: { p50: p(exploredMs, 0.5), p99: p(exploredMs, 0.99) },
    exploredShareOfStep: round3(sum(exploredMs) / sum(stepMs)), recomputesPerTick: round3((explored.recomputes - recomputesBefore) / TICKS),
  }));
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
