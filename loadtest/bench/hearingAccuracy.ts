/**
 * hearing-accuracy: how close the distances `Hearing` reports are to the exact shortest way, and how many
 * noises truly in earshot it denies, on seeded random levels of two kinds, a `Hearing` built afresh with
 * each level (every 10 pairs): *crates*, 10 rectangles (0.4-6 m a side) anywhere in a 30 m square; and
 * *rooms*, a 30 m square cut into 3 x 3 rooms by 0.4 m walls, each wall built of pieces a few meters
 * long with a 1.2 m doorway at a random place (a maze for sound: the ways run through doorways, round
 * several pieces); and the stealth demo's *compound* map as it starts (walls, solid tiles, shut doors),
 * the listener within 12 m of the noise on each axis, loudness 4-12 m (a run carries 10). Noise and
 * listener outside every piece (in the random levels anywhere in the square), loudness 4-25 m there. The
 * exact answer is the audit's visibility graph (`shortestSoundPath`). One JSON line per kind: for the
 * pairs whose straight line is stopped (the only ones not exact by construction), the reported way over
 * the exact one in percent at the median, 90th and 99th percentiles and worst, the share of those truly in
 * earshot that were denied, how many were settled round the pieces in the way (`roundPieces`) rather
 * than by the grid, `generous` (must be 0: a reported way shorter than the exact one) and the time the
 * queries took. The accuracy figures of docs/hearing.md come from here.
 */
import { Hearing, shortestSoundPath, type Earshot } from "sightline";
import { Occluders } from "sightline/occluders";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { percentile } from "./percentile.js";

/** The kinds of level: two random ones, and the stealth demo's compound map. */
export type AccuracyLevel = "crates" | "rooms" | "compound";

export interface HearingAccuracyOptions {
  level: AccuracyLevel;
  pairs: number;
  seed: number;
}

/** 4000 pairs a kind of level. */
export const DEFAULT_HEARING_ACCURACY_PAIRS = 4000;

export function hearingAccuracyBench(): void {
  for (const level of ["crates", "rooms", "compound"] as const) console.log(JSON.stringify(runHearingAccuracy({ level, pairs: DEFAULT_HEARING_ACCURACY_PAIRS, seed: 1 })));
}

/** A box, meters: x, y of its low corner, width, height. */
type Box = [number, number, number, number];

/** One random level of the kind, as boxes. */
function levelOf(kind: AccuracyLevel, random: () => number): Box[] {
  if (kind === "crates") return Array.from({ length: 10 }, (): Box => [random() * 30, random() * 30, 0.4 + random() * 5.6, 0.4 + random() * 5.6]);
  const boxes: Box[] = [];
  // Each inner wall line (x = 10, 20 and y = 10, 20) crosses the square in three 10 m runs, one per room it
  // borders; each run has a doorway and is built of pieces up to 3 m long on either side of it.
  const run = (along: number, from: number, vertical: boolean) => {
    const door = from + 1 + random() * 7.8;
    const parts: [number, number][] = [[from, door], [door + 1.2, from + 10]];
    for (const [a, b] of parts) {
      for (let p = a; p < b - 1e-9; p += 3) {
        const len = Math.min(3, b - p);
        boxes.push(vertical ? [along - 0.2, p, 0.4, len] : [p, along - 0.2, len, 0.4]);
      }
    }
  };
  for (const line of [10, 20]) for (const from of [0, 10, 20]) {
    run(line, from, true);
    run(line, from, false);
  }
  return boxes;
}

export function runHearingAccuracy(options: HearingAccuracyOptions): Record<string, unknown> {
  const random = seededRandom(options.seed);
  const ear: Earshot = { distance: 0, level: 0, dirX: 0, dirY: 0, direct: false };
  const ratios: number[] = [];
  let inEarshot = 0;
  let denied = 0;
  let generous = 0;
  let queryMs = 0;
  let roundPieces = 0;
  let detours = 0;
  const compound = options.level === "compound" ? MapCatalog.bundled().get("compound")! : undefined;
  let occluders = compound === undefined ? new Occluders() : Occluders.fromLevel(compound);
  let boxes: Box[] = [];
  let hearing = new Hearing(occluders);
  // Outside every piece that stops sound (an end inside a wall follows a rule of its own, see docs/hearing.md).
  const inside = (x: number, y: number): boolean => {
    if (compound === undefined) return boxes.some(([bx, by, w, h]) => x >= bx && x <= bx + w && y >= by && y <= by + h);
    const packed = occluders.packed;
    for (let k = 0; k < packed.size; k++) if (packed.isActive(k) && packed.outside(k, x, y) <= 0.01) return true;
    return false;
  };
  // On the compound map, the listener within 12 m of the noise on each axis (the map is 60 m across).
  const point = (near?: [number, number]): [number, number] => {
    for (;;) {
      const p: [number, number] = near === undefined ? [random() * 30 * (compound ? 2 : 1), random() * 30 * (compound ? 2 : 1)] : [near[0] + (random() - 0.5) * 24, near[1] + (random() - 0.5) * 24];
      if (!inside(p[0], p[1])) return p;
    }
  };
  for (let i = 0; i < options.pairs; i++) {
    if (i % 10 === 0 && compound === undefined) {
      hearing.dispose();
      occluders = new Occluders();
      boxes = levelOf(options.level, random);
      for (const [x, y, w, h] of boxes) occluders.addRectangle(x, y, w, h);
      hearing = new Hearing(occluders);
    }
    const noise = point();
    const [nx, ny] = noise;
    const [lx, ly] = compound === undefined ? point() : point(noise);
    const loudness = compound === undefined ? 4 + random() * 21 : 4 + random() * 8;
    const before = hearing.counts.roundPieces;
    const detoursBefore = hearing.counts.detours;
    const t0 = performance.now();
    const heard = hearing.hears({ x: nx, y: ny, loudness, kind: "footstep", emitter: "e" }, lx, ly, ear);
    queryMs += performance.now() - t0;
    roundPieces += hearing.counts.roundPieces - before;
    detours += hearing.counts.detours - detoursBefore;
    const truth = shortestSoundPath(occluders, nx, ny, lx, ly, loudness);
    if (heard && ear.direct) continue;
    if (truth < loudness) {
      inEarshot++;
      if (!heard) denied++;
    }
    if (heard) {
      if (ear.distance < truth - 1e-9) generous++;
      ratios.push(ear.distance / truth);
    }
  }
  hearing.dispose();
  const over = (q: number) => round((percentile([...ratios], q) - 1) * 100);
  return {
    bench: "hearing-accuracy", level: options.level, pairs: options.pairs, seed: options.seed,
    detours, roundPieces, bentInEarshot: inEarshot,
    longerPercent: { p50: over(0.5), p90: over(0.9), p99: over(0.99), max: round((Math.max(...ratios) - 1) * 100) },
    deniedPercent: round((100 * denied) / Math.max(1, inEarshot)),
    generous,
    queryMs: round(queryMs),
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
