/**
 * `npm run bench [-- name ...]`: runs the benchmarks (all, or those named) and prints one JSON line per
 * measurement on stdout. Progress goes to stderr so stdout stays machine-readable.
 */
import { awarenessCalibrationBench } from "./awarenessCalibration.js";
import { cullingBench } from "./culling.js";
import { doorsBench } from "./doors.js";
import { fairnessBench } from "./fairness.js";
import { fovBench } from "./fov.js";
import { hearingBench } from "./hearing.js";
import { hearingAccuracyBench } from "./hearingAccuracy.js";
import { hearingCalibrationBench } from "./hearingCalibration.js";
import { roomTickBench } from "./roomTick.js";
import { visionPassBench } from "./visionPass.js";
import { visionSchedulerBench } from "./visionScheduler.js";

const benches: Record<string, () => Promise<void> | void> = {
  "vision-pass": visionPassBench,
  "vision-scheduler": visionSchedulerBench,
  "awareness-calibration": awarenessCalibrationBench,
  "hearing-calibration": hearingCalibrationBench,
  "hearing-accuracy": hearingAccuracyBench,
  "room-tick": roomTickBench,
  culling: cullingBench,
  doors: doorsBench,
  fairness: fairnessBench,
  fov: fovBench,
  hearing: hearingBench,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const name of wanted) {
  if (!(name in benches)) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benches).join(", ")}`);
    process.exit(2);
  }
}
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.error(`# ${name} (node ${process.version})`);
  await run();
}
