/// <reference lib="dom" />
import { CHARACTER_RADIUS } from "../gameRules.js";
import type { ConeOutline } from "./coneOutline.js";
import { alertColour, CHARACTER_COLOURS, CONE_EDGE_ALPHA, CONE_FILL_ALPHA, OVERLAY_COLOURS } from "./palette.js";
import type { Viewport } from "./viewport.js";

/** Half the side of a camera's square marker, meters. */
const CAMERA_HALF = 0.3;

/** A guard or a camera as drawn: meters and radians, `fov` the full cone angle. */
export interface ObserverSprite {
  id: string;
  kind: "guard" | "camera";
  x: number;
  y: number;
  facing: number;
  fov: number;
  range: number;
  alert: string;
  /** The fullest meter this observer has on a shown player, in [0, 1], and that meter's state. */
  meter: number;
  meterState: string;
}

export interface CharacterSprite {
  id: string;
  x: number;
  y: number;
  facing: number;
  crouch: boolean;
  role: "self" | "teammate" | "enemy";
}

/** A "?" or "!" above whoever noticed, for a moment. */
export interface Mark {
  x: number;
  y: number;
  text: string;
  colour: string;
  /** performance.now() when it appeared. */
  since: number;
}

/** How long a mark stays, ms. */
const MARK_MS = 2000;

const outlinePoints: number[] = [];

/**
 * Each observer's cone, `fov` around `facing` and `range` long, cut where walls stop it, tinted by its
 * awareness state.
 */
export function drawCones(ctx: CanvasRenderingContext2D, view: Viewport, observers: readonly ObserverSprite[], cones: ConeOutline): void {
  const reach = Math.hypot(view.mapWidth, view.mapHeight);
  const pts = outlinePoints;
  for (const o of observers) {
    const n = cones.outline(o.x, o.y, o.facing, o.fov, Math.min(o.range, reach), pts);
    ctx.beginPath();
    ctx.moveTo(view.x(pts[0]!), view.y(pts[1]!));
    for (let i = 1; i < n; i++) ctx.lineTo(view.x(pts[2 * i]!), view.y(pts[2 * i + 1]!));
    ctx.closePath();
    const colour = alertColour(o.alert);
    ctx.globalAlpha = CONE_FILL_ALPHA;
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.globalAlpha = CONE_EDGE_ALPHA;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
}

/** Guards (discs) and cameras (squares), opaque in their state's colour, with a facing tick and a meter bar. */
export function drawObservers(ctx: CanvasRenderingContext2D, view: Viewport, observers: readonly ObserverSprite[]): void {
  for (const o of observers) {
    const cx = view.x(o.x);
    const cy = view.y(o.y);
    ctx.fillStyle = alertColour(o.alert);
    ctx.strokeStyle = CHARACTER_COLOURS.outline;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    if (o.kind === "guard") ctx.arc(cx, cy, view.length(CHARACTER_RADIUS), 0, 2 * Math.PI);
    else ctx.rect(cx - view.length(CAMERA_HALF), cy - view.length(CAMERA_HALF), view.length(2 * CAMERA_HALF), view.length(2 * CAMERA_HALF));
    ctx.fill();
    ctx.stroke();
    facingTick(ctx, view, o.x, o.y, o.facing, o.kind === "guard" ? CHARACTER_RADIUS : CAMERA_HALF * Math.SQRT2);
    if (o.meter > 0) meterBar(ctx, view, o.x, o.y, o.meter, o.meterState);
  }
}

/** Players: the own character white, teammates blue, others violet; crouching ones drawn smaller. */
export function drawCharacters(ctx: CanvasRenderingContext2D, view: Viewport, characters: readonly CharacterSprite[]): void {
  for (const c of characters) {
    const radius = c.crouch ? CHARACTER_RADIUS * 0.75 : CHARACTER_RADIUS;
    ctx.fillStyle = CHARACTER_COLOURS[c.role];
    ctx.strokeStyle = CHARACTER_COLOURS.outline;
    ctx.lineWidth = c.role === "self" ? 2.5 : 1.5;
    ctx.beginPath();
    ctx.arc(view.x(c.x), view.y(c.y), view.length(radius), 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    facingTick(ctx, view, c.x, c.y, c.facing, radius);
  }
}

/** Marks younger than {@link MARK_MS}, fading out; drops the expired ones from `marks`. */
export function drawMarks(ctx: CanvasRenderingContext2D, view: Viewport, marks: Mark[], now: number): void {
  let kept = 0;
  const size = Math.max(12, view.length(0.7));
  ctx.font = `bold ${Math.round(size)}px sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const m of marks) {
    const age = now - m.since;
    if (age > MARK_MS) continue;
    marks[kept++] = m;
    const x = view.x(m.x);
    const y = view.y(m.y) - view.length(1.3);
    ctx.globalAlpha = 1 - age / MARK_MS;
    ctx.fillStyle = m.colour;
    ctx.strokeStyle = CHARACTER_COLOURS.outline;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(x, y, size * 0.6, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = OVERLAY_COLOURS.markText;
    ctx.fillText(m.text, x, y + 1);
  }
  ctx.globalAlpha = 1;
  marks.length = kept;
}

/** A short line out of the body's rim, so the centre keeps the body's own colour. */
function facingTick(ctx: CanvasRenderingContext2D, view: Viewport, x: number, y: number, facing: number, rim: number): void {
  const dx = Math.cos(facing);
  const dy = Math.sin(facing);
  ctx.strokeStyle = CHARACTER_COLOURS.outline;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(view.x(x + dx * rim), view.y(y + dy * rim));
  ctx.lineTo(view.x(x + dx * (rim + 0.3)), view.y(y + dy * (rim + 0.3)));
  ctx.stroke();
}

function meterBar(ctx: CanvasRenderingContext2D, view: Viewport, x: number, y: number, level: number, state: string): void {
  const w = view.length(1.2);
  const h = Math.max(4, view.length(0.18));
  const left = view.x(x) - w / 2;
  const top = view.y(y) - view.length(0.8);
  ctx.fillStyle = OVERLAY_COLOURS.meterBack;
  ctx.fillRect(left - 1, top - 1, w + 2, h + 2);
  ctx.fillStyle = alertColour(state);
  ctx.fillRect(left, top, w * Math.min(1, Math.max(0, level)), h);
}
