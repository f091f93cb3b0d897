import { schema, t } from "@colyseus/schema";

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
