import type { CameraPlacement } from "./tiledMap.js";

/**
 * Where a security camera looks at `time` seconds: it pans sinusoidally `sweep` radians either side of
 * its resting `facing`, one full pan and back every `period` seconds, so it slows and dwells at each end
 * as a motorised camera does. At time 0 it looks at `facing`, moving toward `facing + sweep`.
 */
export function cameraFacing(camera: Pick<CameraPlacement, "facing" | "sweep" | "period">, time: number): number {
  if (camera.sweep === 0) return camera.facing;
  return camera.facing + camera.sweep * Math.sin((2 * Math.PI * time) / camera.period);
}
