import type { StealthSimulation } from "../../server/sim/stealthSimulation.js";

/**
 * How the profiling scripts' players move: at step `t`, once a second of game time (20 steps), each takes
 * a new heading at walking speed, and one in ten stands still for that second instead.
 */
export function walkAtRandom(sim: StealthSimulation, players: readonly string[], random: () => number, t: number): void {
  if (t % 20 !== 0) return;
  for (const id of players) {
    const a = random() * 2 * Math.PI;
    const speed = random() < 0.1 ? 0 : sim.movement.walkSpeed;
    sim.setMotion(id, { vx: Math.cos(a) * speed, vy: Math.sin(a) * speed, facing: a, crouch: false });
  }
}
