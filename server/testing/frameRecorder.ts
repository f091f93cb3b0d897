import { Room } from "@colyseus/sdk";
import { describeNeedle, needleBytes, type Needle } from "./needles.js";

/** The recorders listening now: one hook on the SDK's Room serves them all. */
const active = new Set<FrameRecorder>();
const proto = Room.prototype as unknown as { onMessageCallback(this: Room, event: MessageEvent): void };
let original: ((this: Room, event: MessageEvent) => void) | undefined;

function install(): void {
  if (original !== undefined) return;
  original = proto.onMessageCallback;
  const unhooked = original;
  proto.onMessageCallback = function (this: Room, event: MessageEvent) {
    if (event.data instanceof ArrayBuffer || ArrayBuffer.isView(event.data)) {
      const data = event.data as ArrayBuffer | ArrayBufferView;
      const copy = data instanceof ArrayBuffer ? new Uint8Array(data.slice(0)) : new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
      for (const recorder of active) recorder.record(this, copy);
    }
    unhooked.call(this, event);
  };
}

function uninstall(): void {
  if (original === undefined || active.size > 0) return;
  proto.onMessageCallback = original;
  original = undefined;
}

/**
 * Records every frame each `@colyseus/sdk` room receives, from its join on, so a test can search what a
 * client was sent, not only what it decoded: a hidden entity must leave no bytes at all (an id in a map
 * key, a position in a patch, a name in a message). Start it before the clients join (a room connected
 * earlier is not recorded), stop it when done. Works with any transport the SDK speaks, and with the SDK
 * clients `@colyseus/testing` makes, as long as they share this `@colyseus/sdk` (one copy per install).
 *
 * ```ts
 * const frames = FrameRecorder.start();
 * const red = await sdk.joinById(roomId, { team: "red" });
 * // ... play ...
 * frames.assertNeverReceived(red, blueSessionId, "blue's id");
 * frames.assertNeverReceived(red, encoded(blueX, "float32"), "blue's x");
 * frames.assertReceived(blue, blueSessionId); // the search is not blind
 * frames.stop();
 * ```
 */
export class FrameRecorder {
  private readonly frames = new WeakMap<object, Uint8Array[]>();
  private stopped = false;

  private constructor() {}

  /** Starts recording every SDK room that connects from now on. */
  static start(): FrameRecorder {
    const recorder = new FrameRecorder();
    active.add(recorder);
    install();
    return recorder;
  }

  /** @internal */
  record(room: object, frame: Uint8Array): void {
    let log = this.frames.get(room);
    if (log === undefined) this.frames.set(room, (log = []));
    log.push(frame);
  }

  /** The frames an SDK room (a client's joined room) has received so far, oldest first. */
  framesOf(room: object): readonly Uint8Array[] {
    return this.frames.get(room) ?? [];
  }

  /** How many bytes the room has received so far. */
  bytesOf(room: object): number {
    let total = 0;
    for (const f of this.framesOf(room)) total += f.byteLength;
    return total;
  }

  /** Whether `needle` occurs anywhere in what the room received (within one frame). */
  received(room: object, needle: Needle): boolean {
    return this.find(room, needleBytes(needle)) !== undefined;
  }

  /** Throws, saying where, if `needle` occurs anywhere in what the room received. `label` names it in the message. */
  assertNeverReceived(room: object, needle: Needle, label?: string): void {
    const at = this.find(room, needleBytes(needle));
    if (at !== undefined) {
      throw new Error(`the client received ${describeNeedle(needle, label)}: frame ${at.frame} of ${this.framesOf(room).length} (code ${at.code}), at byte ${at.offset}`);
    }
  }

  /** Throws if `needle` occurs nowhere in what the room received (a search that cannot fail proves nothing). */
  assertReceived(room: object, needle: Needle, label?: string): void {
    if (this.find(room, needleBytes(needle)) === undefined) {
      throw new Error(`the client never received ${describeNeedle(needle, label)} in ${this.framesOf(room).length} frames (${this.bytesOf(room)} bytes)`);
    }
  }

  /** Stops recording (what was recorded stays readable). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    active.delete(this);
    uninstall();
  }

  private find(room: object, bytes: Buffer): { frame: number; offset: number; code: number } | undefined {
    const log = this.framesOf(room);
    for (let i = 0; i < log.length; i++) {
      const f = log[i]!;
      const offset = Buffer.from(f.buffer, f.byteOffset, f.byteLength).indexOf(bytes);
      if (offset >= 0) return { frame: i, offset, code: f[0]! };
    }
    return undefined;
  }
}
