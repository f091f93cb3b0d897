import { Rewind } from "@colyseus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Pose } from "sightline";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { arenaMap } from "../fixtures/arenaMap.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { ticks } from "../fixtures/roomTicks.js";

/**
 * The fairness mode judges a sighting from where the player's screen showed the guard, rewound through
 * the room's pose history. A screen shows what the patches delivered, each at the server time its frame
 * carried, and interpolates between them; so between two patches the history must give the point between
 * the two poses they carried, and reach back as far as the rewind cap.
 */

const GUARD = "guard:Watcher";
let colyseus: LoopbackServer;

beforeAll(async () => {
  colyseus = await bootLoopback(createStealthServer({ room: { catalog: new MapCatalog().add(arenaMap({ patrol: true })) } }));
});
afterAll(async () => {
  await colyseus.shutdown();
});

describe("the fairness mode's pose history", () => {
  it("a patrolling guard is rewound to what the patches showed: between two of them, the point between their poses, and back to the cap", async () => {
    const room = await colyseus.createRoom<StealthRoom>("stealth", { map: "arena" });
    await colyseus.connectTo(room, { spawn: "far" });
    const rewind = Rewind.get(room);
    const guard = room.state.guards.get(GUARD)!;
    // Each patch the room sent: the server time its frames carried (the clock as the patch read it, the
    // time the rewind records at) and where it put the guard.
    const sent: { t: number; x: number; y: number }[] = [];
    const broadcastPatch = room.broadcastPatch.bind(room);
    room.broadcastPatch = () => {
      const changed = broadcastPatch();
      if (rewind.lastRecordedAt === room.clock.elapsedTime && sent.at(-1)?.t !== room.clock.elapsedTime) sent.push({ t: room.clock.elapsedTime, x: guard.x, y: guard.y });
      return changed;
    };
    // Until the guard has walked through the last 8 patches (it stops to turn at each end of its route).
    const stepOf = (i: number) => Math.hypot(sent[i]!.x - sent[i - 1]!.x, sent[i]!.y - sent[i - 1]!.y);
    const walking = () => sent.length >= 10 && [1, 2, 3, 4, 5, 6, 7, 8].every((k) => stepOf(sent.length - k) >= 0.01);
    for (let i = 0; i < 200 && !walking(); i++) await ticks(room, 1);
    expect(walking(), "the guard walks its route").toBe(true);
    const poses = room.plugins.sightline.shownPoses;
    const out: Pose = { x: 0, y: 0, facing: 0 };
    const last = sent.at(-1)!;
    /** Where an interpolating screen showed the guard at server time `t`. */
    const shown = (t: number) => {
      const i = sent.findIndex((p) => p.t >= t);
      const b = sent[i]!;
      const a = sent[i - 1]!;
      const f = (t - a.t) / (b.t - a.t);
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    };
    for (let i = sent.length - 8; i < sent.length; i++) {
      const a = sent[i - 1]!;
      const b = sent[i]!;
      const t = (a.t + b.t) / 2;
      expect(poses.poseAt(GUARD, t, out)).toBe(true);
      const want = shown(t);
      expect(Math.hypot(out.x - want.x, out.y - want.y), `between the patches at ${a.t} and ${b.t} ms`).toBeLessThan(1e-3);
    }
    // The rewind cap (350 ms by default) back from the last patch: still inside the history.
    const back = last.t - 340;
    expect(poses.poseAt(GUARD, back, out)).toBe(true);
    const want = shown(back);
    expect(Math.hypot(out.x - want.x, out.y - want.y), "340 ms back").toBeLessThan(1e-3);
  });
});
