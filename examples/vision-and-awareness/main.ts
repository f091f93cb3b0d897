// A guard, a crate and a thief, with no physics engine: vision and detection on plain rectangles.
// Run it: `npx tsx examples/vision-and-awareness/main.ts` (or compile with tsc and run with node).
import { AwarenessModel, VisionSystem } from "sightline";
import { Occluders } from "sightline/occluders";

const TICK_SECONDS = 1 / 20;

const occluders = new Occluders();
occluders.addRectangle(4, -1, 1, 2); // a crate, 1 m by 2 m, between the guard and the thief
const vision = new VisionSystem(occluders);
const awareness = new AwarenessModel();

// The guard stands at the origin looking east (0 rad) with a 90-degree cone reaching 12 m.
vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 12, fov: Math.PI / 2 });
vision.addObservable("thief", { position: { x: 8, y: 0 }, radius: 0.4 });

for (let tick = 1; tick <= 80; tick++) {
  // The thief sneaks north at 1.5 m/s, out of the crate's shadow and into the guard's cone.
  vision.moveObservable("thief", 8, tick * 1.5 * TICK_SECONDS);
  vision.tick();
  for (const e of awareness.step(tick, TICK_SECONDS, vision.sightings())) {
    console.log(`tick ${tick}: ${e.observerId} ${e.type} ${e.targetId} at (${e.position.x.toFixed(1)}, ${e.position.y.toFixed(1)})`);
  }
}
console.log(`guard is ${awareness.state("guard")}, awareness of the thief ${awareness.level("guard", "thief").toFixed(2)}`);
