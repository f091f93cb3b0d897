/// <reference lib="dom" />
import type { PlayerState, StealthState } from "../schema.js";
import type { ConeOutline } from "./coneOutline.js";
import type { DetectionLog, Notice } from "./detectionLog.js";
import { DoorLayer } from "./doorLayer.js";
import type { ExploredWords, FogOfWar } from "./fogOfWar.js";
import { drawCharacters, drawCones, drawMarks, drawObservers, type CharacterSprite, type Mark, type ObserverSprite } from "./entityLayer.js";
import type { LevelSight } from "./levelSight.js";
import type { MeterList, MeterReading } from "./meterList.js";
import type { NoiseLayer } from "./noiseLayer.js";
import { drawRays } from "./rayLayer.js";
import { SmokeLayer } from "./smokeLayer.js";
import type { SpectatorPanel } from "./spectatorPanel.js";
import type { Viewport } from "./viewport.js";

/** Who is looking: a player (its session id) or a spectator (with its panel). */
export type Onlooker = { role: "player"; sessionId: string } | { role: "spectator"; sessionId: string; panel: SpectatorPanel };

/**
 * One frame of the page: the map and its doors, the fog of the player in focus, the rays (spectators),
 * the cones, the smoke clouds, the characters, the noises heard, the guards and cameras with their meter
 * bars, and the "?"/"!" marks; plus the meter list and the detection log. Reads the room state as it is
 * when the frame is drawn, and first hands its doors and clouds to the level's sight, which the fog and
 * cones read.
 */
export class LiveView {
  readonly marks: Mark[] = [];
  /** Frames drawn, for the record. */
  frames = 0;
  private readonly observers: ObserverSprite[] = [];
  private readonly characters: CharacterSprite[] = [];
  private readonly readings: MeterReading[] = [];
  private readonly doors: DoorLayer;
  private readonly smoke = new SmokeLayer();
  private readonly showsEntity = (id: string): boolean => this.shows(id);
  /** Where a player on screen is (the listener of a noise), meters; undefined when it is not drawn. */
  readonly playerOnScreen = (id: string): { x: number; y: number } | undefined => {
    const p = id === "" ? undefined : this.state.players?.get(id);
    return p !== undefined && this.shows(id) ? p : undefined;
  };

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private readonly view: Viewport,
    private readonly mapLayer: HTMLCanvasElement,
    private readonly cones: ConeOutline,
    private readonly state: StealthState,
    private readonly onlooker: Onlooker,
    private readonly meters: MeterList,
    private readonly log: DetectionLog,
    private readonly fog: FogOfWar,
    private readonly level: LevelSight,
    private readonly noises: NoiseLayer,
  ) {
    this.doors = new DoorLayer(level);
  }

  /** The player whose fog is drawn: the own one, or the one a spectator follows ("" = none). */
  private fogFor = "";

  /** The players whose meters, events and fog the page shows: the own one, or those a spectator follows. */
  shownPlayers(): [string, PlayerState][] {
    const out: [string, PlayerState][] = [];
    this.state.players?.forEach((p, id) => {
      const o = this.onlooker;
      if (o.role === "player" ? id === o.sessionId : o.panel.watchedPlayer === "" || o.panel.watchedPlayer === id) out.push([id, p]);
    });
    return out;
  }

  /** Whether an entity is drawn: a player sees what it received; a spectator, everything or one client's share. */
  shows(entityId: string): boolean {
    return this.onlooker.role === "player" || this.onlooker.panel.shows(entityId);
  }

  /** Where an observer on screen is, meters. */
  observerAt(id: string): { x: number; y: number } | undefined {
    const o = this.state.guards?.get(id) ?? this.state.cameras?.get(id);
    return o === undefined || !this.shows(id) ? undefined : { x: o.x, y: o.y };
  }

  draw(now: number): void {
    const { ctx, view, state, onlooker } = this;
    this.frames++;
    this.level.sync(state.doors, state.smokes);
    ctx.drawImage(this.mapLayer, 0, 0);
    this.doors.draw(ctx, view);
    const focus = onlooker.role === "player" ? onlooker.sessionId : onlooker.panel.watchedPlayer;
    if (focus !== this.fogFor) {
      this.fogFor = focus;
      this.fog.reset();
    }
    const inFocus = focus === "" ? undefined : state.players?.get(focus);
    if (inFocus !== undefined) {
      // `explored` is read loosely: a server without tile memory sends none, and the fog then remembers by itself.
      this.fog.update(inFocus.x, inFocus.y, (inFocus as unknown as { explored?: ExploredWords }).explored);
      this.fog.draw(ctx);
    }
    if (onlooker.role === "spectator" && onlooker.panel.showRays) drawRays(ctx, view, onlooker.panel.rayBatches);

    const shown = this.shownPlayers();
    const readings = this.readings;
    readings.length = 0;
    const notices: Notice[] = [];
    for (const [id, p] of shown) {
      p.meters?.forEach((m, observer) => readings.push({ player: id, observer, level: m.level, state: m.state }));
      notices.length = 0;
      p.events?.forEach((e) => notices.push(e));
      this.log.collect(id, notices);
    }
    readings.sort((a, b) => b.level - a.level);

    const observers = this.observers;
    observers.length = 0;
    const addObserver = (kind: "guard" | "camera") => (o: { x: number; y: number; facing: number; fov: number; range: number; alert: string }, id: string) => {
      if (!this.shows(id)) return;
      const top = readings.find((r) => r.observer === id);
      observers.push({ id, kind, x: o.x, y: o.y, facing: o.facing, fov: o.fov, range: o.range, alert: o.alert, meter: top?.level ?? 0, meterState: top?.state ?? o.alert });
    };
    state.guards?.forEach(addObserver("guard"));
    state.cameras?.forEach(addObserver("camera"));

    const characters = this.characters;
    characters.length = 0;
    const focusTeam = state.players?.get(focus)?.team;
    state.players?.forEach((p, id) => {
      if (!this.shows(id)) return;
      const role = id === focus ? "self" : focusTeam === undefined || p.team === focusTeam ? "teammate" : "enemy";
      characters.push({ id, x: p.x, y: p.y, facing: p.facing, crouch: p.crouch, role });
    });

    drawCones(ctx, view, observers, this.cones);
    this.smoke.draw(ctx, view, state.smokes, this.showsEntity);
    drawCharacters(ctx, view, characters);
    this.noises.draw(ctx, view, now, this.playerOnScreen);
    drawObservers(ctx, view, observers);
    this.log.flush(this.marks, now, (id) => this.observerAt(id), (player) => (player === focus && onlooker.role === "player" ? "you" : player));
    drawMarks(ctx, view, this.marks, now);
    this.meters.show(readings, (player) => (onlooker.role === "player" ? "you" : player));
  }
}
