// How long a load takes on this machine when it depends on the one before (a pointer chase), by working
// set: what a per-entity loop pays for each object it reaches that the caches no longer hold. VMs of the
// same kind differ here, and it is the figure behind "the same code costs more in a bigger server":
//
//   node loadtest/profiling/memoryLatency.mjs            # 1, 2, 8, 32 and 128 MB
//   node loadtest/profiling/memoryLatency.mjs 4 16 64    # working sets of your choice, MB
//
// Each working set is a ring through every 64-byte line of a typed array, in a shuffled order (so the
// hardware prefetcher cannot guess the next line), walked for 20 million loads. Prints one JSON line per
// working set: { workingSetMB, nsPerLoad }. Run it alone: another process on the machine moves the figure.
const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 2, 8, 32, 128];
for (const mb of sizes) {
  if (!(mb > 0 && mb <= 4096)) throw new RangeError(`a working set is 0 to 4096 MB (got ${mb})`);
}

const INTS_PER_LINE = 16; // 64 bytes of Int32
const LOADS = 20_000_000;

for (const mb of sizes) {
  const ints = Math.floor((mb * 1048576) / 4 / INTS_PER_LINE) * INTS_PER_LINE;
  const lines = ints / INTS_PER_LINE;
  const next = new Int32Array(ints);
  const order = new Int32Array(lines);
  for (let i = 0; i < lines; i++) order[i] = i;
  for (let i = lines - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (let i = 0; i < lines; i++) next[order[i] * INTS_PER_LINE] = order[(i + 1) % lines] * INTS_PER_LINE;
  let at = 0;
  for (let i = 0; i < lines; i++) at = next[at]; // once round: the pages are mapped before the clock starts
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < LOADS; i++) at = next[at];
  const ns = Number(process.hrtime.bigint() - t0) / LOADS;
  if (at < 0) throw new Error("the chase left its ring"); // and it reads `at`: the loop cannot be dropped
  console.log(JSON.stringify({ workingSetMB: mb, nsPerLoad: Math.round(ns * 10) / 10 }));
}
