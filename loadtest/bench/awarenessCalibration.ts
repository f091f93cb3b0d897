/**
 * awareness-calibration: time-to-spot with the default options, simulated at 20 Hz with the model itself
 * (a guard with a 15 m range and a 90-degree cone staring at a target that does not move), by distance
 * and off-axis angle, plus a crouching target and one sensed only behind the guard's back. One JSON line
 * per distance; seconds, or null when never spotted within 60 s. The time-to-spot table of docs/vision.md comes from here.
 */
import { AwarenessModel, type Sighting } from "sightline";
import { TICK_SECONDS } from "../../shared/gameRules.js";

const DT = TICK_SECONDS;

function timeToSpot(distance: number, offAxisDeg: number, extra: Partial<Sighting> = {}): number | null {
  const model = new AwarenessModel();
  const a = (offAxisDeg * Math.PI) / 180;
  const sighting: Sighting = {
    observerId: "guard", targetId: "player", distance, offAxis: a, halfFov: Math.PI / 4, range: 15,
    position: { x: distance * Math.cos(a), y: distance * Math.sin(a) }, ...extra,
  };
  for (let tick = 1; tick <= 60 / DT; tick++) {
    if (model.step(tick, DT, [sighting]).some((e) => e.type === "spotted")) return Math.round(tick * DT * 100) / 100;
  }
  return null;
}

export function awarenessCalibrationBench(): void {
  for (const distance of [1, 2, 5, 10, 15]) {
    console.log(JSON.stringify({
      bench: "awareness-calibration", distanceM: distance, rangeM: 15, halfFovDeg: 45,
      secondsToSpot: {
        centre: timeToSpot(distance, 0),
        off20deg: timeToSpot(distance, 20),
        off40deg: timeToSpot(distance, 40),
        coneEdge45deg: timeToSpot(distance, 45),
        crouchingCentre: timeToSpot(distance, 0, { visibility: 0.5 }),
        behindProximity: timeToSpot(distance, 180, { proximity: true }),
      },
    }));
  }
}
