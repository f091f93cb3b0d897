import { matchMaker } from "@colyseus/core";
import { EventLoopLag, type LagWindow } from "./eventLoopLag.js";
import { HeapAfterGc, type HeapAfterGcReading } from "./heapAfterGc.js";
import type { StealthRoom } from "../rooms/StealthRoom.js";

/** This process: CPU, memory and event-loop lag. */
export interface ProcessFigures {
  processId: string;
  uptimeSeconds: number;
  /** When these figures were read, ms on the server's `performance.now()` clock (for rates between reads). */
  sampledAtMs: number;
  /** CPU time used since the process started, seconds (`process.cpuUsage()`). */
  cpu: { userSeconds: number; systemSeconds: number };
  /** `process.memoryUsage()`, bytes. */
  memory: NodeJS.MemoryUsage;
  /** The heap right after the last major GC (the live heap; null before the first): what memory growth is judged on. */
  heapAfterMajorGc: HeapAfterGcReading | null;
  /** Event-loop lag, ms: the last completed window (null before the first ends) and the one in progress. */
  eventLoopLagMs: { windowSeconds: number; resolutionMs: number; last: LagWindow | null; current: LagWindow };
}

/** One `stealth` room: who is in it, its shape, and its `RoomStats` snapshot. */
export interface RoomFigures extends Record<string, unknown> {
  roomId: string;
  map: string;
  clients: number;
  guards: number;
  /** False when the room runs with culling off (every view holds everything). */
  cullingEnabled: boolean;
  /** How far player characters see for culling, meters (nothing farther reaches a client's view). */
  cullingRange: number;
}

let lag: EventLoopLag | undefined;
let heap: HeapAfterGc | undefined;

/**
 * The loop-lag monitor of this process, started on first use. One per process: the loop is the process's,
 * whatever number of servers a test creates in it.
 */
export function processLoopLag(): EventLoopLag {
  lag ??= new EventLoopLag();
  return lag;
}

/** The post-GC heap monitor of this process, started on first use (one per process, like the loop lag). */
export function processHeapAfterGc(): HeapAfterGc {
  heap ??= new HeapAfterGc();
  return heap;
}

/** CPU, memory and loop lag of this process, now. */
export function processFigures(): ProcessFigures {
  const cpu = process.cpuUsage();
  const loop = processLoopLag();
  return {
    processId: matchMaker.processId,
    uptimeSeconds: Math.round(process.uptime()),
    sampledAtMs: performance.now(),
    cpu: { userSeconds: cpu.user / 1e6, systemSeconds: cpu.system / 1e6 },
    memory: process.memoryUsage(),
    heapAfterMajorGc: processHeapAfterGc().last,
    eventLoopLagMs: { windowSeconds: loop.windowSeconds, resolutionMs: loop.resolutionMs, last: loop.last, current: loop.current() },
  };
}

/** What `GET /stats` says about one room. */
export function roomFigures(room: StealthRoom): RoomFigures {
  return {
    roomId: room.roomId,
    map: room.state.map,
    clients: room.clients.length,
    guards: room.sim.guards.length,
    cullingEnabled: room.culling.enabled,
    cullingRange: room.culling.range,
    ...room.stats.snapshot(),
  };
}
