import { describe, expect, it } from "vitest";
import { AwarenessModel, PoseHistory, SeenOnScreen, VisionSystem, type DetectionEvent, type ShownPoses } from "sightline";
import { Occluders } from "sightline/occluders";

const TICK_MS = 50;
const DT = TICK_MS / 1000;
/** 150 ms of round trip: the player's screen is half of it plus an interpolation delay of 100 ms behind the server. */
const RENDER_LAG_MS = 75 + 100;

/**
 * A guard at the origin and a player 1.2 m east of it, in the open; a crate just north-east of the player
 * hides anyone standing 1 m north of where the player stands.
 */
function level() {
  const occluders = new Occluders();
  occluders.addRectangle(0.6, 0.4, 0.4, 0.4);
  const vision = new VisionSystem(occluders);
  vision.addObserver("guard", { position: { x: 0, y: 0 }, facing: Math.PI, range: 15, fov: Math.PI / 2 });
  vision.addObservable("player", { position: { x: 1.2, y: 0 }, radius: 0.35 });
  const history = new PoseHistory();
  let now = 0;
  let renderLag = RENDER_LAG_MS;
  const poses: ShownPoses = {
    now: () => now,
    renderTimeOf: (id) => (id === "player" ? now - renderLag : undefined),
    poseAt: (id, t, out) => history.poseAt(id, t, out),
  };
  const fair = new SeenOnScreen(vision, poses);
  return {
    vision, fair,
    setRenderLag: (ms: number) => { renderLag = ms; },
    /** One server step at `tick`: the guard's facing and the player's position (the server's, as of its latest input). */
    step(model: AwarenessModel, tick: number, facing: number, player: { x: number; y: number }): readonly DetectionEvent[] {
      now = tick * TICK_MS;
      vision.moveObserver("guard", 0, 0, facing);
      vision.moveObservable("player", player.x, player.y);
      history.record("guard", now, 0, 0, facing);
      vision.tick();
      return model.step(tick, DT, vision.sightings());
    },
  };
}

const OPEN = { x: 1.2, y: 0 };
/** Behind the crate from the guard (the crate lies across the line to it). */
const COVER = { x: 1.6, y: 1.1 };

/** Ticks until `spotted`, or -1: the guard turns toward the player at tick 10, the player's duck reaches the server at `duckAt`. */
function duck(on: boolean, duckAt: number): number {
  const room = level();
  const model = new AwarenessModel(on ? { check: room.fair } : {});
  for (let t = 0; t < 80; t++) {
    const facing = t < 10 ? Math.PI : 0;
    const events = room.step(model, t, facing, t < duckAt ? OPEN : COVER);
    if (events.some((e) => e.type === "spotted")) return t;
  }
  return -1;
}

describe("seen on screen: detection judged on what the player saw", () => {
  it("the cover hides the player where it ducks to, and not where it stood", () => {
    const room = level();
    room.vision.moveObserver("guard", 0, 0, 0);
    room.vision.moveObservable("player", COVER.x, COVER.y);
    expect(room.vision.check("guard", "player")).toBe(false);
    room.vision.moveObservable("player", OPEN.x, OPEN.y);
    expect(room.vision.check("guard", "player")).toBe(true);
  });

  it("a duck behind cover at 150 ms of round trip is spotted with the mode off, and not with it on", () => {
    // The guard turns at tick 10 (500 ms). The player's screen shows it 175 ms later; it ducks after a 200 ms
    // reaction, and the server has the duck 75 ms after that: 450 ms, 9 ticks, after the turn.
    const duckAt = 10 + 9;
    const off = duck(false, duckAt);
    expect(off).toBeGreaterThan(10);
    expect(off).toBeLessThan(duckAt);
    expect(duck(true, duckAt)).toBe(-1);
  });

  it("a player standing in plain view is spotted either way, at the same tick", () => {
    const spottedAt = (on: boolean): number => {
      const room = level();
      const model = new AwarenessModel(on ? { check: room.fair } : {});
      for (let t = 0; t < 200; t++) {
        // The guard has faced the player all along; the player walks out of cover at tick 20 and stands.
        if (room.step(model, t, 0, t < 20 ? COVER : OPEN).some((e) => e.type === "spotted")) return t;
      }
      return -1;
    };
    const off = spottedAt(false);
    expect(off).toBeGreaterThan(20);
    expect(spottedAt(true)).toBe(off);
  });

  it("a stamp older than the cap (a forged or stale render time) is judged at the cap, not earlier", () => {
    const room = level();
    // The guard looked away until 1 s ago and at the player since: a stamp from 5 s ago would see it looking away.
    room.setRenderLag(5000);
    const model = new AwarenessModel({ check: room.fair });
    let spotted = -1;
    for (let t = 0; t < 80 && spotted < 0; t++) {
      if (room.step(model, t, t < 20 ? Math.PI : 0, OPEN).some((e) => e.type === "spotted")) spotted = t;
    }
    expect(room.fair.counts.clamped).toBeGreaterThan(0);
    // Judged 350 ms back: counted from 7 ticks after the turn on.
    expect(spotted).toBeGreaterThan(20 + 5);
    expect(spotted).toBeLessThan(40);
    expect(room.fair.maxRewindMs).toBe(350);
  });

  it("a render time in the future is judged now", () => {
    const room = level();
    room.setRenderLag(-400);
    const model = new AwarenessModel({ check: room.fair });
    let spotted = -1;
    for (let t = 0; t < 40 && spotted < 0; t++) if (room.step(model, t, 0, OPEN).some((e) => e.type === "spotted")) spotted = t;
    const plain = level();
    const reference = new AwarenessModel();
    let expected = -1;
    for (let t = 0; t < 40 && expected < 0; t++) if (plain.step(reference, t, 0, OPEN).some((e) => e.type === "spotted")) expected = t;
    expect(spotted).toBe(expected);
  });

  it("only meters below full pay for the check: an alerted guard staring at its target casts no more rays for it", () => {
    const room = level();
    const model = new AwarenessModel({ check: room.fair });
    let t = 0;
    for (; t < 40; t++) if (room.step(model, t, 0, OPEN).some((e) => e.type === "spotted")) break;
    const checked = room.fair.counts.checked;
    for (let k = 1; k <= 20; k++) room.step(model, t + k, 0, OPEN);
    expect(room.fair.counts.checked).toBe(checked);
  });

  it("a bad source or cap is a RangeError naming the field", () => {
    const vision = new VisionSystem(new Occluders());
    const poses: ShownPoses = { now: () => 0, renderTimeOf: () => undefined, poseAt: () => false };
    expect(() => new SeenOnScreen(vision, { ...poses, now: 5 as unknown as () => number })).toThrow(/SeenOnScreen poses.now must be a function/);
    expect(() => new SeenOnScreen(vision, poses, { maxRewindMs: -1 })).toThrow(/SeenOnScreenOptions.maxRewindMs/);
    expect(() => new SeenOnScreen(vision, poses, { maxRewindMs: NaN })).toThrow(RangeError);
    expect(() => vision.checkFrom("a", "b", { x: NaN, y: 0, facing: 0 })).toThrow(/checkFrom pose.x/);
  });
});
