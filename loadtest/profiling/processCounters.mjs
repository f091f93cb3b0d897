// What a running process did over a window, from the kernel's own counters (Linux /proc): CPU in user
// code and in the kernel, read and write system calls and bytes, page faults, context switches. No
// tracing, so nothing is slowed: the way to compare two servers' sockets and kernel time under a load.
//
//   node loadtest/profiling/processCounters.mjs <pid> [seconds, default 20] [delay before, default 0]
//
// Prints one JSON line of rates per second over the window; CPU as percent of one core.
import { readFileSync } from "node:fs";

const [pidArg, secondsArg = "20", delayArg = "0"] = process.argv.slice(2);
const pid = Number(pidArg);
const seconds = Number(secondsArg);
const delay = Number(delayArg);
if (!Number.isInteger(pid) || pid <= 0) throw new RangeError(`usage: processCounters.mjs <pid> [seconds] [delay]: the pid must be a positive integer (got ${pidArg})`);
if (!(seconds > 0 && seconds <= 3600)) throw new RangeError(`seconds must be in (0, 3600] (got ${secondsArg})`);
if (!(delay >= 0 && delay <= 3600)) throw new RangeError(`delay must be in [0, 3600] seconds (got ${delayArg})`);

const TICKS = 100; // clock ticks a second (USER_HZ), as Linux reports /proc/<pid>/stat times

function read() {
  // Fields after the command name (which may hold spaces) are space-separated; see proc(5).
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    throw new Error(`no process ${pid} to read (${err.code ?? err.message}): it ended, or this is not Linux`);
  }
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const io = Object.fromEntries(readFileSync(`/proc/${pid}/io`, "utf8").trim().split("\n").map((l) => l.split(": ")).map(([k, v]) => [k, Number(v)]));
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, "m"))?.[1] ?? NaN);
  return {
    at: performance.now(),
    minorFaults: Number(f[7]), majorFaults: Number(f[9]), user: Number(f[11]), system: Number(f[12]),
    readCalls: io.syscr, writeCalls: io.syscw, bytesRead: io.rchar, bytesWritten: io.wchar,
    voluntarySwitches: field("voluntary_ctxt_switches"), involuntarySwitches: field("nonvoluntary_ctxt_switches"),
  };
}

await new Promise((r) => setTimeout(r, delay * 1000));
const a = read();
await new Promise((r) => setTimeout(r, seconds * 1000));
const b = read();
const s = (b.at - a.at) / 1000;
const rate = (k) => Math.round((b[k] - a[k]) / s);
console.log(JSON.stringify({
  pid, seconds: Math.round(s * 10) / 10,
  userCpuPercent: Math.round(((b.user - a.user) / TICKS / s) * 1000) / 10,
  systemCpuPercent: Math.round(((b.system - a.system) / TICKS / s) * 1000) / 10,
  readCallsPerSecond: rate("readCalls"), writeCallsPerSecond: rate("writeCalls"),
  bytesReadPerSecond: rate("bytesRead"), bytesWrittenPerSecond: rate("bytesWritten"),
  minorFaultsPerSecond: rate("minorFaults"), majorFaultsPerSecond: rate("majorFaults"),
  voluntarySwitchesPerSecond: rate("voluntarySwitches"), involuntarySwitchesPerSecond: rate("involuntarySwitches"),
}));
