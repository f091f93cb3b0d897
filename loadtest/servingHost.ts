import type { Room } from "@colyseus/sdk";

/**
 * The `host:port` whose socket a joined room runs on. The matchmaker hands the client the public address
 * of the process that hosts the room, so a host other than the endpoint asked means the join crossed
 * processes. Falls back to the endpoint when the transport does not say (one process then).
 */
export function servingHost(room: Room, endpoint: string): string {
  const socketUrl = (room.connection as unknown as { transport?: { ws?: { url?: string } } }).transport?.ws?.url ?? endpoint;
  return new URL(socketUrl).host;
}

/** Whether a room joined through `endpoint` is hosted by the process behind it. */
export function servedLocally(room: Room, endpoint: string): boolean {
  return servingHost(room, endpoint) === new URL(endpoint).host;
}
