import { schema, t } from "@colyseus/schema";
import { z } from "zod";

/**
 * The player's input frame (Colyseus 0.18 `defineInput`): movement intent only, the server owns
 * positions and speed. `moveX`, `moveY` in the unit disc (screen axes: +x right, +y down), `facing` in
 * radians, `crouch` to sneak. `rejected` is not for clients to set: the sanitizer writes it (see
 * {@link sanitizeMoveFrame}) and the room drops such frames.
 */
export const MoveInput = schema({
  seq: t.uint32().default(0),
  moveX: t.float32().default(0),
  moveY: t.float32().default(0),
  facing: t.float32().default(0),
  crouch: t.boolean().default(false),
  rejected: t.boolean().default(false),
}, "MoveInput");
export type MoveInput = InstanceType<typeof MoveInput>;

/** The fields of an input frame that `applyInput` reads. */
export interface MoveIntent {
  moveX: number;
  moveY: number;
  facing: number;
  crouch: boolean;
}

/**
 * In-place sanitizer for `defineInput({ sanitize })`. Colyseus sanitizers may fix frames but never drop
 * them, and the stock range clamp turns NaN into the range minimum, a valid-looking command. So a frame
 * with any non-finite number is only marked `rejected` (the room skips and counts it); a finite frame
 * gets its move clamped to the unit disc and its facing wrapped into (-PI, PI].
 */
export function sanitizeMoveFrame(frame: MoveIntent & { rejected: boolean }): void {
  if (!Number.isFinite(frame.moveX) || !Number.isFinite(frame.moveY) || !Number.isFinite(frame.facing)) {
    frame.rejected = true;
    return;
  }
  frame.rejected = false;
  const len = Math.hypot(frame.moveX, frame.moveY);
  if (len > 1) {
    frame.moveX /= len;
    frame.moveY /= len;
  }
  if (frame.facing <= -Math.PI || frame.facing > Math.PI) {
    let a = (frame.facing + Math.PI) % (2 * Math.PI);
    if (a <= 0) a += 2 * Math.PI;
    frame.facing = a - Math.PI;
  }
  frame.crouch = frame.crouch === true;
}

/**
 * Client -> server messages besides the input stream. `respawn` restarts the player's run at a spawn
 * (by name, else the next one); `door` and `smoke` below.
 */
export const RespawnMessage = z.object({ spawn: z.string().min(1).max(64).optional() }).strict();
export type RespawnMessage = z.infer<typeof RespawnMessage>;

/**
 * `door`: open (`open: true`) or shut a door, named by its Tiled object id (the key in `state.doors`), from
 * within `DOOR_REACH` of it; a door is not shut on someone in its doorway.
 */
export const DoorMessage = z.object({ door: z.number().int().min(0).max(2 ** 31 - 1), open: z.boolean() }).strict();
export type DoorMessage = z.infer<typeof DoorMessage>;

/** `smoke`: throw a smoke grenade to (x, y), meters, within `SMOKE.throwRange` of the character. */
export const SmokeMessage = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
export type SmokeMessage = z.infer<typeof SmokeMessage>;

/**
 * `distract`: throw a distraction (a stone) to (x, y), meters, within `DISTRACTION.throwRange` of the
 * character: guards that hear the thud go and look there.
 */
export const DistractMessage = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
export type DistractMessage = z.infer<typeof DistractMessage>;

/** Message types the room accepts from clients. Anything else is answered with an `error`. */
export const CLIENT_MESSAGES = Object.freeze(["respawn", "door", "smoke", "distract"] as const);

/** Join options (`client.joinOrCreate("stealth", options)`): the spawn to start at and the team. */
export const JoinOptions = z.object({
  spawn: z.string().min(1).max(64).optional(),
  team: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "team must be 1-32 letters, digits, '_' or '-'").optional(),
});
export type JoinOptions = z.infer<typeof JoinOptions>;

/** Server -> client messages. */
export const SERVER_MESSAGES = Object.freeze({
  /** `{ code: ErrorCode, message: string }`: something the client sent was rejected (and nothing changed). */
  error: "error",
  /** `{ type: "escaped" | "caught", by?: string }`: the player's run ended and it is back at a spawn. */
  round: "round",
  /**
   * The noises the player's team heard in a step, after its patch: an array of `HeardNoiseMessage`
   * (`sightline/colyseus`): how loud, from which way, who heard it; the emitter and its spot only when the
   * player's view holds the emitter. Spectators following everyone get every noise as it was.
   */
  noise: "noise",
  /**
   * Why a guard or camera spotted the player (`ExplanationMessage`, `shared/explanationWire.ts`), after the
   * patch of that step: only while the player's view holds that observer, and only the steps since it has
   * held it. Spectators get every detection's, whole.
   */
  explanation: "explanation",
} as const);

/** Codes carried by the `error` message, one per reason. At most one per code per client per second. */
export const ERROR_CODES = Object.freeze({
  /** An input frame held NaN or Infinity: dropped, the character stops. */
  inputNonFinite: "input.nonfinite",
  /** A message type the room does not handle. */
  messageUnknown: "message.unknown",
  /** A known message whose payload failed validation. */
  messageInvalid: "message.invalid",
  /** A valid request the game refuses (e.g. an unknown spawn name). */
  messageRefused: "message.refused",
} as const);

