import type { Client, Room } from "@colyseus/core";

/** What the plugin does at each of the room's moments. @internal */
export interface RoomMoments {
  /** Just before each patch, after the room's own `onBeforePatch`. */
  beforePatch(): void;
  /** Before the room's own `onLeave`. */
  leave(client: Client): void;
  /** After the room's own `onDispose`. */
  dispose(): void;
}

/**
 * Hooks the plugin into one room instance. Leave and dispose are hooked on the room itself rather than
 * declared as plugin hooks: Colyseus 0.18 binds a room's lifecycle methods before it installs its
 * plugins' hooks on the first room of a class that defines `onUncaughtException`, so that room would
 * never call them.
 * @internal
 */
export function hookRoom(room: Room, moments: RoomMoments): void {
  const own = room.onBeforePatch;
  room.onBeforePatch = (state) => {
    if (own !== undefined) void own.call(room, state);
    moments.beforePatch();
  };
  const hooks = room as unknown as { onLeave?: (client: Client, code?: number) => unknown; onDispose?: () => unknown };
  const leave = hooks.onLeave;
  hooks.onLeave = (client: Client, code?: number) => {
    moments.leave(client);
    return leave?.call(room, client, code);
  };
  const dispose = hooks.onDispose;
  hooks.onDispose = () => {
    const result = dispose?.call(room);
    moments.dispose();
    return result;
  };
}
