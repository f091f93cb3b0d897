/**
 * What the load run and its join probe (a child process, {@link JoinProbe}) say to each other over IPC.
 * @internal
 */

/** Parent to probe: start joining these rooms. */
export interface ProbeGo {
  kind: "go";
  /** The server processes' endpoints (`ws://host:port`); the probe matchmakes through each in turn. */
  endpoints: string[];
  roomName: string;
  roomIds: string[];
  /** Join options of every probe join (a spawn the map has, a team of its own). */
  joinOptions: Record<string, unknown>;
  /** Joins started per second; one at a time, so a slow join delays the next rather than overlapping it. */
  perSecond: number;
}

/** Parent to probe: stop and report. */
export interface ProbeStop {
  kind: "stop";
}

/** Probe to parent: ready for `go` (its modules are loaded). */
export interface ProbeReady {
  kind: "ready";
}

/** Probe to parent: what it measured, then it exits. */
export interface ProbeReport {
  kind: "report";
  /** Join round trips (matchmaking request to joined room), ms, by where the room was. */
  joins: { local: number[]; cross: number[] };
  /** Joins that failed or took over the probe's timeout. */
  failed: number;
  /** The first few of them, described. */
  failures: string[];
  /** The probe's own event-loop lag p99 over its run, ms: near 0 shows its timings are the server's. */
  loopLagP99Ms: number;
}

export type ProbeMessage = ProbeGo | ProbeStop | ProbeReady | ProbeReport;
