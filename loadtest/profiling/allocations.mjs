// Allocation sampling for a running server, collected objects included (what `node --heap-prof` leaves
// out, so what dies young is counted too). Load it before the server and signal it when done:
//
//   node --import ./loadtest/profiling/allocations.mjs --import tsx server/index.ts &
//   ... drive a load ...
//   kill -USR2 <pid>      # writes allocations.heapprofile (open it in Chrome DevTools, Memory tab)
//
// ALLOCATION_PROFILE names the output file (default ./allocations.heapprofile); ALLOCATION_INTERVAL the
// sampling interval in bytes (default 65536). The file also records the seconds profiled, so bytes per
// second can be read from it. ALLOCATION_KEEP=survivors leaves out what scavenges collect: the profile then
// shows only what outlived the young generation (to die in the old one or stay), which is what fills the
// old generation and makes mark-compacts.
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";

const out = process.env.ALLOCATION_PROFILE ?? "allocations.heapprofile";
const interval = Number(process.env.ALLOCATION_INTERVAL ?? 65536);
const keep = process.env.ALLOCATION_KEEP ?? "all";
if (keep !== "all" && keep !== "survivors") throw new RangeError(`ALLOCATION_KEEP must be all or survivors (got ${keep})`);
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", {
  samplingInterval: interval,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: keep === "all",
});
const startedAt = performance.now();
let written = false;
process.on("SIGUSR2", async () => {
  if (written) return;
  written = true;
  const { profile } = await session.post("HeapProfiler.stopSampling");
  writeFileSync(out, JSON.stringify({ ...profile, secondsProfiled: (performance.now() - startedAt) / 1000 }));
  console.error(`allocation profile written to ${out}`);
});
