import { matchMaker } from "@colyseus/core";
import type { ProcessLoad, ProcessLoadBoard } from "./processLoad.js";

/** A process the matchmaker may create a room on, as Colyseus lists it (its own room count). */
export interface Candidate {
  processId: string;
  roomCount: number;
}

/** When a process counts as full whatever its modelled weight. */
export interface Saturation {
  /**
   * Event-loop busy share at or above which a process is full, 0..1.
   * @default 0.85
   */
  busy: number;
  /**
   * Loop-lag p99 at or above which a process is full, ms.
   * @default 40
   */
  lagP99Ms: number;
}

/** When `pickProcess` takes a process for full unless told otherwise (the placement simulator judges by it too). */
export const DEFAULT_SATURATION: Saturation = Object.freeze({ busy: 0.85, lagP99Ms: 40 });

/**
 * Colyseus's own placement, as core 0.18.17 writes it (`selectProcessIdToCreateRoom`'s default): the first
 * of the candidates sorted by room count with its comparator (ties keep an order that depends on the
 * listing's), among the processes that are not draining. The server's `PLACEMENT=rooms`, and the
 * simulator's baseline.
 */
export function fewestRooms(candidates: readonly Candidate[], loads: ReadonlyMap<string, ProcessLoad> = new Map()): string | undefined {
  const open = candidates.filter((c) => loads.get(c.processId)?.draining !== true);
  return open.sort((p1, p2) => (p1.roomCount > p2.roomCount ? 1 : -1))[0]?.processId;
}

/**
 * The process with the most headroom: the one whose rooms weigh least (its published weight plus what was
 * placed on it since it last published), among those whose rooms do not saturate their loop, leaving out
 * any that is draining; a process that has not published yet weighs nothing (it has just started). Ties go to fewer rooms, then to the
 * lower process id, so every matchmaker picks the same one from the same figures.
 */
export function pickProcess(
  candidates: readonly Candidate[],
  loads: ReadonlyMap<string, ProcessLoad>,
  pending: ReadonlyMap<string, number>,
  saturation: Saturation = DEFAULT_SATURATION,
): string | undefined {
  let best: { id: string; full: boolean; weight: number; rooms: number } | undefined;
  for (const c of candidates) {
    const load = loads.get(c.processId);
    if (load?.draining === true) continue;
    // A process without rooms is never full: what keeps its loop busy then is starting up, not playing.
    const full = load !== undefined && load.rooms > 0 && (load.busy >= saturation.busy || load.lagP99Ms >= saturation.lagP99Ms);
    const weight = (load?.weight ?? 0) + (pending.get(c.processId) ?? 0);
    const entry = { id: c.processId, full, weight, rooms: c.roomCount };
    if (best === undefined || before(entry, best)) best = entry;
  }
  return best?.id;
}

function before(a: { id: string; full: boolean; weight: number; rooms: number }, b: typeof a): boolean {
  if (a.full !== b.full) return !a.full;
  if (a.weight !== b.weight) return a.weight < b.weight;
  if (a.rooms !== b.rooms) return a.rooms < b.rooms;
  return a.id < b.id;
}

/**
 * Room weight placed on each process that its figures do not hold yet: the tally of placements on it
 * (thousandths) beyond the create requests it had taken in when it published.
 */
export function pendingWeights(placed: ReadonlyMap<string, number>, loads: ReadonlyMap<string, ProcessLoad>): Map<string, number> {
  const pending = new Map<string, number>();
  for (const [id, total] of placed) pending.set(id, Math.max(0, total - (loads.get(id)?.absorbed ?? 0)) / 1000);
  return pending;
}

/**
 * A `selectProcessIdToCreateRoom` for Colyseus that places each new room on the process with the most
 * headroom ({@link pickProcess}) rather than the one with the fewest rooms: rooms differ a lot in cost.
 * Every placement is added to a shared tally at once, and each process counts the create requests it has
 * taken in on the same scale; what is placed on a process beyond that counts as pending on it. So a burst
 * of creates through several matchmakers does not all land on the process that looked lightest a second
 * ago, and a room still on its way (or still being built) is never missed. If the figures cannot
 * be read, the room goes where Colyseus would have put it (fewest rooms).
 */
export function loadAwarePlacement(board: ProcessLoadBoard, saturation: Saturation = DEFAULT_SATURATION) {
  return async (_roomName: string, clientOptions: unknown): Promise<string> => {
    const candidates = await matchMaker.stats.fetchAll();
    let loads = new Map<string, ProcessLoad>();
    let placed = new Map<string, number>();
    try {
      [loads, placed] = await Promise.all([board.readAll(), board.readPlaced()]);
    } catch {
      // Advice only: without it, the room count decides (the tie-breaks of pickProcess).
    }
    const chosen = pickProcess(candidates, loads, pendingWeights(placed, loads), saturation) ?? matchMaker.processId;
    await board.recordPlacement(chosen, clientOptions).catch(() => undefined);
    return chosen;
  };
}

/**
 * A `selectProcessIdToCreateRoom` with Colyseus's rule ({@link fewestRooms}) that leaves out draining
 * processes, which Colyseus's own would still pick: `PLACEMENT=rooms`.
 */
export function roomCountPlacement(board: ProcessLoadBoard) {
  return async (): Promise<string> => {
    const candidates = await matchMaker.stats.fetchAll();
    const loads = await board.readAll().catch(() => new Map<string, ProcessLoad>());
    return fewestRooms(candidates, loads) ?? matchMaker.processId;
  };
}
