// Hearing without Colyseus: a thief runs down the far side of a wall with a doorway in it, then throws a
// stone. A guard who cannot see it hears its footsteps only where the way round the wall is short enough;
// the stone's crash makes it suspicious and tells it where to look. A player beside the guard is told the
// way each sound came, never who made it.
// Run it: `npx tsx examples/hearing/main.ts` (or compile with tsc and run with node).
import { AwarenessModel, Hearing, type Earshot, type Heard, type Noise } from "sightline";
import { NoiseDelivery } from "sightline/culling";
import { Occluders } from "sightline/occluders";

const TICK_SECONDS = 1 / 20;
const RUN = { speed: 3, stride: 0.8, loudness: 10 }; // m/s, meters a step, meters of path a step carries
const STONE = { loudness: 14, salience: 5 }; // a crash says five times what a footstep says

// A wall along x = 10..11 with a 2 m doorway at y = 8..10.
const occluders = new Occluders();
occluders.addRectangle(10, 0, 1, 8);
occluders.addRectangle(10, 10, 1, 20);
const hearing = new Hearing(occluders);
const awareness = new AwarenessModel();
const delivery = new NoiseDelivery(hearing);

const guard = { x: 6, y: 9 }; // west of the wall, level with the doorway, looking away from it
const ally = { id: "ally", team: "blue", x: 5, y: 11 }; // a player beside the guard
const thief = { id: "thief", team: "red", x: 13, y: 28 }; // runs south down the east side

const ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
const degrees = (radians: number) => Math.round((radians * 180) / Math.PI);
let lastOutcome = "";
let sinceStep = 0;
let allyTold = 0;

/**
 * What the player beside the guard is told (what your server would send it): the thief is not in its
 * view, so no id and no position. Printed for the first footstep it hears, and for the stone.
 */
function tellAlly(noise: Noise): void {
  if (!delivery.hear(noise, [ally, thief])) return;
  const message = delivery.messageFor(ally.id, ally.team, false);
  if (message === undefined || (noise.kind === "footstep" && allyTold++ > 0)) return;
  console.log(`  the ally is told ${JSON.stringify(message)}`);
}

/** The guard sees nothing (it looks away); what it heard feeds its meter and its last-known position. */
function stepAwareness(tick: number, heard: Heard[]): void {
  for (const e of awareness.step(tick, TICK_SECONDS, [], heard)) {
    console.log(`  tick ${tick}: guard ${e.type} ${e.targetId} by ${e.sense}, looks at (${e.position.x}, ${e.position.y.toFixed(1)})`);
  }
}

for (let tick = 1; tick <= 180; tick++) {
  thief.y -= RUN.speed * TICK_SECONDS;
  sinceStep += RUN.speed * TICK_SECONDS;
  const heard: Heard[] = [];
  if (sinceStep >= RUN.stride) {
    sinceStep -= RUN.stride;
    const step: Noise = { x: thief.x, y: thief.y, loudness: RUN.loudness, kind: "footstep", emitter: thief.id };
    const straight = Math.hypot(step.x - guard.x, step.y - guard.y);
    let outcome: string;
    if (hearing.hears(step, guard.x, guard.y, ear)) {
      heard.push({ observerId: "guard", targetId: thief.id, level: ear.level, position: { x: step.x, y: step.y } });
      outcome = ear.direct ? "heard straight through the doorway" : `heard round the wall, from ${degrees(Math.atan2(ear.dirY, ear.dirX))} deg (the doorway's way)`;
    } else outcome = straight < RUN.loudness ? "not heard: the way round the wall is longer than 10 m" : "out of earshot";
    // Print when the answer changes, not every footstep.
    if (outcome !== lastOutcome) {
      const way = outcome.startsWith("heard") ? `, ${ear.distance.toFixed(1)} m of path, level ${ear.level.toFixed(2)}` : "";
      console.log(`tick ${tick}: footstep at (${step.x}, ${step.y.toFixed(1)}), ${straight.toFixed(1)} m in a straight line: ${outcome}${way}`);
      lastOutcome = outcome;
    }
    tellAlly(step);
  }
  stepAwareness(tick, heard);
}

// The thief throws a stone that crashes on its own side, 4 m up from the doorway: the guard hears it round
// the wall and goes to look where it fell, not where the thief is.
const stone: Noise = { x: 12, y: 14, loudness: STONE.loudness, kind: "stone", emitter: thief.id };
const heard: Heard[] = [];
if (hearing.hears(stone, guard.x, guard.y, ear)) {
  console.log(`tick 181: the stone at (12, 14) is heard, ${ear.distance.toFixed(1)} m of path, level ${ear.level.toFixed(2)}`);
  heard.push({ observerId: "guard", targetId: thief.id, level: ear.level, position: { x: stone.x, y: stone.y }, salience: STONE.salience });
}
tellAlly(stone);
stepAwareness(181, heard);
console.log(`guard is ${awareness.state("guard")}, awareness of the thief ${awareness.level("guard", "thief").toFixed(2)}, thief at (${thief.x}, ${thief.y.toFixed(1)})`);
