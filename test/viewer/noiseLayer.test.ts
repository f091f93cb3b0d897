import { describe, expect, it } from "vitest";
import { noticeText, type Notice } from "../../shared/viewer/detectionLog.js";
import { NOISE_MARKER, NOISE_MS, NOISE_RING, NoiseLayer } from "../../shared/viewer/noiseLayer.js";
import { NOISE_COLOURS } from "../../shared/viewer/palette.js";
import { Viewport } from "../../shared/viewer/viewport.js";

// The noise layer's decisions without a browser (test/viewer/noises.test.ts reads its pixels in one): what
// it keeps of a `noise` message, which noise is a ring and which a chevron, where each goes, how long it
// stays; and the detection log's line for an event fed by hearing.

/** What a canvas was asked to draw: each shape closed by fill() or stroke(), with its style. */
interface Shape {
  op: "fill" | "stroke";
  style: string;
  alpha: number;
  lineWidth: number;
  arcs: { x: number; y: number; r: number }[];
  points: { x: number; y: number }[];
}

function recordingContext(): { ctx: CanvasRenderingContext2D; shapes: Shape[] } {
  const shapes: Shape[] = [];
  let arcs: Shape["arcs"] = [];
  let points: Shape["points"] = [];
  const ctx = {
    globalAlpha: 1,
    lineWidth: 1,
    lineJoin: "miter",
    strokeStyle: "",
    fillStyle: "",
    beginPath() {
      arcs = [];
      points = [];
    },
    moveTo(x: number, y: number) {
      points.push({ x, y });
    },
    lineTo(x: number, y: number) {
      points.push({ x, y });
    },
    arc(x: number, y: number, r: number) {
      arcs.push({ x, y, r });
    },
    fill() {
      shapes.push({ op: "fill", style: this.fillStyle, alpha: this.globalAlpha, lineWidth: this.lineWidth, arcs: [...arcs], points: [...points] });
    },
    stroke() {
      shapes.push({ op: "stroke", style: this.strokeStyle, alpha: this.globalAlpha, lineWidth: this.lineWidth, arcs: [...arcs], points: [...points] });
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, shapes };
}

const view = new Viewport(24, 12); // 24 px a meter
const me = { x: 6, y: 6 };
const locateMe = (id: string) => (id === "me" ? me : undefined);

describe("the noise layer", () => {
  it("keeps well-formed noises only, and a spot only when whole", () => {
    const layer = new NoiseLayer();
    layer.hear([
      { kind: "footstep", level: 0.5, dir: 0, listener: "me" },
      { kind: "thud", level: 1, dir: 1, listener: "me", emitter: "p2", x: 3, y: 4 },
      { kind: "footstep", level: 0.5, dir: 0, listener: "me", emitter: "p3", x: 3 }, // half a spot: a direction
      { kind: "footstep", level: Number.NaN, dir: 0, listener: "me" },
      { kind: 7, level: 0.5, dir: 0, listener: "me" },
      null,
    ], 0);
    layer.hear({ not: "a list" }, 0);
    expect(layer.received).toBe(3);
    const held = layer.readings(100, locateMe);
    expect(held.map((n) => [n.kind, n.x, n.emitter, n.drawn])).toEqual([["footstep", undefined, undefined, true], ["thud", 3, "p2", true], ["footstep", undefined, undefined, true]]);
    expect(held[0]!.age).toBe(100);
  });

  it("draws a noise with a spot as a ring there, growing and fading; a thud's thicker and wider", () => {
    const layer = new NoiseLayer();
    layer.hear([{ kind: "footstep", level: 1, dir: 0, listener: "", emitter: "a", x: 2, y: 3 }, { kind: "thud", level: 1, dir: 0, listener: "", emitter: "b", x: 10, y: 5 }], 1000);
    const early = recordingContext();
    layer.draw(early.ctx, view, 1000, locateMe);
    const late = recordingContext();
    layer.draw(late.ctx, view, 1000 + NOISE_MS * 0.9, locateMe);
    const [step, thud] = early.shapes;
    expect(step).toMatchObject({ op: "stroke", style: NOISE_COLOURS.footstep, arcs: [{ x: 48, y: 72, r: NOISE_RING.from * 24 }] });
    expect(thud).toMatchObject({ op: "stroke", style: NOISE_COLOURS.thud, arcs: [{ x: 240, y: 120 }] });
    expect(thud!.lineWidth).toBeGreaterThan(step!.lineWidth * 1.5);
    const [stepLate, thudLate] = late.shapes;
    expect(stepLate!.arcs[0]!.r).toBeGreaterThan(step!.arcs[0]!.r);
    expect(stepLate!.arcs[0]!.r).toBeLessThanOrEqual(NOISE_RING.footstep * 24);
    expect(thudLate!.arcs[0]!.r).toBeGreaterThan(stepLate!.arcs[0]!.r);
    expect(stepLate!.alpha).toBeLessThan(step!.alpha / 5);
    // Gone after NOISE_MS.
    const after = recordingContext();
    layer.draw(after.ctx, view, 1000 + NOISE_MS, locateMe);
    expect(after.shapes).toEqual([]);
    expect(layer.readings(1000 + NOISE_MS, locateMe)).toEqual([]);
  });

  it("draws a noise without a spot as a chevron around its listener pointing along dir, bolder when louder; none while the listener is not drawn", () => {
    const layer = new NoiseLayer();
    const south = Math.PI / 2; // +y, down the screen, as a facing of PI / 2
    layer.hear([
      { kind: "footstep", level: 1, dir: south, listener: "me" },
      { kind: "footstep", level: 0.125, dir: south, listener: "me" },
      { kind: "thud", level: 1, dir: 0, listener: "someone off screen" },
    ], 0);
    const { ctx, shapes } = recordingContext();
    layer.draw(ctx, view, 0, locateMe);
    expect(shapes).toHaveLength(2);
    const [loud, faint] = shapes;
    const tip = loud!.points[1]!;
    expect(tip.x).toBeCloseTo(me.x * 24, 6);
    expect(tip.y).toBeCloseTo((me.y + NOISE_MARKER.distance + NOISE_MARKER.tip) * 24, 6);
    for (const p of loud!.points) expect(Math.hypot(p.x / 24 - me.x, p.y / 24 - me.y)).toBeGreaterThanOrEqual(NOISE_MARKER.distance - 1e-9);
    expect(faint!.alpha).toBeLessThan(loud!.alpha);
    expect(layer.readings(0, locateMe).map((n) => n.drawn)).toEqual([true, true, false]);
  });

  it("fills a thud's chevron, and strokes a footstep's", () => {
    const layer = new NoiseLayer();
    layer.hear([{ kind: "thud", level: 1, dir: 0, listener: "me" }], 0);
    const { ctx, shapes } = recordingContext();
    layer.draw(ctx, view, 0, locateMe);
    expect(shapes.map((s) => [s.op, s.style])).toEqual([["fill", NOISE_COLOURS.thud], ["stroke", NOISE_COLOURS.thud]]);
  });
});

describe("the detection log's line", () => {
  const notice: Notice = { seq: 4, tick: 120, type: "suspicious", observer: "guard:Ed", x: 3.25, y: 7 };
  it("marks the sense: an ear and where the noise was for hearing, an eye for sight or no sense given", () => {
    expect(noticeText({ ...notice, sense: "hearing" }, "you")).toBe("#4 tick 120: 👂 guard:Ed suspicious you heard at (3.3, 7.0)");
    expect(noticeText({ ...notice, sense: "sight" }, "you")).toBe("#4 tick 120: 👁 guard:Ed suspicious you at (3.3, 7.0)");
    expect(noticeText(notice, "p1")).toBe("#4 tick 120: 👁 guard:Ed suspicious p1 at (3.3, 7.0)");
    expect(noticeText({ ...notice, observer: "", sense: "smell" }, "you")).toBe("#4 tick 120: (smell) someone unseen suspicious you at (3.3, 7.0)");
  });
});
