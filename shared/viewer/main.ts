/// <reference lib="dom" />
import { DISTRACTION, DOOR_REACH, SMOKE } from "../gameRules.js";
import type { SERVER_MESSAGES } from "../protocol.js";
import { ConeOutline } from "./coneOutline.js";
import { DetectionLog } from "./detectionLog.js";
import { FogOfWar } from "./fogOfWar.js";
import { GearLine } from "./gearLine.js";
import { fillLegend } from "./legend.js";
import { LevelSight } from "./levelSight.js";
import { LiveView, type Onlooker } from "./liveView.js";
import { drawMapLayer } from "./mapLayer.js";
import { MeterList } from "./meterList.js";
import { NoiseLayer, type NoiseReading } from "./noiseLayer.js";
import { NoticeLine } from "./noticeLine.js";
import { PlayerActions, type MessageSender } from "./playerActions.js";
import { PlayerControls, type InputSender } from "./playerControls.js";
import { firstState, joinRequestFrom, joinStealthRoom } from "./roomConnection.js";
import { SpectatorPanel } from "./spectatorPanel.js";
import { SpottedReplay, type ReplayReading } from "./spottedReplay.js";
import { readTiledGeometry } from "./tiledGeometry.js";
import { Viewport } from "./viewport.js";

/**
 * What the page exposes for tests and the browser console: where things are (meters, and the canvas
 * pixel they are drawn at) and whether it is live. Colours are for the canvas to tell.
 */
export interface ViewerProbe {
  /** "connecting", "connected", "reconnecting", "disconnected" or "error". */
  status: string;
  role: "player" | "spectator" | null;
  sessionId: string;
  frames(): number;
  rayMessages(): number;
  /** The canvas pixel a world point (meters) is drawn at. */
  toCanvas(x: number, y: number): { x: number; y: number };
  /** The own character, meters and radians, and its smoke grenades and distractions left (players only). */
  self(): { x: number; y: number; facing: number; crouch: boolean; smokes: number; distractions: number } | null;
  /** Guards and cameras on screen now, meters. */
  observers(): { id: string; x: number; y: number; alert: string }[];
  /** Ids of the players on screen now. */
  players(): string[];
  /**
   * Every door of the map: its Tiled object id, the centre of its outline's box (meters), whether the page
   * draws it open, and whether the state has it now (else the page shows the last it knew).
   */
  doors(): { id: number; x: number; y: number; open: boolean; inState: boolean }[];
  /** The smoke clouds on screen now, meters. */
  smokes(): { id: string; x: number; y: number; radius: number; density: number }[];
  /** Whether the page's sight grid (its fog of war) holds the tile under (x, y) meters opaque now. */
  opaqueAt(x: number, y: number): boolean;
  /** Noises received since the page opened (each entry of each `noise` message). */
  noisesReceived(): number;
  /** The noises on screen now (as received, with their age in ms and whether they are drawn). */
  noises(): NoiseReading[];
  /** The "why was I spotted" replay, once an explanation arrived (players only). */
  why(): ReplayReading | null;
}

declare global {
  interface Window {
    sightlineViewer?: ViewerProbe;
  }
}

/**
 * The `noise` message's type, checked against the protocol's at compile time: a value import of
 * shared/protocol.ts would bundle zod into the page for one string.
 */
const NOISE_MESSAGE: typeof SERVER_MESSAGES.noise = "noise";
const EXPLANATION_MESSAGE: typeof SERVER_MESSAGES.explanation = "explanation";

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const canvas = byId<HTMLCanvasElement>("view");
const statusLine = byId<HTMLParagraphElement>("status");
const probe: ViewerProbe = {
  status: "connecting",
  role: null,
  sessionId: "",
  frames: () => 0,
  rayMessages: () => 0,
  toCanvas: (x, y) => ({ x, y }),
  self: () => null,
  observers: () => [],
  players: () => [],
  doors: () => [],
  smokes: () => [],
  opaqueAt: () => false,
  noisesReceived: () => 0,
  noises: () => [],
  why: () => null,
};
window.sightlineViewer = probe;

function setStatus(status: string, text: string): void {
  probe.status = status;
  statusLine.dataset.status = status;
  statusLine.textContent = text;
}

async function start(): Promise<void> {
  const request = joinRequestFrom(location.search);
  setStatus("connecting", request.spectate !== null ? "joining as a spectator…" : "joining…");
  const room = await joinStealthRoom(request);
  const spectating = request.spectate !== null;
  // Before anything awaits: the room sends rays from the next tick on.
  const panel = spectating ? new SpectatorPanel(room, byId<HTMLSelectElement>("show"), byId<HTMLInputElement>("rays")) : undefined;
  // Noises come after each patch, the first ones maybe before the map is loaded: kept from now on.
  const noises = new NoiseLayer();
  room.onMessage(NOISE_MESSAGE, (list: unknown) => noises.hear(list, performance.now()));
  // Why the page's character was spotted: replayed beside the map. Kept until the state can say the cone.
  const replay = spectating ? undefined : new SpottedReplay(byId<HTMLCanvasElement>("why-view"), byId<HTMLElement>("why-text"), byId<HTMLElement>("why"));
  let explained: unknown[] = [];
  room.onMessage(EXPLANATION_MESSAGE, (m: unknown) => explained.push(m));
  await firstState(room);
  const state = room.state;
  const response = await fetch(`/maps/${encodeURIComponent(state.map)}.tmj`);
  if (!response.ok) throw new Error(`map ${state.map}: ${response.status} ${await response.text()}`);
  const mapJson: unknown = await response.json();
  const map = readTiledGeometry(mapJson);
  const view = new Viewport(map.width, map.height);
  canvas.width = view.width;
  canvas.height = view.height;
  const ctx = canvas.getContext("2d")!;
  byId<HTMLElement>("spectator").hidden = !spectating;
  byId<HTMLElement>("gear").hidden = spectating;
  byId<HTMLElement>("door-reach").textContent = String(DOOR_REACH);
  byId<HTMLElement>("throw-range").textContent = String(SMOKE.throwRange);
  byId<HTMLElement>("distraction-range").textContent = String(DISTRACTION.throwRange);
  fillLegend(byId<HTMLUListElement>("legend"), spectating);
  // The server's occluders, mirrored: the fog and the cones stop at shut doors and dense smoke as sight does.
  const level = new LevelSight(mapJson, map);
  const notices = new NoticeLine(byId<HTMLElement>("notice"));

  let onlooker: Onlooker;
  let controls: PlayerControls | undefined;
  let actions: PlayerActions | undefined;
  const ownCharacter = () => state.players?.get(room.sessionId);
  if (panel !== undefined) {
    onlooker = { role: "spectator", sessionId: room.sessionId, panel };
    probe.rayMessages = () => panel.rayMessages;
  } else {
    onlooker = { role: "player", sessionId: room.sessionId };
    controls = new PlayerControls(canvas, view, room.input({ mode: "reliable" }) as InputSender, ownCharacter);
    controls.start();
    actions = new PlayerActions(canvas, view, room as MessageSender, level, ownCharacter, (text) => notices.show(text, "page"));
    actions.start();
  }
  const gear = spectating ? undefined : new GearLine(byId<HTMLElement>("grenades"), byId<HTMLElement>("distractions"));
  const events = byId<HTMLOListElement>("events");
  const live = new LiveView(ctx, view, drawMapLayer(map, view), new ConeOutline(map, level), state, onlooker, new MeterList(byId<HTMLUListElement>("meters"), spectating ? "no meters" : "nobody is aware of you"), new DetectionLog(events), new FogOfWar(level.grid, view), level, noises);

  room.onMessage("round", (r: { type: string; by?: string }) => {
    const line = document.createElement("li");
    line.textContent = r.type === "caught" ? `caught${r.by !== undefined ? ` by ${r.by}` : ""}: back to the spawn` : "escaped! back to the spawn for another run";
    line.dataset.type = r.type;
    events.prepend(line);
  });
  room.onMessage("error", (e: { code: string; message: string }) => {
    console.warn(`server: ${e.code}: ${e.message}`);
    notices.show(`refused: ${e.message}`, "server");
  });
  room.onDrop(() => setStatus("reconnecting", "connection lost, reconnecting…"));
  room.onReconnect(() => setStatus("connected", connectedText()));
  room.onLeave((code, reason) => {
    controls?.stop();
    actions?.stop();
    setStatus("disconnected", `disconnected (${code}${reason ? `: ${reason}` : ""})`);
  });

  const connectedText = () => `${spectating ? "spectating" : "playing"} ${state.map} as ${room.sessionId}`;
  probe.role = onlooker.role;
  probe.sessionId = room.sessionId;
  probe.frames = () => live.frames;
  probe.toCanvas = (x, y) => ({ x: view.x(x), y: view.y(y) });
  probe.self = () => {
    const p = state.players?.get(room.sessionId);
    return p === undefined ? null : { x: p.x, y: p.y, facing: p.facing, crouch: p.crouch, smokes: p.smokes, distractions: p.distractions };
  };
  probe.observers = () => {
    const out: { id: string; x: number; y: number; alert: string }[] = [];
    const add = (o: { x: number; y: number; alert: string }, id: string) => {
      if (live.shows(id)) out.push({ id, x: o.x, y: o.y, alert: o.alert });
    };
    state.guards?.forEach(add);
    state.cameras?.forEach(add);
    return out;
  };
  probe.players = () => [...(state.players?.keys() ?? [])].filter((id) => live.shows(id));
  probe.doors = () => level.doors.map((d, i) => {
    const xs = d.outline.map((p) => p.x);
    const ys = d.outline.map((p) => p.y);
    return { id: d.id, x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2, open: level.isOpen(i), inState: state.doors?.has(String(d.id)) ?? false };
  });
  probe.smokes = () => {
    const out: { id: string; x: number; y: number; radius: number; density: number }[] = [];
    state.smokes?.forEach((c, id) => {
      if (live.shows(id)) out.push({ id, x: c.x, y: c.y, radius: c.radius, density: c.density });
    });
    return out;
  };
  probe.opaqueAt = (x, y) => level.opaqueAt(x, y);
  probe.noisesReceived = () => noises.received;
  probe.noises = () => noises.readings(performance.now(), live.playerOnScreen);
  probe.why = () => replay?.reading() ?? null;
  setStatus("connected", connectedText());

  const frame = (now: number) => {
    if (onlooker.role === "spectator") {
      const players: { id: string; team: string }[] = [];
      state.players?.forEach((p, id) => players.push({ id, team: p.team }));
      onlooker.panel.listPlayers(players);
    }
    live.draw(now);
    const own = ownCharacter();
    if (replay !== undefined) {
      if (own !== undefined) replay.track(state.tick, own.x, own.y);
      for (const m of explained) {
        const observer = typeof (m as { observer?: unknown }).observer === "string" ? (m as { observer: string }).observer : "";
        const o = state.guards?.get(observer) ?? state.cameras?.get(observer);
        replay.show(m, o === undefined ? undefined : { fov: o.fov, range: o.range }, now);
      }
      explained = [];
      replay.draw(now);
    }
    gear?.show(own?.smokes, own?.distractions);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

start().catch((err: unknown) => {
  setStatus("error", `could not start: ${err instanceof Error ? err.message : String(err)}`);
  console.error(err);
});
