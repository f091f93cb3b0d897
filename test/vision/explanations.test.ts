import { describe, expect, it } from "vitest";
import { AwarenessModel, DEFAULT_AWARENESS_OPTIONS, PoseHistory, SeenOnScreen, VisionSystem, type DetectionEvent, type Heard, type Sighting } from "sightline";
import { Occluders } from "sightline/occluders";

const DT = 0.05;

function sighting(distance: number, offAxis: number, visibility: number): Sighting {
  return { observerId: "guard", targetId: "thief", distance, offAxis, halfFov: Math.PI / 4, range: 15, visibility, position: { x: distance, y: 0 } };
}

function heard(level: number): Heard {
  return { observerId: "guard", targetId: "thief", level, position: { x: 3, y: 1 }, salience: 1.5 };
}

describe("every spotted explains itself", () => {
  it("the explanation is the meter's own arithmetic, step by step, from 0 to full", () => {
    const model = new AwarenessModel({ explain: true });
    let spotted: DetectionEvent | undefined;
    for (let t = 0; t < 400 && spotted === undefined; t++) {
      // Heard twice first, then seen crouching, lost for 2 s (the meter decays), then seen standing closer.
      const seen = t >= 10 && t < 16 ? [sighting(6, 0.3, 0.5)] : t >= 56 ? [sighting(4, 0.1, 1)] : [];
      const noises = t === 2 || t === 6 ? [heard(0.8)] : [];
      spotted = model.step(t, DT, seen, noises).find((e) => e.type === "spotted");
    }
    expect(spotted).toBeDefined();
    const why = spotted!.explanation!;
    expect(why).toMatchObject({ observerId: "guard", targetId: "thief", sense: "sight", fillRate: DEFAULT_AWARENESS_OPTIONS.fillRate });
    const o = DEFAULT_AWARENESS_OPTIONS;
    expect(why.fills[0]!.before).toBe(0);
    expect(why.fills.at(-1)!.after).toBe(1);
    expect(why.fills.map((f) => f.sense).slice(0, 2)).toEqual(["hearing", "hearing"]);
    let last = 0;
    for (const f of why.fills) {
      expect(f.before).toBeLessThanOrEqual(last);
      if (f.sense === "sight") {
        const k = f.factors!;
        // The fill law multiplied back, in the model's order: the very same number.
        expect(f.gain).toBe(o.fillRate * k.distance * k.rangeEdge * k.periphery * k.visibility * k.state * DT);
        expect(k.distance).toBe(Math.pow(o.referenceDistance / Math.max(f.distance!, o.minDistance), o.distanceExponent));
        expect(k.visibility).toBe(f.visibility);
        expect(f.after).toBe(Math.min(1, f.before + f.gain));
      } else {
        expect(f.gain).toBeCloseTo(o.hearingFill * f.loudness! * f.salience! * 1, 12);
        expect(f.after).toBe(Math.min(o.hearingCeiling, f.before + f.gain));
      }
      last = f.after;
    }
    // The crouching steps fill at half the standing rate's visibility; the 2 s out of sight decayed the meter.
    const crouched = why.fills.filter((f) => f.visibility === 0.5);
    expect(crouched).toHaveLength(6);
    const firstStanding = why.fills.find((f) => f.visibility === 1)!;
    expect(firstStanding.before).toBeLessThan(crouched.at(-1)!.after);
  });

  it("a meter that fell back to 0 starts a new explanation", () => {
    const model = new AwarenessModel({ explain: true });
    let spotted: DetectionEvent | undefined;
    for (let t = 0; t < 400 && spotted === undefined; t++) {
      const seen = t < 5 || t >= 200 ? [sighting(5, 0, 1)] : [];
      spotted = model.step(t, DT, seen).find((e) => e.type === "spotted");
    }
    expect(spotted!.explanation!.fills[0]!.tick).toBe(200);
  });

  it("a meter's steps never reach another's explanation, after the first pair was dropped and its log went to a new meter", () => {
    const model = new AwarenessModel({ explain: true });
    const other: Sighting = { ...sighting(3, 0, 1), targetId: "other" };
    let spotted: DetectionEvent | undefined;
    for (let t = 0; t < 600 && spotted === undefined; t++) {
      // "other" is glimpsed for 6 steps, then forgotten (calm for more than the re-arm time); then "thief" is seen till spotted.
      const seen = t < 6 ? [other] : t >= 300 ? [sighting(5, 0, 1)] : [];
      spotted = model.step(t, DT, seen).find((e) => e.type === "spotted");
    }
    expect(spotted!.targetId).toBe("thief");
    const fills = spotted!.explanation!.fills;
    expect(fills[0]!.tick).toBe(300);
    expect(fills.every((f) => f.distance === 5)).toBe(true);
  });

  it("a slow fill keeps only its last explainFills steps, oldest first", () => {
    // Far and at the cone's edge: the meter takes over 100 steps to fill, more than the log keeps.
    const model = new AwarenessModel({ explain: true, explainFills: 40 });
    let spotted: DetectionEvent | undefined;
    let first = -1;
    for (let t = 0; t < 2000 && spotted === undefined; t++) {
      const events = model.step(t, DT, [sighting(13, 0.7, 0.5)]);
      if (first < 0 && events.some((e) => e.type === "noticed")) first = t;
      spotted = events.find((e) => e.type === "spotted");
    }
    expect(spotted).toBeDefined();
    expect(spotted!.tick - first).toBeGreaterThan(100);
    const fills = spotted!.explanation!.fills;
    expect(fills.map((f) => f.tick)).toEqual(Array.from({ length: 40 }, (_, i) => spotted!.tick - 39 + i));
    for (let i = 1; i < fills.length; i++) expect(fills[i]!.before).toBe(fills[i - 1]!.after);
    expect(fills.at(-1)!.after).toBe(1);
    expect(fills.every((f) => f.distance === 13 && f.offAxis === 0.7)).toBe(true);
  });

  it("under the fairness mode, each step says where the observer was and where the player's screen showed it", () => {
    const occluders = new Occluders();
    const vision = new VisionSystem(occluders);
    vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: 0, range: 15, fov: Math.PI / 2 });
    vision.addObservable("thief", { position: { x: 3, y: 0 }, radius: 0.35 });
    const history = new PoseHistory();
    let now = 0;
    const fair = new SeenOnScreen(vision, { now: () => now, renderTimeOf: () => now - 120, poseAt: (id, t, out) => history.poseAt(id, t, out) });
    const model = new AwarenessModel({ explain: true, check: fair });
    let spotted: DetectionEvent | undefined;
    for (let t = 0; t < 200 && spotted === undefined; t++) {
      now = t * 50;
      // The guard walks north, facing the thief.
      const y = t * 0.01;
      const facing = Math.atan2(0 - y, 3);
      vision.moveObserver("guard", 0, y, facing);
      history.record("guard", now, 0, y, facing);
      vision.tick();
      spotted = model.step(t, DT, vision.sightings()).find((e) => e.type === "spotted");
    }
    const fills = spotted!.explanation!.fills;
    const last = fills.at(-1)!;
    expect(last.poses!.rewoundMs).toBe(120);
    expect(last.poses!.present.y).toBeCloseTo(last.tick * 0.01, 12);
    expect(last.poses!.rewound.y).toBeCloseTo((last.tick - 2.4) * 0.01, 12);
  });

  it("explain and explainFills are checked", () => {
    expect(() => new AwarenessModel({ explain: "yes" as unknown as boolean })).toThrow(/AwarenessOptions.explain must be a boolean/);
    expect(() => new AwarenessModel({ explainFills: 0 })).toThrow(/AwarenessOptions.explainFills/);
    expect(() => new AwarenessModel({ check: {} as never })).toThrow(/AwarenessOptions.check.holds must be a function/);
  });
});
