/// <reference lib="dom" />
import { DOOR_REACH } from "../gameRules.js";
import type { DistractMessage, DoorMessage, SmokeMessage } from "../protocol.js";
import { nearestDoor } from "./doorReach.js";
import type { DoorStates } from "./doorLayer.js";
import type { Viewport } from "./viewport.js";

/** The part of an SDK room the actions use. */
export interface MessageSender {
  send(type: "door", payload: DoorMessage): void;
  send(type: "smoke", payload: SmokeMessage): void;
  send(type: "distract", payload: DistractMessage): void;
}

/**
 * The player's requests besides moving: E opens or shuts the nearest door within `DOOR_REACH` (as the
 * page last knew it: shut if open, open if shut), G throws a smoke grenade at the point under the mouse,
 * and so does a right click on the canvas; F throws a distraction there (a stone whose thud guards go and
 * look at). The server checks everything again (reach, a clear doorway, grenades and distractions left,
 * throw ranges) and says why when it refuses; the page refuses only what it cannot ask, a door when none
 * is near, or a throw before the mouse was ever over the map.
 */
export class PlayerActions {
  private mouse: { x: number; y: number } | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly view: Viewport,
    private readonly room: MessageSender,
    private readonly doors: DoorStates,
    /** Where the own character is now, meters (undefined before the state has it). */
    private readonly position: () => { x: number; y: number } | undefined,
    /** Says why a request was not sent. */
    private readonly refuse: (text: string) => void,
  ) {}

  start(): void {
    window.addEventListener("keydown", this.onKeyDown);
    this.canvas.addEventListener("mousemove", this.onMouseMove);
    this.canvas.addEventListener("contextmenu", this.onContextMenu);
  }

  stop(): void {
    window.removeEventListener("keydown", this.onKeyDown);
    this.canvas.removeEventListener("mousemove", this.onMouseMove);
    this.canvas.removeEventListener("contextmenu", this.onContextMenu);
  }

  /** Opens or shuts the nearest door in reach. */
  toggleDoor(): void {
    const at = this.position();
    if (at === undefined) return;
    const i = nearestDoor(this.doors.doors, at.x, at.y, DOOR_REACH);
    if (i < 0) {
      this.refuse(`no door within ${DOOR_REACH} m of you`);
      return;
    }
    this.room.send("door", { door: this.doors.doors[i]!.id, open: !this.doors.isOpen(i) });
  }

  /** Throws a smoke grenade to (x, y), meters. */
  throwSmoke(x: number, y: number): void {
    this.room.send("smoke", { x, y });
  }

  /** Throws a distraction to (x, y), meters: its thud is heard there, by guards and players alike. */
  throwDistraction(x: number, y: number): void {
    this.room.send("distract", { x, y });
  }

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.repeat || e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    // Ctrl+F, Ctrl+G, Ctrl+E are the browser's (find, find next, search): not throws.
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.code === "KeyE") this.toggleDoor();
    else if (e.code === "KeyG") {
      if (this.mouse === null) this.refuse("point at a spot on the map with the mouse, then press G");
      else this.throwSmoke(this.mouse.x, this.mouse.y);
    } else if (e.code === "KeyF") {
      if (this.mouse === null) this.refuse("point at a spot on the map with the mouse, then press F");
      else this.throwDistraction(this.mouse.x, this.mouse.y);
    }
  };

  private readonly onMouseMove = (e: MouseEvent): void => {
    this.mouse = this.view.worldAt(this.canvas, e.clientX, e.clientY);
  };

  private readonly onContextMenu = (e: MouseEvent): void => {
    e.preventDefault();
    const at = this.view.worldAt(this.canvas, e.clientX, e.clientY);
    this.throwSmoke(at.x, at.y);
  };
}
