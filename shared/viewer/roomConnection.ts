/// <reference lib="dom" />
import { Client, type Room } from "@colyseus/sdk";
import type { StealthState } from "../schema.js";

/** How the page joins, from its URL: `?spectate=TOKEN`, or `?spawn=A&team=red&map=demo` for a player. */
export interface JoinRequest {
  /** The spectator token; null to play. */
  spectate: string | null;
  options: Record<string, string>;
}

export function joinRequestFrom(search: string): JoinRequest {
  const params = new URLSearchParams(search);
  const spectate = params.get("spectate");
  const options: Record<string, string> = {};
  if (spectate !== null) options.spectate = spectate;
  else for (const key of ["spawn", "team"]) {
    const value = params.get(key);
    if (value !== null && value !== "") options[key] = value;
  }
  // Only matters when this join creates the room.
  const map = params.get("map");
  if (map !== null && map !== "") options.map = map;
  return { spectate, options };
}

/**
 * Joins (or creates) the `stealth` room of the server that served the page. A refused join rejects with
 * the server's reason (a wrong spectator token, say). Register message handlers before awaiting
 * {@link firstState}: messages may come first.
 */
export function joinStealthRoom(request: JoinRequest): Promise<Room<any, StealthState>> {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new Client(`${scheme}://${location.host}`).joinOrCreate<StealthState>("stealth", request.options);
}

/** Resolves once the room's state has been received (the map name, the entities in view). */
export function firstState(room: Room<any, StealthState>): Promise<void> {
  return new Promise((resolve) => room.onStateChange.once(() => resolve()));
}
