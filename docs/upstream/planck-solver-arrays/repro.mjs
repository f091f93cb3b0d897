// Minimal reproduction: planck's Solver re-grows its island arrays on every step, because `clear()` sets
// their `length` to 0, which in V8 drops the arrays' storage. Run from the repository root:
//   npx node docs/upstream/planck-solver-arrays/repro.mjs
import { Session } from "node:inspector/promises";
import { Box, Vec2, World } from "planck";

const world = new World({ gravity: Vec2(0, 0) });
const bodies = [];
for (let i = 0; i < 90; i++) {
  const b = world.createBody({ type: "dynamic", position: Vec2((i % 10) * 3, Math.floor(i / 10) * 3) });
  b.createFixture({ shape: new Box(0.4, 0.4), density: 1 });
  bodies.push(b);
}
const move = (k) => bodies.forEach((b, i) => b.setLinearVelocity(Vec2(Math.cos(k / 20 + i), Math.sin(k / 20 + i))));
for (let k = 0; k < 200; k++) { move(k); world.step(1 / 20); } // warm up the JIT

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const STEPS = 2000;
for (let k = 0; k < STEPS; k++) { move(k); world.step(1 / 20); }
const { profile } = await session.post("HeapProfiler.stopSampling");

let solver = 0;
let total = 0;
const walk = (node, inSolver) => {
  const here = inSolver || node.callFrame.functionName.includes("solveWorld");
  total += node.selfSize;
  if (here) solver += node.selfSize;
  node.children.forEach((c) => walk(c, here));
};
walk(profile.head, false);
console.log(`${STEPS} steps of a 90-body world: ${(total / 1e6).toFixed(1)} MB allocated, ${(solver / 1e6).toFixed(1)} MB of it under Solver.solveWorld (${(solver / STEPS / 1e3).toFixed(1)} KB a step)`);

// The mechanism, without planck: an array emptied with `length = 0` and refilled, versus one refilled by
// index with a separate count (what the solver could do).
async function allocated(run) {
  await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  run();
  const { profile: p } = await session.post("HeapProfiler.stopSampling");
  let bytes = 0;
  const sum = (n) => { bytes += n.selfSize; n.children.forEach(sum); };
  sum(p.head);
  return bytes / 1e6;
}
const items = bodies.slice();
const emptied = [];
const counted = [];
let count = 0;
const viaLength = await allocated(() => { for (let k = 0; k < 20000; k++) { emptied.length = 0; for (const b of items) emptied.push(b); } });
const viaCount = await allocated(() => { for (let k = 0; k < 20000; k++) { count = 0; for (const b of items) counted[count++] = b; } });
console.log(`refilling a 90-item array 20000 times: ${viaLength.toFixed(1)} MB with length = 0 and push, ${viaCount.toFixed(1)} MB with a count`);
