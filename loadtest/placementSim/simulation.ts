import { fewestRooms, pendingWeights, pickProcess, type Candidate } from "../../server/scaleOut/placement.js";
import { tallyOf, type ProcessLoad } from "../../server/scaleOut/processLoad.js";
import { seededRandom } from "../../shared/seededRandom.js";
import type { CostModel } from "./costModel.js";
import { EventQueue } from "./eventQueue.js";
import { LoadTracker, type RunFigures } from "./loadTracker.js";
import { mix, type RoomSpec, type Workload } from "./scenarios.js";
import { SimProcess, type SimRoom } from "./simProcess.js";

/** Which placement the matchmakers run: `loadAwarePlacement` (`load`) or Colyseus's rule (`rooms`). */
export const RULES = ["load", "rooms"] as const;
export type Rule = (typeof RULES)[number];

/** How one workload is replayed. */
export interface RunSettings {
  rule: Rule;
  /** How often each process publishes its load, ms (the server's default is 1000). */
  publishMs: number;
  /** Rooms a process holds at most; a create beyond is refused (the server's `MAX_ROOMS`, default 64). */
  maxRooms: number;
  /** Seed of the processes' publication phases. */
  seed: number;
  /** Processes (by index) that publish `draining: true` throughout. */
  draining?: ReadonlySet<number>;
}

/** What one replay gives: the figures over time and what happened to each create. */
export interface RunResult extends RunFigures {
  roomsRequested: number;
  roomsCreated: number;
  /** Creates that reached a process at its room cap. */
  roomsRefused: number;
  /** Creates placed on a process whose loop was saturated at the time (by the modelled truth). */
  placedOnSaturated: number;
  /** Rooms created on each process over the run, by index. */
  createdPerProcess: number[];
}

type SimEvent =
  | { kind: "arrive"; spec: RoomSpec }
  | { kind: "create"; spec: RoomSpec; host: SimProcess }
  | { kind: "join"; room: SimRoom; host: SimProcess; spec: RoomSpec; createdAt: number }
  | { kind: "dispose"; room: SimRoom; host: SimProcess }
  | { kind: "persist"; host: SimProcess }
  | { kind: "sample" };

/** How often the load over time is sampled for its percentiles, ms. */
const SAMPLE_MS = 1000;

/**
 * Replays `work` on its processes with `settings`, in simulated time, through the server's own placement
 * functions: each create is placed when it reaches its matchmaker, from the room counts Colyseus last wrote
 * (its own live), the loads each process last published and the shared tally of placements; it reaches its
 * host after a hop, where it is counted as taken in and created, or refused at the room cap.
 */
export function simulate(work: Workload, model: CostModel, settings: RunSettings): RunResult {
  const phase = seededRandom(mix(settings.seed, 101, work.processes));
  const processes: SimProcess[] = [];
  const loads = new Map<string, ProcessLoad>();
  for (let i = 0; i < work.processes; i++) {
    // Zero-padded to the widest index, so ids sort as the processes registered (pickProcess breaks ties by id).
    const id = `p${String(i).padStart(4, "0")}`;
    const p = new SimProcess(id, model, settings.publishMs, phase() * settings.publishMs, settings.draining?.has(i) === true);
    processes.push(p);
    loads.set(id, p.published);
  }
  const index = new Map(processes.map((p, i) => [p, i]));
  const byId = new Map(processes.map((p) => [p.id, p]));
  const placed = new Map<string, number>();
  const tracker = new LoadTracker(processes, work.measureFromMs, work.durationMs);
  const queue = new EventQueue<SimEvent>();
  for (const spec of work.rooms) queue.push(spec.at, { kind: "arrive", spec });
  for (let t = work.measureFromMs; t <= work.durationMs; t += SAMPLE_MS) queue.push(t, { kind: "sample" });
  const result = { roomsRequested: work.rooms.length, roomsCreated: 0, roomsRefused: 0, placedOnSaturated: 0, createdPerProcess: processes.map(() => 0) };

  const changed = (now: number, p: SimProcess) => {
    const trailing = p.persist(now);
    if (trailing !== undefined) queue.push(trailing, { kind: "persist", host: p });
    tracker.update(now, p);
  };

  while (queue.peekTime() <= work.durationMs) {
    const now = queue.peekTime();
    const event = queue.pop()!;
    switch (event.kind) {
      case "arrive": {
        const via = processes[event.spec.via]!;
        // A process may have published at one of its own changes since the last arrival: read them all.
        for (const p of processes) {
          p.catchUp(now);
          loads.set(p.id, p.published);
        }
        // Colyseus lists its own process's live count and the others' last written ones, in the order the
        // processes registered (HGETALL's), which the tie order of its sort depends on.
        const candidates: Candidate[] = processes.map((p) => ({ processId: p.id, roomCount: p === via ? p.rooms.length : p.persistedRooms }));
        let hostId: string | undefined;
        if (settings.rule === "rooms") hostId = fewestRooms(candidates, loads);
        else {
          hostId = pickProcess(candidates, loads, pendingWeights(placed, loads));
          if (hostId !== undefined) placed.set(hostId, (placed.get(hostId) ?? 0) + tallyOf({ guards: event.spec.guards }));
        }
        // Both rules fall back on the matchmaker's own process when they find none (all draining).
        const host = (hostId === undefined ? undefined : byId.get(hostId)) ?? via;
        if (tracker.isSaturated(host)) result.placedOnSaturated++;
        queue.push(now + (host === via ? 0 : event.spec.hopMs), { kind: "create", spec: event.spec, host });
        break;
      }
      case "create": {
        const { spec, host } = event;
        host.takeRequest(now, tallyOf({ guards: spec.guards }));
        if (host.rooms.length >= settings.maxRooms) {
          result.roomsRefused++;
          break;
        }
        const room = host.addRoom(now, spec.guards, spec.clients);
        result.roomsCreated++;
        result.createdPerProcess[index.get(host)!]!++;
        changed(now, host);
        if (spec.clients > 1) queue.push(now + joinGap(spec), { kind: "join", room, host, spec, createdAt: now });
        queue.push(now + spec.lifetimeMs, { kind: "dispose", room, host });
        break;
      }
      case "join": {
        const { room, host, spec } = event;
        if (room.disposed) break;
        host.join(now, room);
        changed(now, host);
        if (room.clients < room.targetClients) queue.push(event.createdAt + joinGap(spec) * room.clients, event);
        break;
      }
      case "dispose":
        event.host.dispose(now, event.room);
        changed(now, event.host);
        break;
      case "persist": {
        const again = event.host.trailingPersist(now);
        if (again !== undefined) queue.push(again, event);
        break;
      }
      case "sample":
        tracker.sample();
        break;
    }
  }
  return { ...result, ...tracker.finish() };
}

/** Time between two of a room's joins, ms: its players arrive evenly over its fill time. */
function joinGap(spec: RoomSpec): number {
  return spec.fillMs / Math.max(1, spec.clients - 1);
}
