import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One server process as a recorded load-test run measured it, the unit the cost model is fitted on. */
export interface ProcessRecord {
  /** The results file it came from (base name). */
  file: string;
  rooms: number;
  guards: number;
  clients: number;
  /** CPU over the measured window, % of one core (above 100 when GC threads add to a full loop). */
  cpuPercent: number;
  /** Event-loop lag p99 over the measured window, ms. */
  lagP99Ms: number;
  /** Guards in the process's heaviest room (see {@link heaviestRoomGuards}). */
  heaviestGuards: number;
}

/** What {@link readProcessRecords} read, and what it passed over and why. */
export interface RecordSet {
  records: ProcessRecord[];
  /** Results files that gave at least one record. */
  files: number;
  /** Files passed over, with the reason. */
  skipped: { file: string; reason: string }[];
}

interface RunOptions {
  rooms?: number;
  clients?: number;
  guards?: number | number[];
  server?: string;
}

interface ProcessFigures {
  rooms?: number;
  clients?: number;
  guards?: number;
  cpuPercentOfCore?: number;
  loopLagMs?: { p99?: number };
}

interface RunFile {
  options?: RunOptions;
  clients?: { atEnd?: number };
  server?: ProcessFigures & { cullingEnabled?: boolean; processes?: ProcessFigures[] };
}

/**
 * Every process record of the recorded runs in `dir` (`*.json`, in name order so the fit is the same on any
 * file system): each process of a several-process run, and the one process of a single-process run. The
 * plain peer (another room, without vision or culling) is left out: its cost says nothing of ours.
 */
export function readProcessRecords(dir: string, upTo?: string): RecordSet {
  // Names start with the date and time of the run, so `upTo` keeps the runs recorded by then.
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(".json") && (upTo === undefined || n <= upTo))
    .sort();
  const records: ProcessRecord[] = [];
  const skipped: RecordSet["skipped"] = [];
  let files = 0;
  for (const file of names) {
    const run = JSON.parse(readFileSync(join(dir, file), "utf8")) as RunFile;
    const reason = unusable(run);
    if (reason !== undefined) {
      skipped.push({ file, reason });
      continue;
    }
    const guardList = toList(run.options!.guards!);
    const processes = run.server!.processes ?? [singleProcess(run, guardList)];
    const before = records.length;
    for (const p of processes) {
      const record = toRecord(file, p, guardList);
      if (record !== undefined) records.push(record);
    }
    if (records.length > before) files++;
    else skipped.push({ file, reason: "no process with rooms, clients, guards, CPU and loop lag" });
  }
  return { records, files, skipped };
}

function unusable(run: RunFile): string | undefined {
  if (run.options === undefined || run.server === undefined || run.server === null) return "no options or server figures";
  if (run.options.server === "plain" || run.server.cullingEnabled === false) return "the plain peer room, not ours";
  if (run.options.guards === undefined) return "guards per room not recorded";
  return undefined;
}

function toList(guards: number | number[]): number[] {
  return Array.isArray(guards) ? guards : [guards];
}

/** A single-process run's figures, its guards as the load test cycled the list over the rooms. */
function singleProcess(run: RunFile, guardList: number[]): ProcessFigures {
  const rooms = run.server!.rooms ?? run.options!.rooms ?? 0;
  let guards = 0;
  for (let r = 0; r < rooms; r++) guards += guardList[r % guardList.length]!;
  return {
    rooms,
    clients: run.clients?.atEnd ?? run.options!.clients,
    guards,
    cpuPercentOfCore: run.server!.cpuPercentOfCore,
    loopLagMs: run.server!.loopLagMs,
  };
}

function toRecord(file: string, p: ProcessFigures, guardList: number[]): ProcessRecord | undefined {
  const { rooms, clients, guards, cpuPercentOfCore } = p;
  const lag = p.loopLagMs?.p99;
  const figures = [rooms, clients, guards, cpuPercentOfCore, lag];
  if (!figures.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0) || rooms! < 1 || lag! <= 0) return undefined;
  return { file, rooms: rooms!, guards: guards!, clients: clients!, cpuPercent: cpuPercentOfCore!, lagP99Ms: lag!, heaviestGuards: heaviestRoomGuards(guardList, rooms!, guards!) };
}

/**
 * Guards in a process's heaviest room, which no record states: with the load test's lists of one or two
 * sizes (`--guards 8,512`), a process holds a room of the larger size exactly when its guards exceed its
 * rooms times the smaller. With more sizes this is an upper bound.
 */
export function heaviestRoomGuards(guardList: readonly number[], rooms: number, guards: number): number {
  const light = Math.min(...guardList);
  return guards > rooms * light ? Math.max(...guardList) : light;
}
