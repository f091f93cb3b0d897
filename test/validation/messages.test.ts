import { World } from "planck";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AwarenessModel, VisionSystem } from "sightline";
import { ViewCulling } from "sightline/culling";
import { SightlinePlugin } from "sightline/colyseus";
import { computeFov, OpacityGrid, TileVision } from "sightline/fov";
import { convexPieces, Occluders } from "sightline/occluders";
import { describeIssues } from "../../shared/validation/describeIssues.js";
import { describeValue, fail, MAX_VALUE_CHARS } from "../../shared/validation/rangeChecks.js";

/**
 * Every refusal of bad input reads `<Owner>.<field> must be <rule> (got <value>)`, whichever check made
 * it; these scenarios reach each check through the entry points a user imports.
 */

/** The message `run` throws, which must be a RangeError. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RangeError);
    return (err as Error).message;
  }
  throw new Error("expected a RangeError, nothing was thrown");
}

const guard = { position: { x: 0, y: 0 }, facing: 0, range: 10, fov: 1 };

describe("one message style for bad input", () => {
  it("a negative range is refused naming ObserverSpec.range, its rule and the value", () => {
    const vision = new VisionSystem(new World());
    expect(refusal(() => vision.addObserver("g", { ...guard, range: -1 }))).toBe("ObserverSpec.range must be a number >= 0 of meters (Infinity allowed) (got -1)");
  });

  it("a ray budget of zero is refused naming VisionOptions.raysPerTick (an open lower end)", () => {
    expect(refusal(() => new VisionSystem(new World(), { raysPerTick: 0 }))).toBe("VisionOptions.raysPerTick must be a number > 0 of rays (Infinity allowed) (got 0)");
  });

  it("options that are not an object are refused by their type's name", () => {
    expect(refusal(() => new VisionSystem(new World(), null as never))).toBe("VisionOptions must be an object (got null)");
    expect(refusal(() => new AwarenessModel([] as never))).toBe("AwarenessOptions must be an object (got an array (0 items))");
  });

  it("a NaN coordinate is refused as not finite, naming the method and the argument", () => {
    const occluders = new Occluders();
    expect(refusal(() => occluders.addCircle(Number.NaN, 0, 1))).toBe("Occluders.addCircle x must be a finite number (got NaN)");
  });

  it("a fraction outside [0, 1] is refused naming AwarenessOptions's field", () => {
    expect(refusal(() => new AwarenessModel({ peripherySlowdown: 1.5 }))).toBe("AwarenessOptions.peripherySlowdown must be a fraction in [0, 1] (got 1.5)");
    expect(refusal(() => new AwarenessModel({ suspiciousAt: 1 }))).toBe("AwarenessOptions.suspiciousAt must be a fraction in (0, 1) (got 1)");
  });

  it("a fractional or oversized integer is refused with its interval", () => {
    expect(refusal(() => new VisionSystem(new World(), { opaqueMask: 1.5 }))).toBe("VisionOptions.opaqueMask must be an integer in [0, 65535] (got 1.5)");
    expect(refusal(() => new OpacityGrid(0, 4))).toBe("OpacityGrid width must be an integer >= 1 of tiles (got 0)");
  });

  it("an empty id is refused as a non-empty string, the string shown as JSON", () => {
    const vision = new VisionSystem(new World());
    expect(refusal(() => vision.addObserver("", guard))).toBe('VisionSystem.addObserver id must be a non-empty string (got "")');
  });

  it("a callback that is not a function is refused with the call it must take", () => {
    expect(refusal(() => computeFov(new OpacityGrid(3, 3), 1, 1, 2, "reveal" as never))).toBe('computeFov reveal must be a function (x, y) => void (got "reveal")');
    expect(refusal(() => new AwarenessModel({ onEvent: 3 as never }))).toBe("AwarenessOptions.onEvent must be a function (event) => void (got 3)");
  });

  it("a value outside a fixed set is refused listing the choices", () => {
    expect(refusal(() => new SightlinePlugin({ update: "sometimes" as never }))).toBe('SightlineOptions.update must be "beforePatch" or "manual" (got "sometimes")');
  });

  it("a seconds option with an open lower end names its unit and its interval", () => {
    const occluders = new Occluders();
    expect(refusal(() => new ViewCulling({ occluders, tickSeconds: 0, maxSpeed: 1 }))).toBe("ViewCullingOptions.tickSeconds must be a number of seconds in (0, 1] (got 0)");
    expect(refusal(() => new TileVision(new OpacityGrid(3, 3), { radius: -2 }))).toBe("TileVisionOptions.radius must be a number >= 0 of tiles (Infinity allowed) (got -2)");
  });

  it("geometry that no rule fits keeps its words after the owner's prefix", () => {
    const flat = [{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }];
    expect(refusal(() => convexPieces(flat))).toBe("convexPieces outline: the polygon has no area (its points are collinear)");
    expect(refusal(() => new Occluders().addPolygon(flat))).toBe("Occluders.addPolygon points: the polygon has no area (its points are collinear)");
    expect(refusal(() => convexPieces([{ x: 0, y: 0 }, { x: 1, y: Number.NaN }, { x: 0, y: 1 }]))).toBe("convexPieces outline[1].y must be a finite number of meters (got NaN)");
  });
});

describe("describeValue: one description of what was passed", () => {
  it.each([
    [0, "0"],
    [Number.NaN, "NaN"],
    [-Infinity, "-Infinity"],
    [true, "true"],
    [undefined, "undefined"],
    [null, "null"],
    ["door", '"door"'],
    [[1, 2, 3], "an array (3 items)"],
    [{ toString: 0 }, "an object"],
    [() => 1, "a function"],
    [12n, "12n"],
  ] as const)("%s reads as %s", (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it("never renders more than MAX_VALUE_CHARS characters, however long the string", () => {
    const text = describeValue("x".repeat(10_000));
    expect(text.length).toBe(MAX_VALUE_CHARS);
    expect(text.startsWith('"xxx')).toBe(true);
    expect(text.endsWith("…")).toBe(true);
  });

  it("fail puts the field, the rule and the described value in that order", () => {
    expect(() => fail("Thing.size", "must be small", [1])).toThrow(new RangeError("Thing.size must be small (got an array (1 items))"));
  });
});

describe("describeIssues: one line per zod failure", () => {
  const Join = z.object({ team: z.string().max(4), spawn: z.string().optional() }).strict();

  it("names each failing field by its path, joined with '; '", () => {
    const parsed = Join.safeParse({ team: "infiltrators", spawn: 3 });
    expect(parsed.success).toBe(false);
    const line = describeIssues(parsed.error!, "options");
    expect(line).toMatch(/^team: .+; spawn: .+$/);
    expect(line).not.toContain("\n");
  });

  it("names the whole value when an issue has no path", () => {
    const parsed = Join.safeParse("not an object");
    expect(describeIssues(parsed.error!, "payload")).toMatch(/^payload: /);
  });
});
