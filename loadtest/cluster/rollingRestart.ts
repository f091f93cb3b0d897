import { Client, type Room } from "@colyseus/sdk";
import { Redis } from "ioredis";
import { seededRandom } from "../../shared/seededRandom.js";
import { LocalCluster, type ClusterMember } from "./localCluster.js";
import { hostOf } from "./roomHost.js";

/** What a rolling restart under load does. Seconds unless said otherwise. */
export interface RollingRestartOptions {
  /** Server processes, restarted one after the other. */
  processes: number;
  /** Players, each playing game after game until the restarts are over. */
  bots: number;
  /** How long one game lasts for a player, drawn in [min, max]: it then leaves and joins another. */
  session: readonly [number, number];
  /** Each process's drain deadline (`DRAIN_SECONDS`): games still running then are closed. */
  drainSeconds: number;
  /** Seconds of play before the first restart, and after the last. */
  settle: number;
  /** Share of the games in which the player's connection drops once, and it reconnects (through any process). */
  drops: number;
  /** Guards per room (`MAX_GUARDS` caps what a create asks for). */
  guards: number;
  seed: number;
}

/** One process's restart. */
export interface Restart {
  processId: string;
  /** Rooms and players on it when it was told to drain. */
  rooms: number;
  clients: number;
  /** From the signal to its exit, s, and its exit code. */
  drainSeconds: number;
  exitCode: number | null;
  /** Seconds until its replacement listened. */
  replacedInSeconds: number;
}

/** What the bots saw over the whole run. */
export interface RollingRestartReport {
  restarts: Restart[];
  games: {
    /** Games joined, and played to their end (the player left). */
    started: number;
    completed: number;
    /** Closed by a server before their end while no deadline had passed: must be 0. */
    lostBeforeDeadline: number;
    /** Closed because their process's drain deadline came (allowed: that is what a deadline is). */
    closedAtDeadline: number;
    /** Still running when the run gave up waiting for games to end. */
    running: number;
  };
  reconnections: { attempted: number; succeeded: number; failed: number; failures: string[] };
  joins: { attempted: number; failed: number; failures: string[] };
  seconds: number;
}

/** Longest a drain may take beyond its deadline before the run gives up on it, s. */
const DRAIN_SLACK_SECONDS = 15;

/**
 * Restarts every process of a local cluster in turn while bots play: each process is told to drain
 * (SIGTERM), and once it has exited a fresh one takes its place, then the next. Bots play games of a
 * bounded length back to back, each joining through a random live process (a third of them opening a room
 * of their own, so rooms are spread over the processes), some dropping their
 * connection mid-game and reconnecting through another random one. A game the server closes is lost
 * unless its process's drain deadline had come. With games shorter than the deadline, a rolling restart
 * loses none.
 */
export async function rollingRestart(options: RollingRestartOptions): Promise<RollingRestartReport> {
  const started = performance.now();
  const random = seededRandom(options.seed);
  // Every bot comes from 127.0.0.1, which the per-address create limit would treat as one player.
  const env = { MAX_GUARDS: String(options.guards), DRAIN_SECONDS: String(options.drainSeconds), RECONNECT_SECONDS: "10", MAX_CREATES_PER_MINUTE: "100000" };
  const cluster = await LocalCluster.start(options.processes, env);
  const live = new Set<ClusterMember>(cluster.members);
  /** When each process's deadline comes, ms on performance.now(), once it is told to drain. */
  const deadlines = new Map<string, number>();
  const report: RollingRestartReport = {
    restarts: [],
    games: { started: 0, completed: 0, lostBeforeDeadline: 0, closedAtDeadline: 0, running: 0 },
    reconnections: { attempted: 0, succeeded: 0, failed: 0, failures: [] },
    joins: { attempted: 0, failed: 0, failures: [] },
    seconds: 0,
  };
  let stopping = false;
  const endpoint = () => {
    const members = [...live];
    return members[Math.floor(random() * members.length)]!.endpoint;
  };
  const redis = new Redis(cluster.redis.url, { maxRetriesPerRequest: 1 });

  const play = async (): Promise<void> => {
    while (!stopping) {
      report.joins.attempted++;
      let room: Room | undefined;
      for (let attempt = 0; attempt < 5 && room === undefined && !stopping; attempt++) {
        try {
          // A third of the games open a room of their own, so every process hosts some.
          const client = new Client(endpoint());
          const roomOptions = { map: "demo", guards: options.guards };
          room = random() < 1 / 3 ? await client.create("stealth", roomOptions) : await client.joinOrCreate("stealth", roomOptions);
        } catch (err) {
          if (attempt === 4) {
            report.joins.failed++;
            if (report.joins.failures.length < 10) report.joins.failures.push((err as Error).message);
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      if (room === undefined) continue;
      report.games.started++;
      const host = (await hostOf(redis, room.roomId).catch(() => undefined)) ?? "";
      const seconds = options.session[0] + random() * (options.session[1] - options.session[0]);
      const dropAt = random() < options.drops ? seconds * (0.2 + 0.6 * random()) : undefined;
      const outcome = await playGame(room, host, seconds, dropAt);
      if (outcome === "completed") report.games.completed++;
      else if (outcome === "deadline") report.games.closedAtDeadline++;
      else report.games.lostBeforeDeadline++;
    }
  };

  /**
   * One game: the player stays `seconds`, then leaves; at `dropAt` (s) its connection drops and it
   * reconnects through a random live process. A close by the server counts against the host's deadline.
   */
  const playGame = (first: Room, host: string, seconds: number, dropAt: number | undefined): Promise<"completed" | "deadline" | "lost"> =>
    new Promise((resolve) => {
      let current: Room | undefined = first;
      let settled = false;
      let ending = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (how: "completed" | "deadline" | "lost") => {
        if (settled) return;
        settled = true;
        for (const t of timers) clearTimeout(t);
        resolve(how);
      };
      const leave = (room: Room) => {
        current = undefined;
        void room.leave().catch(() => undefined).then(() => finish("completed"));
      };
      const watch = (room: Room) => {
        // These players stand still: round messages are read and dropped (unread, the SDK warns on each).
        room.onMessage("round", () => undefined);
        room.onLeave(() => {
          if (room !== current) return; // a leave of ours, or the drop
          const deadline = deadlines.get(host);
          finish(deadline !== undefined && performance.now() >= deadline - 250 ? "deadline" : "lost");
        });
      };
      watch(first);
      timers.push(setTimeout(() => {
        ending = true;
        if (current !== undefined) leave(current);
      }, seconds * 1000));
      if (dropAt === undefined) return;
      timers.push(setTimeout(async () => {
        if (current === undefined) return;
        report.reconnections.attempted++;
        const dropped = current;
        const token = dropped.reconnectionToken;
        dropped.reconnection.enabled = false;
        current = undefined;
        dropped.connection.close(3000, "network gone");
        await new Promise((r) => setTimeout(r, 300));
        for (let attempt = 1; attempt <= 5; attempt++) {
          try {
            const back = await new Client(endpoint()).reconnect(token);
            report.reconnections.succeeded++;
            current = back;
            watch(back);
            if (ending) leave(back);
            return;
          } catch (err) {
            if (attempt === 5) {
              report.reconnections.failed++;
              if (report.reconnections.failures.length < 10) report.reconnections.failures.push((err as Error).message);
              finish("lost");
              return;
            }
            await new Promise((r) => setTimeout(r, 300));
          }
        }
      }, dropAt * 1000));
    });

  const players = Array.from({ length: options.bots }, () => play());
  try {
    await new Promise((r) => setTimeout(r, options.settle * 1000));
    for (const member of [...cluster.members]) {
      const figures = (await (await fetch(`http://127.0.0.1:${member.server.port}/health`)).json()) as { rooms: number; clients: number };
      const told = performance.now();
      deadlines.set(member.processId, told + options.drainSeconds * 1000);
      live.delete(member);
      const exit = await orTimeout(member.server.drain(), (options.drainSeconds + DRAIN_SLACK_SECONDS) * 1000);
      if (exit === undefined) throw new Error(`process ${member.processId} did not exit within ${options.drainSeconds + DRAIN_SLACK_SECONDS} s of its drain`);
      const drained = performance.now();
      const fresh = await cluster.add(env);
      live.add(fresh);
      report.restarts.push({
        processId: member.processId, rooms: figures.rooms, clients: figures.clients,
        drainSeconds: round((drained - told) / 1000), exitCode: exit.code, replacedInSeconds: round((performance.now() - drained) / 1000),
      });
    }
    await new Promise((r) => setTimeout(r, options.settle * 1000));
  } finally {
    stopping = true;
    await orTimeout(Promise.all(players), (options.session[1] + 5) * 1000);
    redis.disconnect();
    await cluster.stop();
  }
  const g = report.games;
  g.running = g.started - g.completed - g.lostBeforeDeadline - g.closedAtDeadline;
  report.seconds = round((performance.now() - started) / 1000);
  return report;
}

/** What `promise` resolves to, or undefined if `ms` pass first; the timer does not outlive the wait. */
async function orTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)))]);
  } finally {
    clearTimeout(timer);
  }
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
