import { parseArgs } from "node:util";

/** Most bots one run may start: a bound on what a typo can do to a machine. */
export const MAX_CLIENTS = 2000;
/** Longest run, seconds. */
export const MAX_DURATION_SECONDS = 3600;
/** Players a stealth room admits (its default `maxClients`). */
const MAX_PER_ROOM = 32;

/** What one load-test run does. Times in seconds, fractions in [0, 1]. */
export interface LoadTestOptions {
  /** WebSocket endpoint of the server (`ws://host:port`); unset with `local` until the server is started. */
  endpoint: string;
  /** Start the server as a child process on a free loopback port (`npm run loadtest:local`). */
  local: boolean;
  room: string;
  clients: number;
  rooms: number;
  /** Seconds the bots stay connected after the last join. */
  duration: number;
  /** Seconds at the start of `duration` left out of rates, latency and heap growth. */
  warmup: number;
  /** Seconds the joins are spread over. */
  ramp: number;
  /** Create options of each room. */
  map: string;
  /** Guards per room created, cycled over the rooms (`--guards 8,128`: alternately light and heavy); undefined: the map's own. */
  guards: number[] | undefined;
  /** With `local`: server processes sharing a local Redis (1: one process, no Redis). */
  processes: number;
  /** With several processes: where new rooms go (`load`: most headroom; `rooms`: Colyseus's fewest rooms). */
  placement: "load" | "rooms";
  /** Bots per team (teammates share vision, so a team sees the union of its members' views). */
  teamSize: number;
  /** Share of the bots that decode the state; the rest count bytes only (thin). */
  decodeSample: number;
  /** Share of the bots replaced per minute (a consented leave, then a fresh join to the same room). */
  churn: number;
  /**
   * Joins per second timed by the join probe, a client process of its own, while measuring (0: no probe).
   * Its timings are not bent by the bots' busy loop; with several processes half of its joins cross.
   */
  joinProbe: number;
  output: string | undefined;
  allowRemote: boolean;
  seed: number;
  /** Poll the server's `GET /stats` (our server serves it); off for a server that does not. */
  serverStats: boolean;
  /** With `local`: the server's culling (`CULLING`) and the share of clients it audits (`CULLING_AUDIT`). */
  culling: "on" | "off";
  audit: number;
  /**
   * With `local`: which server to start. `plain` is the peer baseline (`loadtest/peer/`): a plain Colyseus
   * room of the same shape with no vision, culling or StateView, to set our figures against.
   */
  server: "stealth" | "plain";
  /**
   * Whether bots use the level's doors (open a shut one on their path, and a share of them shut it behind
   * them) and throw smoke grenades now and then, and distractions in rooms with hearing. `off` compares a
   * run without them. Always off for the plain peer, whose room has none of them.
   */
  levelPlay: "on" | "off";
  /**
   * Whether our rooms hear: footsteps by gait, thrown distractions, guards that listen, and the `noise`
   * messages each client is told. `off` creates the rooms with `hearing: false` (no noise, deaf guards),
   * what hearing costs. Always off for the plain peer, which has no hearing.
   */
  hearing: "on" | "off";
  /**
   * Whether our rooms judge sightings also on what each player's screen showed (the fairness mode,
   * `SeenOnScreen`). `off` creates the rooms with `fairness: false`, what the mode costs. Always off for
   * the plain peer, which has no vision.
   */
  fairness: "on" | "off";
  /**
   * Hold the run to the capacity targets (patch rate >= 19 per room, event-loop lag p99 <= 25 ms, live
   * heap growth < 10%): a miss fails it. Off, the figures are printed without targets.
   */
  targets: boolean;
  /** Runs in a row (each on a fresh local server with `--local`), reported side by side. */
  runs: number;
  /** Where each run's summary JSON is saved, named by date, commit, label and run; undefined: not saved. */
  resultsDir: string | undefined;
  /** The name of this load in saved results (e.g. "capacity"). */
  label: string;
  /** Print the summary JSON after the table. */
  json: boolean;
}

/** A flag the user got wrong: the CLI prints it with the usage and exits with 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE = `usage: npm run loadtest -- [flags]          (against a running server)
       npm run loadtest:local -- [flags]    (starts the server itself on a free loopback port)

  --endpoint <url>       server WebSocket endpoint (default ws://127.0.0.1:2567; not with --local)
  --room <name>          room name (default stealth)
  --clients <n>          bots, 1..${MAX_CLIENTS} (default 16)
  --rooms <n>            rooms to create and spread the bots over (default 1; at most ${MAX_PER_ROOM} bots each)
  --duration <s>         seconds the bots stay after the last join, 1..${MAX_DURATION_SECONDS} (default 30)
  --warmup <s>           first seconds of the duration left out of rates and latency (default min(10, duration/4))
  --ramp <s>             seconds the joins are spread over (default min(10, clients/20))
  --map <name>           map of the rooms created (default demo)
  --guards <n>[,<n>...]  guards per room created (the map's own plus generated ones; default: the map's own);
                         a list is cycled over the rooms (8,128: light and heavy rooms in turn)
  --processes <n>        with --local: server processes, 1..8, sharing a local redis-server (default 1);
                         bots matchmake through them in turn, and every process's figures are polled
  --placement load|rooms with --processes: where new rooms go (default load: the most headroom; rooms:
                         Colyseus's default, the fewest rooms)
  --team-size <n>        bots per team, sharing vision (default 1: every bot on its own)
  --thin                 most bots skip decoding (count bytes only); same as --decode-sample 0.05
  --decode-sample <f>    share of bots that decode the state and check what they hold, 0..1 (default 1)
  --churn <f>            share of the bots replaced per minute (consented leave + fresh join), 0..10 (default 0)
  --join-probe <n>       joins per second timed by a separate client process while measuring, 0..20
                         (default 0: none); each joins a room and leaves at once, and with --processes
                         every other one goes through a process that does not host the room
  --output <file>        write the summary JSON there too
  --allow-remote         allow an endpoint that is not loopback
  --seed <n>             seed of the bots' choices (default 1)
  --no-server-stats      do not poll GET /stats (for a server that does not serve it)
  --culling on|off       with --local: the server's culling (off: every view holds everything)
  --audit <f>            with --local: share of clients the culling audit checks, 0..1 (default 0.1)
  --server stealth|plain with --local: the server to start (default stealth); plain is the peer baseline,
                         a plain Colyseus room of the same shape with no vision or culling (--culling,
                         --audit, --level-play, --hearing and --fairness do not apply to it)
  --level-play on|off    bots open shut doors on their way, some shut them behind them, and throw smoke
                         grenades and distractions now and then (default on); off: none of it, to compare
                         a run without them
  --hearing on|off       the rooms hear (default on): footsteps by gait, distractions, guards that listen,
                         noise messages to each client; off: rooms created with hearing: false (no noise,
                         deaf guards), to compare a run without it
  --fairness on|off      guards judge sightings also on what each player's screen showed (default on);
                         off: rooms created with fairness: false, to compare a run without it
  --runs <n>             runs in a row, 1..10, each on a fresh local server with --local; the report
                         adds the median and worst of each figure and, per target, the runs that met it
  --results-dir <dir>    save each run's summary JSON there as <date>-<commit>-<label>-run<i>.json
  --label <name>         the load's name in saved results (default load)
  --json                 print the summary JSON after the table (it is always in --output and --results-dir)
  --targets              fail the run when a capacity target is missed (patch rate >= 19 per room,
                         event-loop lag p99 <= 25 ms, live heap growth < 10%); the capacity and soak
                         scripts set it
  -h, --help             this text

Exit status: 0 ok; 1 connection failures, errors, leaks/pop-ins/misses/sound leaks, or (with --targets) a missed target; 2 bad flags.`;

const FLAGS = {
  endpoint: { type: "string" },
  local: { type: "boolean" },
  room: { type: "string" },
  clients: { type: "string" },
  rooms: { type: "string" },
  duration: { type: "string" },
  warmup: { type: "string" },
  ramp: { type: "string" },
  map: { type: "string" },
  guards: { type: "string" },
  "team-size": { type: "string" },
  thin: { type: "boolean" },
  "decode-sample": { type: "string" },
  churn: { type: "string" },
  "join-probe": { type: "string" },
  output: { type: "string" },
  "allow-remote": { type: "boolean" },
  seed: { type: "string" },
  "no-server-stats": { type: "boolean" },
  culling: { type: "string" },
  audit: { type: "string" },
  server: { type: "string" },
  "level-play": { type: "string" },
  hearing: { type: "string" },
  fairness: { type: "string" },
  targets: { type: "boolean" },
  runs: { type: "string" },
  "results-dir": { type: "string" },
  label: { type: "string" },
  json: { type: "boolean" },
  processes: { type: "string" },
  placement: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Parses and checks the command line. Returns "help" for `--help`; throws a {@link UsageError} naming the
 * flag for anything wrong (unknown flags, bad numbers, out-of-bounds counts, a remote endpoint without
 * `--allow-remote`), so nothing starts on a half-understood command. A flag given twice takes the last
 * value, so `npm run loadtest:capacity -- --clients 200` overrides the preset.
 */
export function parseLoadTestArgs(args: readonly string[]): LoadTestOptions | "help" {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help === true) return "help";

  const local = values.local === true;
  if (local && values.endpoint !== undefined) throw new UsageError("--endpoint cannot be used with --local (the server is started on a free loopback port)");
  if (!local && (values.culling !== undefined || values.audit !== undefined)) {
    throw new UsageError("--culling and --audit set up the server, so they need --local (for a running server: CULLING and CULLING_AUDIT in its environment)");
  }
  const server = values.server ?? "stealth";
  if (server !== "stealth" && server !== "plain") throw new UsageError(`--server must be stealth or plain (got ${JSON.stringify(server)})`);
  if (!local && values.server !== undefined) throw new UsageError("--server picks the server --local starts, so it needs --local (for a running server, point --endpoint at it)");
  const levelPlay = values["level-play"] ?? "on";
  if (levelPlay !== "on" && levelPlay !== "off") throw new UsageError(`--level-play must be on or off (got ${JSON.stringify(levelPlay)})`);
  const hearing = values.hearing ?? "on";
  if (hearing !== "on" && hearing !== "off") throw new UsageError(`--hearing must be on or off (got ${JSON.stringify(hearing)})`);
  const fairness = values.fairness ?? "on";
  if (fairness !== "on" && fairness !== "off") throw new UsageError(`--fairness must be on or off (got ${JSON.stringify(fairness)})`);
  const clients = integer(values.clients, "--clients", 16, 1, MAX_CLIENTS);
  const rooms = integer(values.rooms, "--rooms", 1, 1, MAX_CLIENTS);
  if (rooms > clients) throw new UsageError(`--rooms (${rooms}) cannot exceed --clients (${clients}): every room is created by a bot`);
  if (clients > rooms * MAX_PER_ROOM) {
    throw new UsageError(`${clients} clients in ${rooms} room(s) is more than ${MAX_PER_ROOM} per room (the room's maxClients); use --rooms ${Math.ceil(clients / MAX_PER_ROOM)} or more`);
  }
  const duration = number(values.duration, "--duration", 30, 1, MAX_DURATION_SECONDS);
  const warmup = number(values.warmup, "--warmup", Math.min(10, duration / 4), 0, MAX_DURATION_SECONDS);
  if (warmup >= duration) throw new UsageError(`--warmup (${warmup} s) must be shorter than --duration (${duration} s)`);
  const ramp = number(values.ramp, "--ramp", Math.min(10, clients / 20), 0, 600);
  const teamSize = integer(values["team-size"], "--team-size", 1, 1, MAX_PER_ROOM);
  const decodeSample = fraction(values["decode-sample"], "--decode-sample", values.thin === true ? 0.05 : 1);
  const churn = number(values.churn, "--churn", 0, 0, 10);
  const joinProbe = number(values["join-probe"], "--join-probe", 0, 0, 20);
  const culling = values.culling ?? "on";
  if (culling !== "on" && culling !== "off") throw new UsageError(`--culling must be on or off (got ${JSON.stringify(culling)})`);
  const room = values.room ?? "stealth";
  if (!/^[\w-]{1,64}$/.test(room)) throw new UsageError(`--room must be a room name (letters, digits, '_', '-') (got ${JSON.stringify(room)})`);
  const map = values.map ?? "demo";
  if (!/^[\w-]{1,64}$/.test(map)) throw new UsageError(`--map must be a map name (letters, digits, '_', '-') (got ${JSON.stringify(map)})`);

  const processes = integer(values.processes, "--processes", 1, 1, 8);
  if (processes > 1 && !local) throw new UsageError("--processes starts the server processes itself, so it needs --local");
  const placement = values.placement ?? "load";
  if (placement !== "load" && placement !== "rooms") throw new UsageError(`--placement must be load or rooms (got ${JSON.stringify(placement)})`);
  if (values.placement !== undefined && processes < 2) throw new UsageError("--placement chooses between processes, so it needs --processes 2 or more");
  if (processes > 1 && server === "plain") throw new UsageError("--processes runs our server on Redis; the plain peer runs as one process (drop --server plain or --processes)");

  const endpoint = local ? "" : checkEndpoint(values.endpoint ?? "ws://127.0.0.1:2567", values["allow-remote"] === true);
  return {
    endpoint,
    local,
    room,
    clients,
    rooms,
    duration,
    warmup,
    ramp,
    map,
    guards: values.guards === undefined ? undefined : values.guards.split(",").map((g) => integer(g, "--guards", 0, 0, 1024)),
    processes,
    placement,
    teamSize,
    decodeSample,
    churn,
    joinProbe,
    output: values.output,
    allowRemote: values["allow-remote"] === true,
    seed: integer(values.seed, "--seed", 1, 0, 2 ** 31 - 1),
    serverStats: values["no-server-stats"] !== true,
    culling,
    audit: fraction(values.audit, "--audit", 0.1),
    server,
    // The peer's room has no doors or grenades: asking it would only be answered with errors.
    levelPlay: server === "plain" ? "off" : levelPlay,
    // Nor hearing: its room makes no noise and takes no `hearing` option.
    hearing: server === "plain" ? "off" : hearing,
    fairness: server === "plain" ? "off" : fairness,
    targets: values.targets === true,
    runs: integer(values.runs, "--runs", 1, 1, 10),
    resultsDir: values["results-dir"],
    label: label(values.label),
    json: values.json === true,
  };
}

function label(value: string | undefined): string {
  const name = value ?? "load";
  if (!/^[\w-]{1,40}$/.test(name)) throw new UsageError(`--label must be 1-40 letters, digits, '_' or '-' (got ${JSON.stringify(name)})`);
  return name;
}

/** Whether a host name is this machine's loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A ws://, wss://, http:// or https:// URL, loopback unless `allowRemote`; returned as ws(s)://host:port. */
function checkEndpoint(value: string, allowRemote: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--endpoint must be a URL such as ws://127.0.0.1:2567 (got ${JSON.stringify(value)})`);
  }
  if (!["ws:", "wss:", "http:", "https:"].includes(url.protocol)) throw new UsageError(`--endpoint must use ws, wss, http or https (got ${url.protocol})`);
  if (!allowRemote && !isLoopback(url.hostname)) {
    throw new UsageError(`--endpoint ${url.host} is not loopback: a load test aims real traffic at it, so pass --allow-remote if that is what you mean`);
  }
  const secure = url.protocol === "wss:" || url.protocol === "https:";
  return `${secure ? "wss" : "ws"}://${url.host}`;
}

function number(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = value.trim() === "" ? NaN : Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`${flag} must be a number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  return n;
}

function integer(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  const n = number(value, flag, fallback, min, max);
  if (!Number.isInteger(n)) throw new UsageError(`${flag} must be a whole number (got ${JSON.stringify(value)})`);
  return n;
}

function fraction(value: string | undefined, flag: string, fallback: number): number {
  return number(value, flag, fallback, 0, 1);
}
