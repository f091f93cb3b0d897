import { describe, expect, it } from "vitest";
import { encoded } from "sightline/testing";
import { fieldServer, untilPatch } from "../fixtures/fieldServer.js";
import { FieldRoom, type FieldOptions, type TeleportMoment } from "../fixtures/fieldRoom.js";

// A respawn behind the wall must never reach a client that cannot see there, whenever it is made: in a
// message handler, a room clock timer, a native timer, a join, or in the step after the views' update;
// with views updated by hand or before each patch; with Colyseus's timestep or a native loop (then the
// room clock ticks inside each patch, after the plugin's hook). Checked on the raw frames real SDK clients
// received, with the position's own float32 bytes.

const server = fieldServer();

const RESPAWNS = 3;
const cases: [FieldOptions["update"], FieldOptions["loop"], TeleportMoment][] = [];
for (const update of ["manual", "beforePatch"] as const) {
  for (const loop of ["timestep", "native"] as const) {
    for (const at of ["handler", "clock", "native", "join", "afterUpdate"] as const) cases.push([update, loop, at]);
  }
}

describe("a teleport never reaches a client that cannot see its new spot, whenever it is made", () => {
  it.each(cases)("update %s, %s loop, teleport made in a %s", async (update, loop, at) => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { update, loop, audit: true });
    // The watcher (west) and a blue client (east, the positive control: it sees the hidden spots).
    const watcher = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    room.addUnit("runner", 6, 20, "neutral", false);
    const units = (watcher.state as any).units;
    expect(await untilPatch(room, () => units.has("runner"))).toBe(true);

    const hidden: { x: number; y: number }[] = [];
    const teleport = async (x: number, y: number) => {
      await room.nextStep();
      if (at === "join") await server.colyseus.connectTo(room, { team: "green", x: 2, y: 38, teleport: { id: "runner", x, y } });
      else watcher.send("teleport", { id: "runner", x, y, at });
    };
    for (let k = 0; k < RESPAWNS; k++) {
      const spot = { x: 20.371 + 1.113 * k, y: 14.173 + 0.719 * k };
      hidden.push(spot);
      await teleport(spot.x, spot.y);
      // Gone from the watcher's state, and seen where it is by the east.
      expect(await untilPatch(room, () => !units.has("runner") && (blue.state as any).units.get("runner")?.x === Math.fround(spot.x))).toBe(true);
      const back = { x: 6.25 + 0.5 * k, y: 20 };
      await teleport(back.x, back.y);
      expect(await untilPatch(room, () => units.get("runner")?.x === Math.fround(back.x))).toBe(true);
    }
    await room.waitForNextPatch();

    for (const [i, spot] of hidden.entries()) {
      server.frames.assertNeverReceived(watcher, encoded(spot.x, "float32"), `hidden spot ${i}'s x`);
      server.frames.assertNeverReceived(watcher, encoded(spot.y, "float32"), `hidden spot ${i}'s y`);
      server.frames.assertReceived(blue, encoded(spot.x, "float32"), `hidden spot ${i}'s x, seen from the east`);
    }
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(room.exceptions).toEqual([]);
  });
});
