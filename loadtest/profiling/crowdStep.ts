// What one simulation step of a crowded room costs: the compound map with 512 guards (the heavy rooms of
// the skewed placement scenario in docs/scale-out.md) and 8 players walking at random, stepped 3000 times
// (2.5 minutes of game time) with no Colyseus around it. Wandering guards jam in the corridors, and a
// jammed guard re-plans its path when a second brings it no progress, so the step's tail depends on how
// those re-plans spread over the ticks.
//
//   npx tsx loadtest/profiling/crowdStep.ts [seed ...]
//
// Prints one JSON line per seed (default 1 2 3; the seed drives the players' walks): step time p50, p90,
// p99, max and mean in ms over the steps after the first 200, and path searches per step, mean and most.
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { walkAtRandom } from "./randomWalks.js";

const GUARDS = 512;
const PLAYERS = 8;
const STEPS = 3000;
const SKIPPED = 200;

const map = MapCatalog.bundled().get("compound")!;
const seeds = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 2, 3];
for (const seed of seeds) {
  if (!Number.isInteger(seed)) throw new RangeError(`seeds must be integers (got ${process.argv.slice(2).join(" ")})`);
  const sim = new StealthSimulation(map, { extraGuards: GUARDS - map.guards.length });
  let searches = 0;
  const findPath = sim.nav.findPath.bind(sim.nav);
  sim.nav.findPath = (...args) => {
    searches++;
    return findPath(...args);
  };
  const random = seededRandom(seed);
  const players: string[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    players.push(`p${i}`);
    sim.addPlayer(`p${i}`, { spawn: map.spawns[i % map.spawns.length]!.name });
  }
  const times: number[] = [];
  const searchesPerStep: number[] = [];
  for (let t = 0; t < STEPS; t++) {
    walkAtRandom(sim, players, random, t);
    searches = 0;
    const start = performance.now();
    sim.step();
    const ms = performance.now() - start;
    if (t < SKIPPED) continue;
    times.push(ms);
    searchesPerStep.push(searches);
  }
  sim.dispose();
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2));
  const mean = (xs: number[]) => Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2));
  console.log(JSON.stringify({ seed, guards: GUARDS, players: PLAYERS, steps: times.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), mean: mean(times), pathSearches: { mean: mean(searchesPerStep), most: Math.max(...searchesPerStep) } }));
}
