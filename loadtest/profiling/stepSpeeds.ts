// How far bodies move in one simulation step, against the simulation's top speed, which the stealth
// room's culling assumes (the fastest configured speed x 1.1): 25 players, each joined at a named spawn as
// the load test's bots are, walking at random (often into guards, now and then standing still) in a
// 64-guard compound room, for 6000 steps (5 minutes of game time). An entity moving faster than the
// culling assumes can enter a view a tick late at the range edge (a pop-in), unless the move is taken for
// a teleport: longer than twice the assumed step, or declared (the room declares every respawn). The
// simulation cuts collision pushes back to the top speed; this counts what got past, and how many
// respawns were too short to be told from a walk by their length alone.
//
//   npx tsx loadtest/profiling/stepSpeeds.ts
//
// Prints one JSON line: the assumed step, the longest walked step and whose it was, how many walked
// body-steps exceeded the assumed step or the teleport threshold, and the respawns, all and short.
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { walkAtRandom } from "./randomWalks.js";

const STEPS = 6000;
const PLAYERS = 25;
const map = MapCatalog.bundled().get("compound")!;
const sim = new StealthSimulation(map, { extraGuards: 64 - map.guards.length });
const assumedSpeed = sim.topSpeed;
const assumedStep = assumedSpeed * sim.dt;
const random = seededRandom(7);
const players: string[] = [];
for (let i = 0; i < PLAYERS; i++) {
  players.push(`p${i}`);
  sim.addPlayer(`p${i}`, { spawn: map.spawns[i % map.spawns.length]!.name });
}
const respawned = new Set<string>();
sim.onTeleport = (id) => respawned.add(id);

const positions = () => {
  const at = new Map<string, { x: number; y: number }>();
  for (const g of sim.guards) at.set(g.id, { ...g.body.getPosition() });
  for (const [id, p] of sim.players) at.set(id, { ...p.body.getPosition() });
  return at;
};
let before = positions();
let overAssumed = 0;
let overTeleport = 0;
let longest = 0;
let longestBy = "";
let bodySteps = 0;
let respawns = 0;
let shortRespawns = 0;
for (let t = 0; t < STEPS; t++) {
  walkAtRandom(sim, players, random, t);
  respawned.clear();
  sim.step();
  const after = positions();
  for (const [id, p] of after) {
    const q = before.get(id);
    if (q === undefined) continue;
    const d = Math.hypot(p.x - q.x, p.y - q.y);
    if (respawned.has(id)) {
      respawns++;
      if (d <= 2 * assumedStep) shortRespawns++;
      continue;
    }
    bodySteps++;
    if (d > 2 * assumedStep) {
      overTeleport++;
      continue;
    }
    // A step cut back to the top speed lands on it within rounding.
    if (d > assumedStep * (1 + 1e-9)) overAssumed++;
    if (d > longest) {
      longest = d;
      longestBy = id;
    }
  }
  before = after;
}
console.log(JSON.stringify({ assumedSpeed, assumedStep, longestWalked: longest, longestBy, overAssumed, overTeleport, bodySteps, respawns, shortRespawns }));
