import { seededRandom } from "../../shared/seededRandom.js";

/** One room of a workload: when and through which matchmaker it is asked for, its shape and its life. */
export interface RoomSpec {
  /** When its creator asks a matchmaker for it, simulated ms. */
  at: number;
  /** Index of the process whose matchmaker takes the create (every process matchmakes). */
  via: number;
  guards: number;
  /** Players it fills to, its creator included. */
  clients: number;
  /** Over how long its other players join, evenly, from its creation, ms. */
  fillMs: number;
  /** How long it lives from its creation, ms (its players all leave then and it is disposed). */
  lifetimeMs: number;
  /** How long the create request takes to reach its host when that is another process, ms. */
  hopMs: number;
}

/** What one scenario asks of N processes, the same whatever placement rule or publish interval replays it. */
export interface Workload {
  scenario: ScenarioName;
  processes: number;
  /** Simulated time, ms: nothing after it counts. */
  durationMs: number;
  /** Start of the window the load over time is measured in, ms (after the warm-up). */
  measureFromMs: number;
  /** In the order they are asked for. */
  rooms: RoomSpec[];
}

export const SCENARIOS = ["steady", "skewed", "burst", "ramp", "alternating"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

const MINUTE = 60_000;
/** A create request's trip to another process through Redis pub/sub, ms. */
const HOP_MS = [5, 50] as const;

/** A room's shape: guards and the players it fills to. */
interface Shape {
  guards: number;
  clients: number;
}

/**
 * The workload of `scenario` on `processes` processes, from `seed`: the same seed, scenario and process
 * count always give the same rooms.
 * - `steady`: rooms of 64 guards and 10-25 players, arriving at random (Poisson) through random matchmakers,
 *   each living an exponential 10 minutes on average, about 10 live per process; 60 minutes, measured
 *   after 20.
 * - `skewed`: the same churn with the load tests' skewed mix: half light rooms of 8 guards, half heavy of 256
 *   or 384, 8-16 players each, about 8 live per process.
 * - `burst`: the skewed mix at about 3 live rooms per process, and three bursts of 50 creates per 8
 *   processes within one second each (at 10, 17 and 24 minutes), through random matchmakers; burst rooms
 *   live 4 minutes on average. 30 minutes, measured after 9.
 * - `ramp`: the capacity runs scaled to N: 6 rooms per process (12 on two) of 64 guards, created one after
 *   another within 1.8 s through the matchmakers in turn, each filling to 25 players over 20 s, kept 160 s,
 *   measured after 40 s.
 * - `alternating`: the recorded placement runs (`--guards 8,256`, 16 rooms on two processes): 8 rooms per
 *   process, alternately 8 and 256 guards, created the same way within 2.4 s, 25 players each over 20 s,
 *   kept 100 s, measured after 40 s.
 */
export function workload(scenario: ScenarioName, processes: number, seed: number): Workload {
  const random = seededRandom(mix(seed, SCENARIOS.indexOf(scenario), processes));
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * random();
  const pick = (n: number) => Math.min(n - 1, Math.floor(random() * n));
  const exponential = (mean: number) => -mean * Math.log(1 - random());
  const rooms: RoomSpec[] = [];
  const add = (at: number, shape: Shape, fillMs: number, lifetimeMs: number, via = pick(processes)) =>
    rooms.push({ at, via, ...shape, fillMs, lifetimeMs, hopMs: uniform(HOP_MS[0], HOP_MS[1]) });
  const uniformShape = (): Shape => ({ guards: 64, clients: 10 + pick(16) });
  const skewedShape = (): Shape => ({ guards: random() < 0.5 ? 8 : random() < 0.5 ? 256 : 384, clients: 8 + pick(9) });
  /** Poisson arrivals keeping about `perProcess` rooms of mean life `lifeMs` live per process. */
  const churn = (untilMs: number, perProcess: number, lifeMs: number, shape: () => Shape) => {
    const gapMs = lifeMs / (perProcess * processes);
    for (let t = exponential(gapMs); t < untilMs; t += exponential(gapMs)) add(t, shape(), 30_000, exponential(lifeMs));
  };
  /**
   * `count` rooms one after another, ~150 ms apart per two processes, through the matchmakers in turn: as the
   * load test creates them (its creators go through the endpoints in turn), so the recorded runs replay.
   */
  const oneAfterAnother = (count: number, shape: (i: number) => Shape, keepMs: number) => {
    const spacing = 300 / processes;
    for (let i = 0; i < count; i++) add(i * spacing, shape(i), 20_000, keepMs - i * spacing, i % processes);
  };

  switch (scenario) {
    case "steady":
      churn(60 * MINUTE, 10, 10 * MINUTE, uniformShape);
      return { scenario, processes, durationMs: 60 * MINUTE, measureFromMs: 20 * MINUTE, rooms };
    case "skewed":
      churn(60 * MINUTE, 8, 10 * MINUTE, skewedShape);
      return { scenario, processes, durationMs: 60 * MINUTE, measureFromMs: 20 * MINUTE, rooms };
    case "burst": {
      churn(30 * MINUTE, 3, 10 * MINUTE, skewedShape);
      const size = Math.ceil((50 * processes) / 8);
      for (const start of [10 * MINUTE, 17 * MINUTE, 24 * MINUTE]) {
        for (let i = 0; i < size; i++) add(start + uniform(0, 1000), skewedShape(), 30_000, exponential(4 * MINUTE));
      }
      rooms.sort((a, b) => a.at - b.at);
      return { scenario, processes, durationMs: 30 * MINUTE, measureFromMs: 9 * MINUTE, rooms };
    }
    case "ramp":
      oneAfterAnother(6 * processes, () => ({ guards: 64, clients: 25 }), 160_000);
      return { scenario, processes, durationMs: 160_000, measureFromMs: 40_000, rooms };
    case "alternating":
      oneAfterAnother(8 * processes, (i) => ({ guards: i % 2 === 0 ? 8 : 256, clients: 25 }), 100_000);
      return { scenario, processes, durationMs: 100_000, measureFromMs: 40_000, rooms };
  }
}

/** One 32-bit seed per (seed, stream, n), so each scenario and size draws its own numbers. */
export function mix(seed: number, stream: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35) ^ Math.imul(n + 7, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}
