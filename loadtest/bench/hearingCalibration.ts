/**
 * hearing-calibration: how far each gait of the stealth demo is heard, in the open and around a doorway,
 * and how soon an idle guard grows suspicious of footsteps at a few distances: the demo's footstep rules
 * (`FOOTSTEPS`) through the library's `Hearing` and `AwarenessModel` with their defaults, at 20 Hz. One
 * JSON line per gait; meters and seconds (null: never within 60 s). The hearing table of docs/hearing.md
 * comes from here.
 */
import { AwarenessModel, Hearing, type Earshot } from "sightline";
import { Occluders } from "sightline/occluders";
import { DEFAULT_MOVEMENT_RULES } from "../../shared/movement/applyInput.js";
import { FOOTSTEPS, TICK_SECONDS } from "../../shared/gameRules.js";
import { DEFAULT_GUARD_RULES } from "../../server/sim/guardBrain.js";

/** A wall 0.4 m thick along x = 0..0.4, 40 m long, with a doorway 1.2 m wide at y = -0.6..0.6. */
function wallWithDoorway(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(0, -20, 0.4, 19.4);
  occluders.addRectangle(0, 0.6, 0.4, 19.4);
  return occluders;
}

/** Seconds until an idle guard hearing footsteps at `level` every `1 / perSecond` s turns suspicious. */
function secondsToSuspicious(level: number, perSecond: number): number | null {
  if (level <= 0) return null;
  const model = new AwarenessModel();
  const every = 1 / perSecond;
  let next = 0;
  for (let tick = 1; tick <= 60 / TICK_SECONDS; tick++) {
    const t = tick * TICK_SECONDS;
    const heard = t >= next ? [{ observerId: "guard", targetId: "player", level, position: { x: 0, y: 0 } }] : [];
    if (t >= next) next += every;
    if (model.step(tick, TICK_SECONDS, [], heard).some((e) => e.type === "suspicious")) return Math.round(t * 100) / 100;
  }
  return null;
}

export function hearingCalibrationBench(): void {
  const hearing = new Hearing(wallWithDoorway());
  const ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  const gaits = [
    { gait: "run (player at full speed, guard in pursuit)", speed: DEFAULT_MOVEMENT_RULES.walkSpeed, loudness: FOOTSTEPS.run },
    { gait: "walk (player easing off, guard on patrol)", speed: DEFAULT_GUARD_RULES.patrolSpeed, loudness: FOOTSTEPS.walk },
    { gait: "crouch", speed: DEFAULT_MOVEMENT_RULES.crouchSpeed, loudness: FOOTSTEPS.crouch },
  ];
  for (const g of gaits) {
    // Around the doorway: a listener 1 m behind the wall and 1.5 m along it from the doorway's middle; the
    // walker on the far side on the same line. The farthest spot (straight-line distance) where a step is heard.
    let farthest = 0;
    let farthestPath = 0;
    for (let d = 0.5; d <= 30; d += 0.05) {
      if (!hearing.hears({ x: 0.4 + d, y: 1.5, loudness: g.loudness, kind: "footstep", emitter: "p" }, -1, 1.5, ear)) continue;
      farthest = 1.4 + d;
      farthestPath = ear.distance;
    }
    const stepsPerSecond = g.speed / FOOTSTEPS.stride;
    console.log(JSON.stringify({
      bench: "hearing-calibration", gait: g.gait, speedMps: g.speed, loudnessM: g.loudness, stepsPerSecond: Math.round(stepsPerSecond * 100) / 100,
      heardInTheOpenUpToM: g.loudness,
      aroundADoorway: { farthestStraightM: Math.round(farthest * 100) / 100, itsPathM: Math.round(farthestPath * 100) / 100 },
      secondsToSuspicious: Object.fromEntries([1, 2, 3, 5, 8].map((m) => [`${m}m`, secondsToSuspicious(1 - m / g.loudness, stepsPerSecond)])),
    }));
  }
}
