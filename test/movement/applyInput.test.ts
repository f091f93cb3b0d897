import fc from "fast-check";
import { Decoder, Encoder } from "@colyseus/schema";
import { describe, expect, it } from "vitest";
import { applyInput, DEFAULT_MOVEMENT_RULES, type Motion } from "../../shared/movement/applyInput.js";
import { MoveInput, sanitizeMoveFrame } from "../../shared/protocol.js";
import { cameraFacing } from "../../server/sim/cameraSweep.js";

const motion = (): Motion => ({ vx: 7, vy: 7, facing: 7, crouch: true });

describe("applyInput: the one movement rule the server and a predicting client share", () => {
  it("walks at walking speed, sneaks at crouching speed, and faces where it is told", () => {
    const out = motion();
    expect(applyInput({ moveX: 1, moveY: 0, facing: 0.5, crouch: false }, out)).toBe(true);
    expect(out).toEqual({ vx: DEFAULT_MOVEMENT_RULES.walkSpeed, vy: 0, facing: 0.5, crouch: false });
    applyInput({ moveX: 0, moveY: -1, facing: 4, crouch: true }, out);
    expect(out.vx).toBeCloseTo(0, 12);
    expect(out.vy).toBeCloseTo(-DEFAULT_MOVEMENT_RULES.crouchSpeed, 12);
    expect(out.facing).toBeCloseTo(4 - 2 * Math.PI, 12);
    expect(out.crouch).toBe(true);
  });

  it("never exceeds the stance's speed, whatever a client sends (diagonals and huge values are clamped)", () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), (mx, my, crouch) => {
      const out = motion();
      expect(applyInput({ moveX: mx, moveY: my, facing: 0, crouch }, out)).toBe(true);
      const speed = Math.hypot(out.vx, out.vy);
      const limit = crouch ? DEFAULT_MOVEMENT_RULES.crouchSpeed : DEFAULT_MOVEMENT_RULES.walkSpeed;
      expect(speed).toBeLessThanOrEqual(limit * (1 + 1e-12));
      expect(Number.isFinite(out.vx) && Number.isFinite(out.vy)).toBe(true);
    }), { numRuns: 2000 });
  });

  it.each([
    ["NaN move", { moveX: NaN, moveY: 0, facing: 0, crouch: false }],
    ["infinite move", { moveX: 0, moveY: -Infinity, facing: 0, crouch: false }],
    ["NaN facing", { moveX: 1, moveY: 0, facing: NaN, crouch: false }],
  ])("a frame with a %s is refused and changes nothing", (_label, frame) => {
    const out = motion();
    expect(applyInput(frame, out)).toBe(false);
    expect(out).toEqual(motion());
  });
});

describe("sanitizeMoveFrame: NaN must not become a valid-looking command", () => {
  it("a NaN survives the wire, and the sanitizer marks that frame rejected instead of clamping it to a command", () => {
    // Encode a frame as a client would, with NaN in it, and decode it as the server does.
    const sent = new MoveInput();
    sent.moveX = NaN;
    sent.moveY = 0.5;
    const received = new MoveInput();
    new Decoder(received).decode(new Encoder(sent).encodeAll());
    expect(Number.isNaN(received.moveX)).toBe(true);
    sanitizeMoveFrame(received);
    expect(received.rejected).toBe(true);
  });

  it("a finite frame is clamped to the unit disc, its facing wrapped, and a client's own 'rejected' flag ignored", () => {
    const f = { moveX: 30, moveY: 40, facing: 3 * Math.PI, crouch: true, rejected: true };
    sanitizeMoveFrame(f);
    expect(f.rejected).toBe(false);
    expect(f.moveX).toBeCloseTo(0.6, 12);
    expect(f.moveY).toBeCloseTo(0.8, 12);
    expect(f.facing).toBeCloseTo(Math.PI, 12);
    const g = { moveX: 0.1, moveY: 0.2, facing: -1, crouch: false, rejected: false };
    sanitizeMoveFrame(g);
    expect(g).toEqual({ moveX: 0.1, moveY: 0.2, facing: -1, crouch: false, rejected: false });
  });
});

describe("cameras sweep", () => {
  const cam = { facing: 1, sweep: 0.5, period: 8 };
  it("pans `sweep` either side of its facing, once there and back per period", () => {
    expect(cameraFacing(cam, 0)).toBeCloseTo(1, 12);
    expect(cameraFacing(cam, 2)).toBeCloseTo(1.5, 12);
    expect(cameraFacing(cam, 4)).toBeCloseTo(1, 12);
    expect(cameraFacing(cam, 6)).toBeCloseTo(0.5, 12);
    expect(cameraFacing(cam, 13)).toBeCloseTo(cameraFacing(cam, 5), 12);
    for (let t = 0; t < 16; t += 0.05) expect(Math.abs(cameraFacing(cam, t) - 1)).toBeLessThanOrEqual(0.5 + 1e-12);
    expect(cameraFacing({ facing: 2, sweep: 0, period: 5 }, 3)).toBe(2);
  });
});
