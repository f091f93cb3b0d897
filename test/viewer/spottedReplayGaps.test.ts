import { describe, expect, it } from "vitest";
import { REPLAY_COLOURS, SpottedReplay } from "../../shared/viewer/spottedReplay.js";

// The "why was I spotted" replay draws from the page's own record of its character, taken once per
// frame. A busy server or a slow page skips ticks in that record; the replay must still draw the sight
// ray and the player at every step. Drawn on a canvas stand-in that records what was stroked.

/** A 2D context that records the colour of every stroke and fill, and ignores the rest. */
function recordingCanvas(): { canvas: HTMLCanvasElement; strokes: string[]; fills: string[] } {
  const strokes: string[] = [];
  const fills: string[] = [];
  const ctx = {
    strokeStyle: "",
    fillStyle: "",
    lineWidth: 1,
    stroke() {
      strokes.push(this.strokeStyle);
    },
    fill() {
      fills.push(this.fillStyle);
    },
    fillRect() {},
    beginPath() {},
    moveTo() {},
    lineTo() {},
    arc() {},
    closePath() {},
    setLineDash() {},
  };
  const canvas = { width: 320, height: 200, getContext: () => ctx } as unknown as HTMLCanvasElement;
  return { canvas, strokes, fills };
}

/** A sight row with the fairness mode's poses: the guard at (0, 0) facing +x, 3 m from the player. */
const sightRow = (tick: number, after: number): number[] => [tick, 0, after - 0.1, 0.1, after, 3, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 50];

describe("the spotted replay", () => {
  it("a player whose page recorded only every other tick still gets the sight ray and its own dot at the last step", () => {
    const { canvas, strokes, fills } = recordingCanvas();
    const section = { hidden: true } as HTMLElement;
    const replay = new SpottedReplay(canvas, { textContent: "" } as HTMLElement, section);
    for (let tick = 100; tick <= 120; tick += 2) replay.track(tick, 3, 0);
    const rows = [];
    for (let tick = 101; tick <= 111; tick++) rows.push(sightRow(tick, (tick - 100) / 11));
    expect(replay.show({ observer: "guard:Watcher", sense: "sight", rate: 1, rows }, { fov: Math.PI / 2, range: 6 }, 0)).toBe(true);
    expect(section.hidden).toBe(false);
    // The last step (tick 111, which the page has no record of) is drawn from 10 steps of 50 ms on.
    replay.draw(10 * 50 + 10);
    expect(replay.reading()!.drawnStep).toBe(10);
    expect(strokes).toContain(REPLAY_COLOURS.ray);
    expect(fills).toContain(REPLAY_COLOURS.path);
  });

  it("a page open for minutes keeps only the last ten seconds of its path, however unevenly it recorded", () => {
    const { canvas, strokes } = recordingCanvas();
    const replay = new SpottedReplay(canvas, { textContent: "" } as HTMLElement, { hidden: true } as HTMLElement);
    for (let tick = 0; tick < 20_000; tick += 1 + (tick % 3)) replay.track(tick, 3, 0);
    // A step from long ago has no record left to draw from: no ray, and no frame at all.
    replay.show({ observer: "guard:Watcher", sense: "sight", rate: 1, rows: [sightRow(50, 1)] }, undefined, 0);
    replay.draw(10);
    expect(strokes).not.toContain(REPLAY_COLOURS.ray);
    expect((replay as unknown as { path: Map<number, unknown> }).path.size).toBeLessThanOrEqual(200);
  });

  it("a page that joined another room (its clock starts again) replays only the new room's path", () => {
    const { canvas, strokes } = recordingCanvas();
    const replay = new SpottedReplay(canvas, { textContent: "" } as HTMLElement, { hidden: true } as HTMLElement);
    for (let tick = 900; tick <= 1000; tick++) replay.track(tick, 50, 50);
    for (let tick = 1; tick <= 20; tick++) replay.track(tick, 3, 0);
    // A step at tick 950 of the new room has not happened yet: the old room's record there is not drawn.
    replay.show({ observer: "guard:Watcher", sense: "sight", rate: 1, rows: [sightRow(950, 1)] }, undefined, 0);
    replay.draw(10);
    expect(strokes).not.toContain(REPLAY_COLOURS.ray);
    replay.show({ observer: "guard:Watcher", sense: "sight", rate: 1, rows: [sightRow(15, 1)] }, undefined, 0);
    replay.draw(10);
    expect(strokes).toContain(REPLAY_COLOURS.ray);
  });
});
