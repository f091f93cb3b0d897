/**
 * Same-process A/B against another checkout of this repository (its own `npm ci` done), for "is this
 * change any slower?": `npx tsx loadtest/bench/againstCheckout.ts <dir> [vision|culling] [runs]`.
 *
 * On this noisy VM two separate processes of the same code differ by 20% and more, and in one process the
 * instance built second runs a few percent slower (a calibration of old against old showed it), so each
 * run builds four instances in the order other, this, this, other and ticks them in a rotating order; the
 * ratio pools both instances of a side. Prints one JSON line per run: the medians of each instance and the
 * pooled ratio this / other (below 1 is faster).
 *
 * - vision: the reference room of `vision-scheduler` (1024 guards, 64 players, 1000 walls, 256 rays a
 *   tick), each side on its own copy of the level (the same seed: the same trajectory), poses in and one tick.
 * - culling: the 64 x 500 level of `culling`, one level shared, moves in and one update; the other side
 *   may be a checkout from before `ViewCulling` (its PotentialSight and ViewKeeper are driven directly).
 * - plugin: the same level through each checkout's `SightlinePlugin` with real StateViews
 *   (`pluginSides.ts`): `update()` and the hook before each patch, timed apart (two ratios).
 * - rays: the reference room's walls as `Occluders` (1000 walls in a 200 m square), 2,000 seeded rays a
 *   tick of up to 20 m through each side's packed pieces (`firstBlocker`, as sight and sound rays walk
 *   them), the same rays on both sides.
 * - hearing: the hearing bench's vision room with hearing on (`visionHearingRoom.ts`: the same reference
 *   room on `Occluders`, its players' footsteps heard by the guards, the awareness model fed both), each
 *   side on its own copy of the level, one whole room tick; this checkout's room on each side's engine
 *   (`VisionSystem`, `AwarenessModel`, `Hearing`, `Occluders`).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import { VisionSystem } from "sightline";
import { PLAYER_SIGHT_RANGE, TICK_SECONDS } from "../../shared/gameRules.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";
import { percentile } from "./percentile.js";
import { pluginSides } from "./pluginSides.js";
import { VisionHearingRoom, type HearingEngine } from "./visionHearingRoom.js";

interface Side {
  readonly mine: boolean;
  readonly ms: number[];
  step(): void;
  run(tick: number): void;
}

const [dirArg, which = "vision", runsArg = "3"] = process.argv.slice(2);
if (dirArg === undefined || !existsSync(join(resolve(dirArg), "server"))) {
  console.error("usage: tsx loadtest/bench/againstCheckout.ts <other checkout> [vision|culling|plugin|rays|hearing] [runs]");
  process.exit(2);
}
const MODES = ["vision", "culling", "plugin", "rays", "hearing"];
// A mistyped mode or run count would otherwise run some other bench, or none, and exit 0.
if (!MODES.includes(which)) throw new RangeError(`againstCheckout mode must be one of ${MODES.join(", ")} (got ${JSON.stringify(which)})`);
const runs = runsArg.trim() === "" ? NaN : Number(runsArg);
if (!(Number.isInteger(runs) && runs >= 1)) throw new RangeError(`againstCheckout runs must be a whole number, 1 or more (got ${JSON.stringify(runsArg)})`);
const other = resolve(dirArg);
const load = (path: string): Promise<Record<string, any>> => import(join(other, path));

async function visionSides(): Promise<Side[]> {
  const theirs = await load("server/vision/index.ts");
  const theirLevel = await load("loadtest/bench/benchLevel.ts");
  const opts = { seed: 4242, walls: 1000, guards: 1024, players: 64, size: 200 };
  const make = (mine: boolean): Side => {
    const level: BenchLevel = mine ? buildBenchLevel(opts) : theirLevel.buildBenchLevel(opts);
    const Vision = mine ? VisionSystem : theirs.VisionSystem;
    const v = new Vision(level.world, { opaqueMask: WALL, raysPerTick: 256 });
    for (const g of level.guards) v.addObserver(g.id, { position: g, facing: g.facing, range: 30, fov: Math.PI / 2, body: g.body });
    for (const p of level.players) v.addObservable(p.id, { position: p, radius: level.playerRadius, body: p.body });
    return {
      mine, ms: [],
      step: () => (mine ? stepBenchLevel(level) : theirLevel.stepBenchLevel(level)),
      run: () => {
        for (const g of level.guards) v.moveObserver(g.id, g.x, g.y, g.facing);
        for (const p of level.players) v.moveObservable(p.id, p.x, p.y);
        v.tick();
      },
    };
  };
  return [make(false), make(true), make(true), make(false)];
}

async function raySides(): Promise<Side[]> {
  const theirs = await load("server/occluders/index.ts");
  const opts = { seed: 4242, walls: 1000, guards: 0, players: 0, size: 200 };
  const level = buildBenchLevel(opts);
  const random = level.random;
  const rays = Float64Array.from({ length: 4 * 2000 }, (_, i) => (i % 4 < 2 ? random() * 200 : random() * 28 - 14));
  const make = (mine: boolean): Side => {
    const occluders = (mine ? Occluders : theirs.Occluders).fromWorld(level.world, { opaqueMask: WALL });
    const packed = (occluders as unknown as { packed: { firstBlocker(x: number, y: number, dx: number, dy: number, f: number, solid: boolean): number } }).packed;
    let hits = 0;
    return { mine, ms: [], step: () => {}, run: () => {
      for (let i = 0; i < rays.length; i += 4) if (packed.firstBlocker(rays[i]!, rays[i + 1]!, rays[i + 2]!, rays[i + 3]!, 1, true) >= 0) hits++;
    } };
  };
  return [make(false), make(true), make(true), make(false)];
}

async function hearingSides(): Promise<Side[]> {
  // This checkout's room on each side's engine. The other checkout's own room file would import
  // "sightline", which this process's tsconfig paths resolve to this checkout: the same engine twice.
  const vision = await load("server/vision/index.ts");
  const occluders = await load("server/occluders/index.ts");
  const theirs: HearingEngine = { VisionSystem: vision.VisionSystem, AwarenessModel: vision.AwarenessModel, Hearing: vision.Hearing, Occluders: occluders.Occluders };
  const opts = { seed: 4242, walls: 1000, guards: 1024, players: 64, size: 200 };
  const make = (mine: boolean): Side => {
    const level: BenchLevel = buildBenchLevel(opts);
    const room = mine ? new VisionHearingRoom(level, true) : new VisionHearingRoom(level, true, theirs);
    return { mine, ms: [], step: () => stepBenchLevel(level), run: (tick) => room.tick(tick) };
  };
  return [make(false), make(true), make(true), make(false)];
}

async function cullingSides(): Promise<Side[]> {
  const level = buildBenchLevel({ seed: 77, walls: 360, guards: 436, players: 64, size: 120 });
  const roundTrips = level.players.map(() => level.random() * 120);
  const none = () => {};
  /** A side built on a ViewCulling class and the Occluders class of the same checkout. */
  const viewCullingSide = (mine: boolean, Culling: typeof ViewCulling, Occ: typeof Occluders): Side => {
    const c = new Culling({ occluders: Occ.fromWorld(level.world, { opaqueMask: WALL }), tickSeconds: TICK_SECONDS, maxSpeed: 3.3, onAdd: none, onRemove: none });
    for (const p of level.players) c.addEntity(p.id, { x: p.x, y: p.y, radius: level.playerRadius, team: p.id, character: true });
    for (const g of level.guards) c.addEntity(g.id, { x: g.x, y: g.y, radius: level.playerRadius });
    level.players.forEach((p, i) => {
      c.addClient(p.id, p.id);
      c.setRoundTrip(p.id, roundTrips[i]);
    });
    return { mine, ms: [], step: none, run: () => moveAll(c) && c.update() };
  };
  const mineSide = (): Side => viewCullingSide(true, ViewCulling, Occluders);
  const theirs = existsSync(join(other, "server/culling/potentialSight.ts")) && !existsSync(join(other, "server/culling/viewCulling.ts"));
  const theirSide = async (): Promise<Side> => {
    if (!theirs) {
      const culling = await load("server/culling/index.ts");
      const occluders = await load("server/occluders/index.ts");
      return viewCullingSide(false, culling.ViewCulling, occluders.Occluders);
    }
    // Before ViewCulling: the same rule from its parts, with the look-ahead ViewCulling derives.
    const { PotentialSight } = await load("server/culling/potentialSight.ts");
    const { ViewKeeper } = await load("server/culling/viewKeeper.ts");
    const sight = new PotentialSight(level.world, { opaqueMask: WALL, range: PLAYER_SIGHT_RANGE, teleportDistance: 0.33 });
    for (const p of level.players) sight.addEntity(p.id, p.x, p.y, level.playerRadius, p.id);
    for (const g of level.guards) sight.addEntity(g.id, g.x, g.y, level.playerRadius);
    level.players.forEach((p, i) => sight.setLookahead(p.id, Math.min(3, 3.3 * (roundTrips[i]! / 2000 + TICK_SECONDS))));
    const keeper = new ViewKeeper(sight, { lingerTicks: 5 }, none, none);
    for (const p of level.players) keeper.addClient(p.id, p.id);
    return { mine: false, ms: [], step: none, run: (tick) => {
      moveAll(sight);
      sight.update();
      keeper.update(tick);
    } };
  };
  const moveAll = (c: { moveEntity(id: string, x: number, y: number): unknown }): true => {
    for (const p of level.players) c.moveEntity(p.id, p.x, p.y);
    for (const g of level.guards) c.moveEntity(g.id, g.x, g.y);
    return true;
  };
  const sides = [await theirSide(), mineSide(), mineSide(), await theirSide()];
  // One shared level: stepped once a tick, by the first side.
  sides[0] = { ...sides[0]!, step: () => stepBenchLevel(level) };
  return sides;
}

const TICKS = which === "vision" || which === "hearing" ? 500 : 1000;
const SIDES: Record<string, () => Promise<Side[]>> = { culling: cullingSides, rays: raySides, hearing: hearingSides, vision: visionSides };
const WARM_UP = 100;
const root = resolve(import.meta.dirname, "../..");
for (let r = 0; r < runs; r++) {
  const sides: (Side & { patchMs?: number[] })[] = which === "plugin" ? await pluginSides(other, root) : await SIDES[which]!();
  for (let tick = 1; tick <= TICKS; tick++) {
    for (const s of sides) s.step();
    for (let k = 0; k < sides.length; k++) {
      const s = sides[(k + tick) % sides.length]!;
      const t = performance.now();
      s.run(tick);
      // The plugin sides time their own parts.
      if (which !== "plugin" && tick > WARM_UP) s.ms.push(performance.now() - t);
    }
  }
  const after = (v: number[]) => (which === "plugin" ? v.slice(WARM_UP) : v);
  const pooled = (mine: boolean, of: (s: (typeof sides)[number]) => number[]) => sides.filter((s) => s.mine === mine).flatMap((s) => after(of(s)));
  const median = (v: number[]) => percentile([...v], 0.5);
  const ratio = (of: (s: (typeof sides)[number]) => number[]) => Math.round((median(pooled(true, of)) / median(pooled(false, of))) * 1000) / 1000;
  console.log(JSON.stringify({
    bench: "against-checkout", which, other,
    medianMs: sides.map((s) => `${s.mine ? "this" : "other"} ${median(after(s.ms)).toFixed(3)}`),
    ratio: ratio((s) => s.ms),
    ...(which === "plugin" ? {
      beforePatchMs: sides.map((s) => `${s.mine ? "this" : "other"} ${median(after(s.patchMs!)).toFixed(4)}`),
      beforePatchRatio: ratio((s) => s.patchMs!),
    } : {}),
  }));
}
