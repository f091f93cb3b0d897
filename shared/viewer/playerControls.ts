/// <reference lib="dom" />
import { TICK_RATE } from "../gameRules.js";
import type { Viewport } from "./viewport.js";

/** The input handle `room.input()` returns: the frame to fill, and send. */
export interface InputSender {
  data: Record<string, unknown>;
  send(): void;
}

/**
 * The stick's length while the walk key is held. The server tells a gait from the speed (a run from 2.4
 * m/s, `FOOTSTEPS.runFrom`): half of the 3 m/s top speed is a walk, whose steps carry 4 m rather than
 * 10 (docs/hearing.md). Half, not just under the threshold: a walk that is plainly a walk.
 */
export const WALK_STICK = 0.5;

/** The key held to walk softly. V: free of the move keys' hand, and of the browser's own shortcuts (Alt opens menus). */
export const WALK_KEY = "KeyV";

const MOVES: Readonly<Record<string, readonly [number, number]>> = {
  KeyW: [0, -1], ArrowUp: [0, -1],
  KeyS: [0, 1], ArrowDown: [0, 1],
  KeyA: [-1, 0], ArrowLeft: [-1, 0],
  KeyD: [1, 0], ArrowRight: [1, 0],
};

/**
 * Keyboard and mouse to input frames: WASD (or arrows) move, at full speed (a run, heard 10 m away) or,
 * with V held, at half of it (a walk, heard 4 m away); Shift held or C toggled crouches, the mouse sets
 * the facing (before it moves, the facing follows the walk). A frame goes out 20 times a second with
 * every field set and `seq` increasing: the input class the SDK builds has no defaults, and the room
 * drops frames whose seq is not above the last.
 */
export class PlayerControls {
  private readonly held = new Set<string>();
  private crouchToggled = false;
  private mouse: { x: number; y: number } | null = null;
  private facing = 0;
  private seq = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly view: Viewport,
    private readonly input: InputSender,
    /** Where the own character is now, meters (undefined before the state has it). */
    private readonly position: () => { x: number; y: number } | undefined,
  ) {}

  start(): void {
    window.addEventListener("keydown", this.onKeyDown);
    window.addEventListener("keyup", this.onKeyUp);
    // A key released while the page had no focus never reports its keyup: stop rather than walk on.
    window.addEventListener("blur", this.onBlur);
    this.canvas.addEventListener("mousemove", this.onMouseMove);
    this.timer = setInterval(() => this.sendFrame(), 1000 / TICK_RATE);
  }

  stop(): void {
    window.removeEventListener("keydown", this.onKeyDown);
    window.removeEventListener("keyup", this.onKeyUp);
    window.removeEventListener("blur", this.onBlur);
    this.canvas.removeEventListener("mousemove", this.onMouseMove);
    clearInterval(this.timer);
  }

  /** Whether the character is asked to crouch now. */
  get crouching(): boolean {
    return this.crouchToggled || this.held.has("ShiftLeft") || this.held.has("ShiftRight");
  }

  /** Whether the move is eased to a walk now. */
  get walking(): boolean {
    return this.held.has(WALK_KEY);
  }

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    if (e.code === "KeyC" && !e.repeat) this.crouchToggled = !this.crouchToggled;
    if (MOVES[e.code] !== undefined) e.preventDefault(); // arrows would scroll the page
    this.held.add(e.code);
  };

  private readonly onKeyUp = (e: KeyboardEvent): void => {
    this.held.delete(e.code);
  };

  private readonly onBlur = (): void => {
    this.held.clear();
  };

  private readonly onMouseMove = (e: MouseEvent): void => {
    this.mouse = this.view.worldAt(this.canvas, e.clientX, e.clientY);
  };

  private sendFrame(): void {
    let mx = 0;
    let my = 0;
    for (const code of this.held) {
      const move = MOVES[code];
      if (move !== undefined) {
        mx += move[0];
        my += move[1];
      }
    }
    const len = Math.hypot(mx, my);
    if (len > 0) {
      const stick = this.walking ? WALK_STICK : 1;
      mx *= stick / len;
      my *= stick / len;
    }
    const at = this.position();
    if (this.mouse !== null && at !== undefined && (this.mouse.x !== at.x || this.mouse.y !== at.y)) this.facing = Math.atan2(this.mouse.y - at.y, this.mouse.x - at.x);
    else if (len > 0) this.facing = Math.atan2(my, mx);
    const d = this.input.data;
    d.seq = ++this.seq;
    d.moveX = mx;
    d.moveY = my;
    d.facing = this.facing;
    d.crouch = this.crouching;
    d.rejected = false;
    this.input.send();
  }
}
