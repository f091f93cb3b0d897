// Clearing a long-lived Map allocates its new table in V8's old generation.
//
//   node --expose-gc docs/upstream/map-clear-old-space/repro.mjs
//
// Each line: what 200 000 rounds of one way of using a Map that already lives in the old generation
// added to the old generation (no scavenge promotes anything here: nothing else survives).
import v8 from "node:v8";

if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size;
const ROUNDS = 200_000;

const ways = {
  "clear() an empty Map": (m) => m.clear(),
  "clear() only when not empty": (m) => { if (m.size > 0) m.clear(); },
  "fill 8 keys, clear()": (m) => { for (let k = 0; k < 8; k++) m.set(k, k); m.clear(); },
  "fill 8 keys, delete them": (m) => { for (let k = 0; k < 8; k++) m.set(k, k); for (let k = 0; k < 8; k++) m.delete(k); },
  "overwrite 8 existing keys": (m) => { for (let k = 0; k < 8; k++) m.set(k, k); },
};

for (const [name, round] of Object.entries(ways)) {
  const holder = { map: new Map() };
  for (let i = 0; i < 10_000; i++) round(new Map()); // warm up: let the JIT settle on this way first
  globalThis.gc();
  globalThis.gc(); // the holder and its map are old now, like a StateView's `changes`
  await new Promise((resolve) => setTimeout(resolve, 100)); // let the collector's sweeping finish first
  const before = oldSpace();
  for (let i = 0; i < ROUNDS; i++) round(holder.map);
  const grew = oldSpace() - before;
  console.log(`${name.padEnd(30)} old generation +${(grew / 1e6).toFixed(1)} MB (${Math.round(grew / ROUNDS)} bytes a round)`);
}
