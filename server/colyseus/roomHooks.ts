import type { Client, Room } from "@colyseus/core";

/** What the plugin does at each of the room's moments. @internal */
export interface RoomMoments {
  /** Just before each patch, after the room's own `onBeforePatch`. */
  beforePatch(): void;
  /**
   * Just before state leaves the room other than right after `beforePatch`: after the room clock's
   * timers ran inside a patch, and before a joining or reconnecting client's full state.
   */
  beforeSend(): void;
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
 *
 * State leaves a Colyseus 0.18 room at three moments, and the plugin must have the last word before each:
 * - a patch, after `onBeforePatch`;
 * - within that same patch, after `onBeforePatch`, a room with no simulation interval ticks its clock,
 *   so a `this.clock` timer (a respawn three seconds later) runs between the hook and the encoding: the
 *   clock's `tick` is wrapped, and while a patch is under way it calls `beforeSend` after the timers;
 * - a full state, when a client's join (or reconnection) is acknowledged, between two patches: the
 *   room's `sendFullState` is wrapped.
 * @internal
 */
export function hookRoom(room: Room, moments: RoomMoments): void {
  let patching = false;
  const endPatch = () => {
    patching = false;
  };
  const own = room.onBeforePatch;
  room.onBeforePatch = (state) => {
    if (own !== undefined) void own.call(room, state);
    moments.beforePatch();
    // The patch runs synchronously to its end: a microtask marks it over.
    patching = true;
    queueMicrotask(endPatch);
  };
  // A stand-in room (`attachToTestRoom`) sends nothing, so it needs neither wrap; a real one needs both.
  const internals = room as unknown as { broadcastPatch?: unknown; sendFullState?: (client: Client) => void };
  const real = typeof internals.broadcastPatch === "function";
  const clock = room.clock as Room["clock"] | undefined;
  const sendFullState = internals.sendFullState;
  if (real && (clock === undefined || typeof sendFullState !== "function")) {
    // Private in core's declarations, so reached by name; a core without it would send joins unsettled.
    throw new Error("SightlinePlugin needs a room clock and Room.sendFullState (@colyseus/core 0.18) to settle views before every send; this @colyseus/core lacks one");
  }
  if (clock !== undefined) {
    const tick = clock.tick;
    clock.tick = function (this: typeof clock) {
      tick.call(this);
      if (patching) moments.beforeSend();
    };
  }
  if (typeof sendFullState === "function") {
    internals.sendFullState = function (this: Room, client: Client) {
      moments.beforeSend();
      return sendFullState.call(this, client);
    };
  }
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
