// What a compound room's simulation step costs when the caches are as cold as a busy server leaves them:
// 4 rooms (25 players walking at random, 64 guards each), and between one room's step and the next a
// sweep over a buffer of THRASH_MB megabytes (default 0, 32, 64 and 128 in turn), as a server's other
// rooms, sockets and encodes sweep the memory between two steps of one room. The same code, the same
// steps; only what the caches still hold differs. A change meant to cut a server's per-room cost should
// show here at the sizes near the server's (compare the mean with the step's share of a server profile).
//
//   npx tsx loadtest/profiling/coldSteps.ts [steps]
//
// Prints one JSON line per sweep size: the mean and median ms of a room's step after 100 steps of warm-up.
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { StealthSimulation } from "../../server/sim/stealthSimulation.js";
import { seededRandom } from "../../shared/seededRandom.js";

const ROOMS = 4;
const PLAYERS = 25;
const GUARDS = 64;
const WARMUP = 100;

const steps = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(steps) || steps <= WARMUP) throw new RangeError(`steps must be an integer above ${WARMUP} (got ${process.argv[2]})`);
const sizes = process.env.THRASH_MB === undefined ? [0, 32, 64, 128] : [Number(process.env.THRASH_MB)];
for (const mb of sizes) if (!(mb >= 0)) throw new RangeError(`THRASH_MB must be a number of megabytes >= 0 (got ${process.env.THRASH_MB})`);

for (const mb of sizes) console.log(JSON.stringify({ thrashMb: mb, ...run(mb) }));

function run(mb: number): { steps: number; meanMs: number; p50Ms: number } {
  const map = MapCatalog.bundled().get("compound")!;
  const sims = Array.from({ length: ROOMS }, () => new StealthSimulation(map, { extraGuards: GUARDS - map.guards.length }));
  for (const sim of sims) for (let i = 0; i < PLAYERS; i++) sim.addPlayer(`p${i}`, { spawn: map.spawns[i % map.spawns.length]!.name });
  const random = seededRandom(3);
  // Written first: pages never written are the kernel's one zero page, and reading them evicts nothing.
  // Then read a cache line at a time: the hardware prefetches the sweep, so it evicts without costing much itself.
  const sweep = new Int32Array((mb * 1024 * 1024) / 4);
  for (let i = 0; i < sweep.length; i++) sweep[i] = i & 1;
  let sink = 0;
  const ms: number[] = [];
  for (let t = 0; t < steps; t++) {
    for (const sim of sims) {
      if (t % 20 === 0) {
        for (let i = 0; i < PLAYERS; i++) {
          const a = random() * 2 * Math.PI;
          const speed = random() < 0.5 ? sim.movement.walkSpeed : sim.movement.walkSpeed / 2;
          sim.setMotion(`p${i}`, { vx: Math.cos(a) * speed, vy: Math.sin(a) * speed, facing: a, crouch: false });
        }
      }
      for (let i = 0; i < sweep.length; i += 16) sink += sweep[i]!;
      const t0 = performance.now();
      sim.step();
      if (t >= WARMUP) ms.push(performance.now() - t0);
    }
  }
  for (const sim of sims) sim.dispose();
  if (sink !== 0) throw new Error("the sweep read an odd slot"); // keeps the reads from being optimized away
  ms.sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return { steps: ms.length, meanMs: round(mean), p50Ms: round(ms[ms.length >> 1]!) };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
