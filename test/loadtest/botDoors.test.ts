import { describe, expect, it } from "vitest";
import { BotDoors, type DoorsInView } from "../../loadtest/botDoors.js";
import { DoorIndex, type MapDoor } from "../../loadtest/doorIndex.js";
import { DOOR_LOOK_AHEAD } from "../../loadtest/levelPlay.js";

/**
 * Two rooms of 12 x 12 m side by side, the wall between them at x = 12..12.5 with a doorway at y = 4..8
 * that door 30 fills. Bots walk along y = 6 from the west room to the east one.
 */
const DOOR = { id: 30, name: "", layer: "doors", outline: [{ x: 12, y: 4 }, { x: 12.5, y: 4 }, { x: 12.5, y: 8 }, { x: 12, y: 8 }] };
const EAST = [{ x: 18, y: 6 }];

function doorsOf(options: { open: boolean; decodes: boolean; shuts?: boolean; occupied?: boolean }) {
  const index = new DoorIndex([{ ...DOOR, open: options.open }], 24, 12, DOOR_LOOK_AHEAD);
  const asked: { door: number; open: boolean }[] = [];
  const doors = new BotDoors(index, options.shuts ?? false, options.decodes, (door, open) => asked.push({ door: door.id, open }), () => options.occupied === true);
  return { doors, asked, door: index.doors[0]! };
}

/** A decoding bot's `state.doors` showing door 30 as `open`. */
const showing = (open: boolean): DoorsInView => ({ get: (key) => (key === "30" ? { open } : undefined) });

describe("a bot at a door", () => {
  it("walks on toward a shut door on its path, asks for it once within reach, and stands until its state shows it open", () => {
    const { doors, asked, door } = doorsOf({ open: false, decodes: true });
    expect(doors.tick(9, 6, EAST, showing(false), 0)).toBeUndefined(); // 3 m off: not yet
    expect(asked).toEqual([]);
    expect(doors.tick(10.9, 6, EAST, showing(false), 100)).toBe(door);
    expect(asked).toEqual([{ door: 30, open: true }]);
    expect(doors.tick(10.9, 6, EAST, showing(false), 600)).toBe(door); // waiting, not asking again
    expect(asked).toHaveLength(1);
    expect(doors.tick(10.9, 6, EAST, showing(false), 1100)).toBe(door); // a second on, it asks again
    expect(asked).toHaveLength(2);
    expect(doors.tick(10.9, 6, EAST, showing(true), 1150)).toBeUndefined();
    expect(doors.isOpen(door)).toBe(true); // and remembers it once out of view
  });

  it("leaves a shut door that is not on its path alone, and gives up on one that stays shut", () => {
    const { doors, asked, door } = doorsOf({ open: false, decodes: true });
    expect(doors.tick(10.9, 6, [{ x: 10.9, y: 1 }], showing(false), 0)).toBeUndefined();
    expect(asked).toEqual([]);
    expect(doors.tick(10.9, 6, EAST, showing(false), 0)).toBe(door);
    expect(doors.tick(10.9, 6, EAST, showing(false), 2900)).toBe(door);
    expect(doors.tick(10.9, 6, EAST, showing(false), 3100)).toBeUndefined(); // walks on: its stuck rule replans
  });

  it("believes the map until it sees the door: it stands only for a door it believes shut", () => {
    const { doors, asked } = doorsOf({ open: true, decodes: true });
    expect(doors.tick(10.9, 6, EAST, undefined, 0)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

describe("a thin bot at a door (it sees no state)", () => {
  it("trusts its own request after a moment, and its reckoning stops at a door it believes shut", () => {
    const { doors, asked, door } = doorsOf({ open: false, decodes: false });
    expect(doors.blocks(11.2, 6, 11.7, 6)).toBe(true);
    expect(doors.blocks(11.7, 6, 11.2, 6)).toBe(false); // stepping back is never blocked
    expect(doors.tick(10.9, 6, EAST, undefined, 0)).toBe(door);
    expect(doors.tick(10.9, 6, EAST, undefined, 200)).toBeUndefined();
    expect(asked).toEqual([{ door: 30, open: true }]);
    expect(doors.isOpen(door)).toBe(true);
    expect(doors.blocks(11.2, 6, 11.7, 6)).toBe(false);
  });

  it("asks for a door it believes open but has not opened lately, without stopping, and not again for a while", () => {
    const { doors, asked } = doorsOf({ open: true, decodes: false });
    expect(doors.tick(10.9, 6, EAST, undefined, 0)).toBeUndefined();
    expect(doors.tick(11.1, 6, EAST, undefined, 1500)).toBeUndefined();
    expect(asked).toEqual([{ door: 30, open: true }]);
    expect(doors.tick(10.9, 6, EAST, undefined, 11_000)).toBeUndefined();
    expect(asked).toHaveLength(2);
  });
});

describe("a bot that shuts doors behind it", () => {
  /** Walks from the west room through the doorway into the east one, 0.15 m a tick; returns where it was at each request. */
  function walkThrough(doors: BotDoors, asked: unknown[], view: DoorsInView | undefined): number[] {
    const askedAtX: number[] = [];
    for (let x = 11, t = 0; x <= 15; x += 0.15, t += 50) {
      const before = asked.length;
      doors.tick(x, 6, EAST, view, t);
      if (asked.length > before) askedAtX.push(x);
    }
    return askedAtX;
  }

  it("shuts it once clear of the doorway (the room will not shut a door on anyone), and only once", () => {
    const { doors, asked } = doorsOf({ open: true, decodes: true, shuts: true });
    const at = walkThrough(doors, asked, showing(true));
    expect(asked).toEqual([{ door: 30, open: false }]);
    // The door's east face is at x = 12.5: clear of it by a body's radius and half a meter.
    expect(at[0]).toBeGreaterThanOrEqual(12.5 + 0.85);
    expect(at[0]).toBeLessThan(12.5 + 1.05);
  });

  it("does not shut it on someone it sees in the doorway", () => {
    const { doors, asked } = doorsOf({ open: true, decodes: true, shuts: true, occupied: true });
    walkThrough(doors, asked, showing(true));
    expect(asked).toEqual([]);
  });

  it("takes a refused shutting as the door still open", () => {
    const { doors, asked, door } = doorsOf({ open: true, decodes: false, shuts: true });
    walkThrough(doors, asked, undefined);
    expect(asked.at(-1)).toEqual({ door: 30, open: false });
    expect(doors.isOpen(door)).toBe(false);
    doors.refused("door: door 30 cannot shut: someone is in the doorway");
    expect(doors.isOpen(door)).toBe(true);
  });
});

describe("the door index", () => {
  it("lists a door only near it", () => {
    const index = new DoorIndex([{ ...DOOR, open: false }], 24, 12, DOOR_LOOK_AHEAD);
    const ids = (x: number, y: number) => index.near(x, y).map((d: MapDoor) => d.id);
    expect(ids(11, 6)).toEqual([30]);
    expect(ids(2, 2)).toEqual([]);
    expect(ids(-5, 50)).toEqual([]); // off the map: the nearest cell
  });
});
