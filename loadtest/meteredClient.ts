import { Client, Protocol, Room } from "@colyseus/sdk";

/** Traffic a set of bots received, summed (bytes are WebSocket message payloads, before any decoding). */
export interface Traffic {
  bytesIn: number;
  messagesIn: number;
  /** State patches among the messages (full states at join not included). */
  patchesIn: number;
}

/** The low 5 bits of a frame's first byte are its protocol code; the high bits are modifiers. */
const PROTOCOL_CODE_MASK = 0x1f;

/**
 * A serializer that keeps no state: a thin bot counts what arrives and never decodes it. Decoding every
 * patch costs a load generator about a core per 400 clients; capacity runs need the generator to stay out
 * of the measurement. `getState()` is undefined, so the SDK still asks the server for the handshake.
 */
class SkippedState {
  setState(): void {}
  getState(): undefined {
    return undefined;
  }
  patch(): void {}
  teardown(): void {}
  handshake(): void {}
}

/** An SDK room that counts every message it receives into the run's shared `total`. */
class MeteredRoom extends Room {
  constructor(name: string, private readonly total: Traffic, thin: boolean) {
    super(name);
    // Set before the join handshake, so the SDK never builds a schema decoder for this room.
    if (thin) this.serializer = new SkippedState() as unknown as Room["serializer"];
  }

  protected override onMessageCallback(event: MessageEvent): void {
    const data = event.data as ArrayBuffer;
    const bytes = data.byteLength;
    const patch = bytes > 0 && (new Uint8Array(data, 0, 1)[0]! & PROTOCOL_CODE_MASK) === Protocol.ROOM_STATE_PATCH ? 1 : 0;
    this.total.bytesIn += bytes;
    this.total.messagesIn++;
    this.total.patchesIn += patch;
    super.onMessageCallback(event);
  }
}

/**
 * An `@colyseus/sdk` client whose rooms count what they receive, and optionally skip decoding (thin).
 * Everything else is the stock SDK: matchmaking, the join handshake, `room.input()`, `room.ping()`, leave.
 */
export class MeteredClient extends Client {
  constructor(endpoint: string, private readonly total: Traffic, private readonly thin: boolean) {
    super(endpoint);
  }

  protected override createRoom<T>(roomName: string): Room<any, T> {
    return new MeteredRoom(roomName, this.total, this.thin) as unknown as Room<any, T>;
  }
}
