import { Body, Box, Circle, Vec2, World } from "planck";
import { seededRandom } from "../../shared/seededRandom.js";

export const WALL = 0x0001;
export const GUARD = 0x0002;
export const PLAYER = 0x0004;

/** A moving character of a benchmark level: pose in meters/radians, velocity in meters per tick. */
export interface BenchAgent {
  id: string;
  x: number;
  y: number;
  facing: number;
  vx: number;
  vy: number;
  /** Phase of the gaze sweep around the heading, radians. */
  gaze: number;
  body: Body;
}

export interface BenchLevel {
  world: World;
  /** Side of the square level, meters. */
  size: number;
  guards: BenchAgent[];
  players: BenchAgent[];
  playerRadius: number;
  random: () => number;
}

/**
 * A seeded square level of `walls` random rotated boxes (0.4-4 m per side) with guards and players on
 * kinematic circle bodies, never spawned inside a wall. Walls are on category WALL; guards and players
 * on their own categories, so a mask of WALL lets sight pass through characters.
 */
export function buildBenchLevel(opts: { seed: number; walls: number; guards: number; players: number; size: number }): BenchLevel {
  const random = seededRandom(opts.seed);
  const world = new World({ gravity: Vec2(0, 0) });
  const size = opts.size;
  for (let i = 0; i < opts.walls; i++) {
    const body = world.createBody({ position: Vec2(random() * size, random() * size), angle: random() * Math.PI });
    body.createFixture({ shape: new Box(0.2 + random() * 1.8, 0.2 + random() * 1.8), filterCategoryBits: WALL });
  }
  const playerRadius = 0.4;
  const spawn = (id: string, category: number, speed: number): BenchAgent => {
    for (;;) {
      const x = random() * size;
      const y = random() * size;
      if (insideAnyWall(world, x, y, playerRadius)) continue;
      const body = world.createBody({ type: "kinematic", position: Vec2(x, y) });
      body.createFixture({ shape: new Circle(playerRadius), filterCategoryBits: category });
      const heading = random() * 2 * Math.PI;
      return { id, x, y, facing: heading, vx: Math.cos(heading) * speed, vy: Math.sin(heading) * speed, gaze: random() * 2 * Math.PI, body };
    }
  };
  const guards = Array.from({ length: opts.guards }, (_, i) => spawn(`g${i}`, GUARD, 0.075));
  const players = Array.from({ length: opts.players }, (_, i) => spawn(`p${i}`, PLAYER, 0.15));
  return { world, size, guards, players, playerRadius, random };
}

function insideAnyWall(world: World, x: number, y: number, margin: number): boolean {
  let hit = false;
  world.queryAABB({ lowerBound: Vec2(x - margin, y - margin), upperBound: Vec2(x + margin, y + margin) }, (f) => {
    if ((f.getFilterCategoryBits() & WALL) !== 0) hit = true;
    return !hit;
  });
  return hit;
}

/**
 * Moves every agent one tick (guards 1.5 m/s, players 3 m/s at 20 Hz; they wander, turn, sweep their gaze and bounce off
 * the level's border; walls are not collided with, only looked through or not) and syncs their bodies.
 */
const moveTo = Vec2(0, 0);

export function stepBenchLevel(level: BenchLevel): void {
  const { random, size } = level;
  const move = (a: BenchAgent) => {
    if (random() < 0.05) {
      const speed = Math.hypot(a.vx, a.vy);
      const heading = Math.atan2(a.vy, a.vx) + (random() - 0.5) * 2;
      a.vx = Math.cos(heading) * speed;
      a.vy = Math.sin(heading) * speed;
    }
    a.x += a.vx;
    a.y += a.vy;
    if (a.x < 0 || a.x > size) { a.vx = -a.vx; a.x += 2 * a.vx; }
    if (a.y < 0 || a.y > size) { a.vy = -a.vy; a.y += 2 * a.vy; }
    // Everyone's gaze sweeps +-30 degrees around the heading, a full sweep every ~3 s at 20 Hz.
    a.gaze += 0.1;
    a.facing = Math.atan2(a.vy, a.vx) + 0.5 * Math.sin(a.gaze);
    // planck copies the position: one reused vector keeps the harness from feeding the GC mid-measurement.
    moveTo.x = a.x;
    moveTo.y = a.y;
    a.body.setTransform(moveTo, 0);
  };
  for (const g of level.guards) move(g);
  for (const p of level.players) move(p);
}
