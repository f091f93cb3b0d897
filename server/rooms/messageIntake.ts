import type { Client, Room } from "@colyseus/core";
import { CLIENT_MESSAGES, DistractMessage, DoorMessage, ERROR_CODES, RespawnMessage, SmokeMessage } from "../../shared/protocol.js";
import { SPECTATOR_MESSAGES } from "../../shared/spectatorProtocol.js";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { FrameHygiene } from "./frameHygiene.js";
import { describeIssues } from "../../shared/validation/describeIssues.js";
import { describeValue } from "../../shared/validation/rangeChecks.js";
import type { RoomStats } from "../ops/roomStats.js";
import type { Spectators } from "./spectators.js";

/**
 * The stealth room's client messages besides the input stream: `respawn`, `door`, `smoke`, `distract`, the
 * spectators' `watch`, and everything else, which is answered with an `error` naming what the room
 * accepts. Each payload is validated before use; a bad one is counted and answered, never thrown. A door
 * or a grenade the game refuses (out of reach, none left) is answered with `message.refused` and why.
 */
export function registerMessages(room: Room, sim: StealthSimulation, spectators: Spectators, hygiene: FrameHygiene, stats: RoomStats): void {
  room.onMessage("respawn", (client: Client, payload: unknown) => {
    const parsed = RespawnMessage.safeParse(payload ?? {});
    if (!parsed.success) {
      stats.messagesInvalid++;
      hygiene.sendError(client, ERROR_CODES.messageInvalid, `respawn: ${describeIssues(parsed.error, "payload")}`);
      return;
    }
    try {
      sim.respawn(client.sessionId, parsed.data.spawn);
    } catch (err) {
      hygiene.sendError(client, ERROR_CODES.messageRefused, `respawn: ${(err as Error).message}`);
    }
  });
  room.onMessage("door", (client: Client, payload: unknown) => {
    const parsed = DoorMessage.safeParse(payload);
    if (!parsed.success) {
      stats.messagesInvalid++;
      hygiene.sendError(client, ERROR_CODES.messageInvalid, `door: ${describeIssues(parsed.error, "payload")}`);
      return;
    }
    try {
      sim.requestDoor(client.sessionId, parsed.data.door, parsed.data.open);
    } catch (err) {
      hygiene.sendError(client, ERROR_CODES.messageRefused, `door: ${(err as Error).message}`);
    }
  });
  // Throws: both land at the next step, or are refused with why (none left, too far, off the map).
  for (const [type, schema, act] of [
    ["smoke", SmokeMessage, (id: string, x: number, y: number) => sim.throwSmoke(id, x, y)],
    ["distract", DistractMessage, (id: string, x: number, y: number) => sim.throwDistraction(id, x, y)],
  ] as const) {
    room.onMessage(type, (client: Client, payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        stats.messagesInvalid++;
        hygiene.sendError(client, ERROR_CODES.messageInvalid, `${type}: ${describeIssues(parsed.error, "payload")}`);
        return;
      }
      try {
        act(client.sessionId, parsed.data.x, parsed.data.y);
      } catch (err) {
        hygiene.sendError(client, ERROR_CODES.messageRefused, `${type}: ${(err as Error).message}`);
      }
    });
  }
  room.onMessage(SPECTATOR_MESSAGES.watch, (client: Client, payload: unknown) => {
    const error = spectators.watch(client.sessionId, payload);
    if (error === undefined) return;
    if (error.code === ERROR_CODES.messageInvalid) stats.messagesInvalid++;
    hygiene.sendError(client, error.code, error.message);
  });
  // What arrives here as `type` is the client's (a message typed "*" puts its payload there), so it is
  // only ever rendered by `describeValue`, which calls none of its methods.
  room.onMessage("*", (client: Client, type: unknown) => {
    stats.messagesUnknown++;
    hygiene.sendError(client, ERROR_CODES.messageUnknown, `message type ${describeValue(type)} is not handled by this room; it accepts: ${CLIENT_MESSAGES.join(", ")} (movement goes through room.input())`);
  });
}
