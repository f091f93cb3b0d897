// Minimal reproduction: planck's DynamicTree.query re-grows its traversal stack on every call, because the
// stack pool's release sets the array's `length` to 0, which in V8 drops its storage. Run from the
// repository root:
//   npx node docs/upstream/planck-tree-query-stack/repro.mjs
import { Session } from "node:inspector/promises";
import { AABB, Box, Circle, DynamicTree, Vec2, World } from "planck";

/** 89 characters walking among 100 pillars, as in a game server's room; continuous collision off. */
function buildWorld() {
  const world = new World({ gravity: Vec2(0, 0), continuousPhysics: false });
  for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) world.createBody({ type: "static", position: Vec2(i * 6, j * 6) }).createFixture({ shape: new Box(1, 1) });
  const bodies = [];
  for (let i = 0; i < 89; i++) {
    const b = world.createBody({ type: "dynamic", position: Vec2(3 + (i % 10) * 6, 3 + Math.floor(i / 10) * 6), fixedRotation: true });
    b.createFixture({ shape: new Circle(0.4), density: 1 });
    bodies.push(b);
  }
  const move = (k) => bodies.forEach((b, i) => b.setLinearVelocity(Vec2(3 * Math.cos(k / 40 + i), 3 * Math.sin(k / 40 + i))));
  return { world, move };
}

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");

/** KB allocated a step in all, and under DynamicTree.query, over 2000 steps after a warm-up. */
async function measure() {
  const { world, move } = buildWorld();
  for (let k = 0; k < 300; k++) { move(k); world.step(1 / 20); }
  await session.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const STEPS = 2000;
  for (let k = 0; k < STEPS; k++) { move(k); world.step(1 / 20); }
  const { profile } = await session.post("HeapProfiler.stopSampling");
  let total = 0;
  let query = 0;
  const walk = (node, inQuery) => {
    const here = inQuery || node.callFrame.functionName.includes("DynamicTree2.query");
    total += node.selfSize;
    if (here) query += node.selfSize;
    node.children.forEach((c) => walk(c, here));
  };
  walk(profile.head, false);
  return { total: total / STEPS / 1e3, query: query / STEPS / 1e3 };
}

const before = await measure();
// The suggested fix, applied for comparison: the same walk with one stack kept by a count.
const stack = [];
DynamicTree.prototype.query = function (aabb, queryCallback) {
  let n = 0;
  stack[n++] = this.m_root;
  while (n > 0) {
    const node = stack[--n];
    if (node == null) continue;
    if (!AABB.testOverlap(node.aabb, aabb)) continue;
    if (node.isLeaf()) {
      if (queryCallback(node.id) === false) return;
    } else {
      stack[n++] = node.child1;
      stack[n++] = node.child2;
    }
  }
};
const after = await measure();
console.log(`as released: ${before.total.toFixed(1)} KB a step, ${before.query.toFixed(1)} KB of it under DynamicTree.query`);
console.log(`stack kept by a count: ${after.total.toFixed(1)} KB a step, ${after.query.toFixed(1)} KB of it under DynamicTree.query`);
