/**
 * fairness: what lag does to detection, with the fairness mode (`SeenOnScreen`) off and on, in the same
 * simulated worlds. Each episode is a small seeded world (`Occluders`, one observer, one player, one crate)
 * stepped at 20 Hz, with two awareness models fed the same sightings: one plain, one with the mode. The
 * player's client is simulated: its screen shows the server's world `roundTrip + interpolation` late (the
 * render time stamped on the latest input the server has; see docs/fairness.md), and the player reacts to
 * its screen only, after a reaction time, so both models watch the very same episode.
 *
 * Episode kinds, the cases where lag matters most:
 * - turn: a guard 0.7-4 m away, looking away, turns toward the player (in 1, 2 or 4 steps); the player,
 *   beside a crate, ducks behind it once its screen shows the guard facing it (150-250 ms reaction);
 * - sweep: a camera 4-8 m away sweeping +-50 degrees; the player ducks behind a crate when its screen
 *   shows the cone on it, and steps out again 1.5 s after its screen shows the cone gone;
 * - open: a guard that looks at one spot; the player walks out from behind the crate and stands there
 *   in plain view (the late-spot check).
 *
 * One JSON line per round trip and mode: `roundTripMs`, `mode`, `detections` (`spotted` events),
 * `unfairSpots` (detections whose every sight step the player's own screen showed hidden from that
 * observer), `unfairPer1000`, `unseenFillShare` (the share of all meter fill, over every detection, from
 * steps the player's screen did not show), `lateSpots` (players in plain view on both sides spotted more
 * than one step later than with the mode off; 0 by definition for the mode off), `checks` and `raysPerCheck`
 * (what the mode cast), `clamped`. Environment: BENCH_FAIRNESS_EPISODES (per kind and round trip, default 200).
 */
import { AwarenessModel, PoseHistory, SeenOnScreen, VisionSystem, type DetectionEvent, type Pose, type Sighting } from "sightline";
import { Occluders } from "sightline/occluders";
import { seededRandom } from "../../shared/seededRandom.js";
import { TICK_SECONDS } from "../../shared/gameRules.js";

const STEP_MS = TICK_SECONDS * 1000;
/** The client's interpolation delay, milliseconds. */
const INTERPOLATION_MS = 100;
export const ROUND_TRIPS_MS = [0, 60, 120, 200] as const;
const KINDS = ["turn", "sweep", "open"] as const;
type Kind = (typeof KINDS)[number];
const TICKS: Record<Kind, number> = { turn: 100, sweep: 200, open: 120 };

/** One mode's tally over the episodes of a round trip. */
interface Tally {
  detections: number;
  unfair: number;
  fill: number;
  unseenFill: number;
  late: number;
}

/** A spotted, as an episode records it: the tick and, for the late-spot check, whether every step of its fill was in plain view on both sides. */
interface Spot {
  tick: number;
  plain: boolean;
}

export interface FairnessLine extends Record<string, unknown> {
  roundTripMs: number;
  mode: "off" | "on";
  detections: number;
  unfairSpots: number;
  unseenFillShare: number;
  lateSpots: number;
}

export function fairnessBench(): void {
  const raw = process.env.BENCH_FAIRNESS_EPISODES;
  const episodes = raw === undefined || raw === "" ? 200 : Number(raw);
  if (!Number.isInteger(episodes) || episodes < 1) throw new RangeError(`BENCH_FAIRNESS_EPISODES must be an integer >= 1 (got ${JSON.stringify(raw)})`);
  for (const line of runFairnessBench(episodes)) console.log(JSON.stringify(line));
}

/** Every round trip, both modes: the lines `fairnessBench` prints. */
export function runFairnessBench(episodes: number, roundTrips: readonly number[] = ROUND_TRIPS_MS): FairnessLine[] {
  const lines: FairnessLine[] = [];
  for (const rtt of roundTrips) {
    const off: Tally = { detections: 0, unfair: 0, fill: 0, unseenFill: 0, late: 0 };
    const on: Tally = { ...off };
    const checks = { checked: 0, rays: 0, clamped: 0 };
    const random = seededRandom(9000 + rtt);
    for (const kind of KINDS) for (let e = 0; e < episodes; e++) episode(kind, rtt, random, off, on, checks);
    const line = (mode: "off" | "on", t: Tally): FairnessLine => ({
      bench: "fairness", roundTripMs: rtt, interpolationMs: INTERPOLATION_MS, rewoundMs: rtt + INTERPOLATION_MS, mode,
      episodes: episodes * KINDS.length, detections: t.detections, unfairSpots: t.unfair,
      unfairPer1000: t.detections === 0 ? 0 : round((1000 * t.unfair) / t.detections),
      unseenFillShare: t.fill === 0 ? 0 : round(t.unseenFill / t.fill), lateSpots: t.late,
      ...(mode === "on" ? { checks: checks.checked, raysPerCheck: checks.checked === 0 ? 0 : round(checks.rays / checks.checked), clamped: checks.clamped } : {}),
    });
    lines.push(line("off", off), line("on", on));
  }
  return lines;
}

/** One episode of `kind` at round trip `rtt`, both modes watching; tallies into `off` and `on`. */
function episode(kind: Kind, rtt: number, random: () => number, off: Tally, on: Tally, checks: { checked: number; rays: number; clamped: number }): void {
  const w = world(kind, random);
  const history = new PoseHistory({ length: 32 });
  let now = 0;
  const lag = rtt + INTERPOLATION_MS;
  const fair = new SeenOnScreen(w.vision, { now: () => now, renderTimeOf: () => now - lag, poseAt: (id, t, out) => history.poseAt(id, t, out) });
  const models = { off: new AwarenessModel({ explain: true }), on: new AwarenessModel({ explain: true, check: fair }) };
  const spots: { off: Spot[]; on: Spot[] } = { off: [], on: [] };
  /** Per tick: whether the player's screen showed it seen (the observer as rendered, the player where the server has it). */
  const screen: boolean[] = [];
  const server: boolean[] = [];
  const shown: Pose = { x: 0, y: 0, facing: 0 };
  const reaction = 150 + random() * 100;
  let duckAt = Infinity;
  let outAt = Infinity;
  let lastSeenOnScreen = -Infinity;
  for (let t = 0; t < TICKS[kind]; t++) {
    now = t * STEP_MS;
    const pose = w.observerAt(t);
    w.vision.moveObserver("observer", pose.x, pose.y, pose.facing);
    history.record("observer", now, pose.x, pose.y, pose.facing);
    const at = w.playerAt(t, now >= duckAt && now < outAt);
    w.vision.moveObservable("player", at.x, at.y);
    w.vision.tick();
    // What the player's screen shows now (the render time of the input the server has).
    history.poseAt("observer", now - lag, shown);
    screen[t] = w.vision.checkFrom("observer", "player", shown);
    const sightings = w.vision.sightings();
    server[t] = sightings.length > 0;
    // The player reacts to its screen: it ducks after its reaction time (the input reaches the server now + reaction,
    // as its screen was already a round trip behind); in a sweep it steps out again once the cone is long gone.
    if (screen[t]) lastSeenOnScreen = now;
    if (kind !== "open" && screen[t] && duckAt === Infinity) duckAt = now + reaction;
    if (kind === "sweep" && duckAt < now && outAt === Infinity && now - lastSeenOnScreen > 1500) outAt = now + reaction;
    if (kind === "sweep" && outAt < now && screen[t]) {
      duckAt = now + reaction;
      outAt = Infinity;
    }
    for (const mode of ["off", "on"] as const) {
      for (const e of models[mode].step(t, TICK_SECONDS, sightings as Sighting[])) if (e.type === "spotted") spots[mode].push(spotOf(e, screen, server, mode === "off" ? off : on));
    }
  }
  const c = fair.counts;
  checks.checked += c.checked;
  checks.rays += c.rays;
  checks.clamped += c.clamped;
  off.detections += spots.off.length;
  on.detections += spots.on.length;
  // A plain-view spot with the mode off must come as soon with it on (one step allowed).
  for (const s of spots.off) {
    if (!s.plain) continue;
    const match = spots.on.find((o) => o.tick >= s.tick - 1);
    if (match === undefined || match.tick > s.tick + 1) on.late++;
  }
}

/** Tallies one `spotted`'s fill (unseen share, unfair) and says whether it was in plain view on both sides throughout. */
function spotOf(e: DetectionEvent, screen: readonly boolean[], server: readonly boolean[], tally: Tally): Spot {
  let seenOnScreen = false;
  let plain = true;
  for (const f of e.explanation!.fills) {
    tally.fill += f.gain;
    if (f.sense !== "sight") continue;
    if (screen[f.tick] === true) seenOnScreen = true;
    else tally.unseenFill += f.gain;
    if (screen[f.tick] !== true || server[f.tick] !== true) plain = false;
  }
  if (!seenOnScreen) tally.unfair++;
  return { tick: e.tick, plain };
}

/** An episode's world: the observer's pose and the player's position, by step. */
interface World {
  vision: VisionSystem;
  observerAt(t: number): Pose;
  playerAt(t: number, ducked: boolean): { x: number; y: number };
}

/**
 * The observer at the origin looking east; the player `d` meters away at `bearing`, its cover spot 1 m to
 * its left (seen from the observer) behind a crate that leaves the line to the player clear.
 */
function world(kind: Kind, random: () => number): World {
  const occluders = new Occluders();
  const d = kind === "turn" ? 0.7 + random() * 3.3 : kind === "sweep" ? 4 + random() * 4 : 3 + random() * 5;
  const bearing = kind === "sweep" ? (random() < 0.5 ? -1 : 1) * (0.3 + random() * 0.45) : 0;
  const [c, s] = [Math.cos(bearing), Math.sin(bearing)];
  const local = (u: number, v: number) => ({ x: u * c - v * s, y: u * s + v * c });
  // The crate across the line to the cover spot, 1.3 m long, halfway out.
  const crate = [local(d / 2 - 0.2, 0.3), local(d / 2 + 0.2, 0.3), local(d / 2 + 0.2, 1.6), local(d / 2 - 0.2, 1.6)];
  occluders.addPolygon(crate);
  const vision = new VisionSystem(occluders);
  const range = kind === "sweep" ? 10 : 15;
  vision.addObserver("observer", { position: { x: 0, y: 0 }, facing: 0, range, fov: kind === "sweep" ? Math.PI / 3 : Math.PI / 2 });
  const open = local(d, 0);
  const cover = local(d, 1);
  vision.addObservable("player", { position: cover, radius: 0.35 });
  const pose: Pose = { x: 0, y: 0, facing: 0 };
  const speed = 3 * TICK_SECONDS;
  let player = { ...(kind === "open" ? cover : open) };
  const toward = (to: { x: number; y: number }) => {
    const dx = to.x - player.x;
    const dy = to.y - player.y;
    const len = Math.hypot(dx, dy);
    if (len <= speed) player = { ...to };
    else player = { x: player.x + (dx / len) * speed, y: player.y + (dy / len) * speed };
    return player;
  };
  if (kind === "turn") {
    const turnAt = 10 + Math.floor(random() * 20);
    const turnTicks = [1, 2, 4][Math.floor(random() * 3)]!;
    return {
      vision,
      observerAt: (t) => ({ ...pose, facing: t < turnAt ? Math.PI : t >= turnAt + turnTicks ? 0 : Math.PI * (1 - (t - turnAt + 1) / turnTicks) }),
      playerAt: (_t, ducked) => toward(ducked ? cover : open),
    };
  }
  if (kind === "sweep") {
    const period = 3 + random() * 3;
    const phase = random() * 2 * Math.PI;
    return {
      vision,
      observerAt: (t) => ({ ...pose, facing: (50 * Math.PI / 180) * Math.sin(phase + (2 * Math.PI * t * TICK_SECONDS) / period) }),
      playerAt: (_t, ducked) => toward(ducked ? cover : open),
    };
  }
  const outAt = 10 + Math.floor(random() * 30);
  return { vision, observerAt: () => pose, playerAt: (t) => toward(t >= outAt ? open : cover) };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
