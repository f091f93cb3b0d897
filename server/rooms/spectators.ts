import type { Client } from "@colyseus/core";
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ERROR_CODES } from "../../shared/protocol.js";
import { RAY_FLOATS, SPECTATOR_MESSAGES, type ReceivedEntities } from "../../shared/spectatorProtocol.js";
import type { StealthState } from "../../shared/schema.js";
import { describeIssues } from "../../shared/validation/describeIssues.js";
import type { ViewMembership } from "./stateMirror.js";
import type { RayLog } from "sightline";

/** Shortest spectator token accepted, characters: a spectator sees everything, so it must not be guessable. */
export const MIN_SPECTATOR_TOKEN = 16;
/** After a wrong token, milliseconds during which the room refuses every spectator join (guessing is slowed to one a second). */
export const WRONG_TOKEN_LOCKOUT_MS = 1000;

/** Payload of the spectator's `watch` message. */
const WatchMessage = z.object({ player: z.string().max(64) }).strict();

/** Whether a join asks to spectate: it carries the `spectate` option, whatever its value. */
export function asksToSpectate(options: unknown): options is { spectate: unknown } {
  return typeof options === "object" && options !== null && "spectate" in options;
}

interface Spectator {
  readonly client: Client;
  /** Session id of the player whose received entities it follows ("" = nobody). */
  watched: string;
  /** The ids last reported for `watched`, joined, to send only changes. */
  lastReceived: string;
}

/**
 * The spectators of one room: clients with no character, seen by the culling plugin as casters (every
 * entity and every player's owner-only fields: meters, events), that receive the sight rays of each tick
 * and, for a player they choose, which entities that player's client has in its view.
 *
 * They stay out of everything players take part in: no seat, no input, no culling view, no round trip in
 * the look-ahead. What they receive goes to them alone (`client.send`, never a broadcast).
 */
export class Spectators {
  private readonly spectators = new Map<string, Spectator>();
  private readonly tokenDigest: Buffer | undefined;
  /** Ray floats of the tick being sent, grown as needed and reused. */
  private rayFloats = new Float32Array(RAY_FLOATS * 256);
  private readonly ids: string[] = [];

  /** Room clock time (ms) until which spectator joins are refused after a wrong token. */
  private lockedUntil = -Infinity;

  /**
   * @param token the spectator token; undefined or "" turns spectating off. Shorter than
   * {@link MIN_SPECTATOR_TOKEN} characters throws a RangeError.
   */
  constructor(token: string | undefined) {
    if (token !== undefined && token !== "" && token.length < MIN_SPECTATOR_TOKEN) {
      // The token is a secret: the message gives its length, never the token.
      throw new RangeError(`StealthRoomSettings.spectatorToken must be at least ${MIN_SPECTATOR_TOKEN} characters: a spectator sees everything (got ${token.length} characters)`);
    }
    this.tokenDigest = token === undefined || token === "" ? undefined : digest(token);
  }

  /** Whether spectating is on (a token was set). */
  get enabled(): boolean {
    return this.tokenDigest !== undefined;
  }

  /** Spectators in the room now. */
  get count(): number {
    return this.spectators.size;
  }

  /** Whether `sessionId` is a spectator (not a player). */
  has(sessionId: string): boolean {
    return this.spectators.has(sessionId);
  }

  /**
   * Why a join offering `token` may not spectate, or undefined when it may. `now` is the room clock (ms):
   * a wrong token refuses every spectator join for {@link WRONG_TOKEN_LOCKOUT_MS}, right one included.
   */
  refusal(token: unknown, now: number): string | undefined {
    if (this.tokenDigest === undefined) return "spectator mode is off on this server (start it with SPECTATOR_TOKEN set, or the room setting spectatorToken)";
    if (typeof token !== "string" || token === "") return `join option "spectate" must be the spectator token, a non-empty string`;
    if (now < this.lockedUntil) return "a wrong spectator token was offered less than a second ago; try again later";
    // Digests have one length, so the comparison takes the same time whatever the guess.
    if (!timingSafeEqual(digest(token), this.tokenDigest)) {
      this.lockedUntil = now + WRONG_TOKEN_LOCKOUT_MS;
      return "wrong spectator token";
    }
    return undefined;
  }

  /** Seats a spectator, after {@link refusal} said yes and its view was made (the plugin's `spectateAll`). */
  add(client: Client): void {
    this.spectators.set(client.sessionId, { client, watched: "", lastReceived: "" });
  }

  /** Returns whether `sessionId` was a spectator. */
  remove(sessionId: string): boolean {
    return this.spectators.delete(sessionId);
  }

  /**
   * A `watch` message: from now on the spectator gets `received` for that player. Returns the error to
   * answer when the sender is not a spectator or the payload is bad; nothing changes then.
   */
  watch(sessionId: string, payload: unknown): { code: string; message: string } | undefined {
    const s = this.spectators.get(sessionId);
    if (s === undefined) return { code: ERROR_CODES.messageRefused, message: "watch: only spectators may watch a player" };
    const parsed = WatchMessage.safeParse(payload);
    if (!parsed.success) return { code: ERROR_CODES.messageInvalid, message: `watch: ${describeIssues(parsed.error, "payload")}` };
    s.watched = parsed.data.player;
    s.lastReceived = "\u0000"; // never a real list: the next tick reports it
    return undefined;
  }

  /** Sends a message to every spectator (after the next patch). */
  sendAll(type: string, payload: unknown): void {
    for (const s of this.spectators.values()) s.client.send(type, payload, { afterNextPatch: true });
  }

  /**
   * After a tick: the rays cast this tick to every spectator, and to each one watching a player, that
   * player's received entities if they changed (`views`: the room's culling).
   */
  afterTick(rays: RayLog | null, state: StealthState, views: ViewMembership): void {
    if (this.spectators.size === 0) return;
    const bytes = this.packRays(rays);
    for (const s of this.spectators.values()) {
      s.client.sendBytes(SPECTATOR_MESSAGES.rays, bytes);
      if (s.watched !== "") this.reportReceived(s, state, views);
    }
  }

  private packRays(rays: RayLog | null): Uint8Array {
    const count = rays?.count ?? 0;
    if (count * RAY_FLOATS > this.rayFloats.length) this.rayFloats = new Float32Array(count * RAY_FLOATS * 2);
    const f = this.rayFloats;
    for (let i = 0, j = 0; i < count; i++) for (let k = 0; k < RAY_FLOATS; k++) f[j++] = rays!.at(i, k);
    return new Uint8Array(f.buffer, 0, count * RAY_FLOATS * 4);
  }

  private reportReceived(s: Spectator, state: StealthState, views: ViewMembership): void {
    const player = s.watched;
    const ids = this.ids;
    ids.length = 0;
    // A player that left (or never was) received nothing: the list is empty rather than an error.
    if (state.players.has(player)) {
      const keep = (_: unknown, id: string) => {
        if (views.has(player, id)) ids.push(id);
      };
      state.players.forEach(keep);
      state.guards.forEach(keep);
      state.cameras.forEach(keep);
    }
    const joined = ids.join("\n");
    if (joined === s.lastReceived) return;
    s.lastReceived = joined;
    const message: ReceivedEntities = { player, ids: [...ids] };
    s.client.send(SPECTATOR_MESSAGES.received, message);
  }
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
