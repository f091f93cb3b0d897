/**
 * Records every binary frame each SDK client's WebSocket receives, from the join's full state on, so a
 * test can search what a client was sent, not only what it decoded (a hidden entity must leave no bytes).
 */
const frames = new WeakMap<object, Uint8Array[]>();
const proto = globalThis.WebSocket.prototype;
const original = Object.getOwnPropertyDescriptor(proto, "onmessage")!;

/** Starts recording the frames of every WebSocket that gets an `onmessage` handler from now on. */
export function recordRawFrames(): void {
  Object.defineProperty(proto, "onmessage", {
    configurable: true,
    get() {
      return original.get!.call(this);
    },
    set(handler: ((ev: MessageEvent) => void) | null) {
      const log: Uint8Array[] = frames.get(this) ?? [];
      frames.set(this, log);
      original.set!.call(this, handler === null ? null : (ev: MessageEvent) => {
        if (ev.data instanceof ArrayBuffer) log.push(new Uint8Array(ev.data.slice(0)));
        handler(ev);
      });
    },
  });
}

export function stopRecordingRawFrames(): void {
  Object.defineProperty(proto, "onmessage", original);
}

/** The frames an SDK client (@colyseus/sdk `Room`) has received so far. */
export function rawFrames(client: unknown): Uint8Array[] {
  return frames.get((client as { connection: { transport: { ws: object } } }).connection.transport.ws) ?? [];
}

/** Whether `needle` (text as UTF-8, or bytes) occurs anywhere in what the client received. */
export function receivedBytes(client: unknown, needle: string | Uint8Array): boolean {
  const bytes = typeof needle === "string" ? Buffer.from(needle, "utf8") : Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength);
  return rawFrames(client).some((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).includes(bytes));
}
