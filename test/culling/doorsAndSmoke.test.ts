import { describe, expect, it } from "vitest";
import { Occluders } from "sightline/occluders";
import { seededRandom } from "../../shared/seededRandom.js";
import { culled, SPEED, TICK } from "../fixtures/auditedCulling.js";

/**
 * Two rooms with a wall between them at x = 10..10.5 and a doorway at y = 8..12 that a door fills: what
 * the culling sends while it opens and shuts. The door is wide enough to hide, by itself, a character 5 m
 * behind it from one 5 m before it, both grown by the look-ahead (the culling trusts one piece at a time).
 */
function roomsWithDoor(open = false): { occluders: Occluders; door: number } {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 8);
  occluders.addRectangle(10, 12, 0.5, 8);
  const door = occluders.addDoor([{ x: 10, y: 8 }, { x: 10.5, y: 8 }, { x: 10.5, y: 12 }, { x: 10, y: 12 }], { open });
  return { occluders, door };
}

describe("doors and smoke in the culling", () => {
  it("an enemy behind a shut door is not sent; the update after it opens, it is; after it shuts it leaves once the linger is over", () => {
    const { occluders, door } = roomsWithDoor();
    const { culling, update } = culled(occluders);
    culling.addEntity("me", { x: 5, y: 10, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
    culling.addClient("me", "me");
    update();
    expect(culling.has("me", "enemy")).toBe(false);
    occluders.setOpen(door, true);
    update();
    expect(culling.has("me", "enemy")).toBe(true);
    occluders.setOpen(door, false);
    for (let t = 0; t < culling.lingerTicks; t++) {
      update();
      expect(culling.has("me", "enemy"), `lingering, update ${t + 1} after the door shut`).toBe(true);
    }
    update();
    expect(culling.has("me", "enemy")).toBe(false);
  });

  it("a smoke cloud in the doorway hides the enemy from the client until it thins", () => {
    const { occluders } = roomsWithDoor(true);
    const { culling, update } = culled(occluders);
    culling.addEntity("me", { x: 5, y: 10, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
    culling.addClient("me", "me");
    update();
    expect(culling.has("me", "enemy")).toBe(true);
    occluders.addSmoke(10.25, 10, { radius: 2.5, seconds: 6, growSeconds: 0, fadeSeconds: 2 });
    const held: boolean[] = [];
    for (let t = 0; t < 120; t++) {
      occluders.advance(TICK);
      update();
      held.push(culling.has("me", "enemy"));
    }
    // Hidden once the linger after the cloud appeared is over, until it thins past half density at 5 s
    // (the 100th update, give or take the rounding of 0.05 s steps).
    expect(held.slice(culling.lingerTicks + 1, 98).every((h) => !h)).toBe(true);
    expect(held.slice(101).every((h) => h)).toBe(true);
  });

  it("a door opened between an update and a send: the settle before the send brings what it reveals", () => {
    const { occluders, door } = roomsWithDoor();
    const { culling, update } = culled(occluders);
    culling.addEntity("me", { x: 5, y: 10, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
    culling.addEntity("far", { x: 15, y: 2, radius: 0.4 });
    culling.addClient("me", "me");
    update();
    occluders.setOpen(door, true); // in a message handler, say: the patch may go before the next update
    culling.settle();
    expect(culling.has("me", "enemy")).toBe(true);
    expect(culling.has("me", "far")).toBe(false);
    update();
    expect(culling.has("me", "enemy")).toBe(true);
  });

  it("randomized: doors opening and shutting, clouds thrown, walls breaking, walkers and round trips of 0-120 ms: no leak, no pop-in, no miss, nothing excused for the occluders", () => {
    let audited = 0;
    let toggles = 0;
    let clouds = 0;
    for (const seed of [5, 6, 7]) {
      const random = seededRandom(seed);
      const occluders = new Occluders();
      const solid: { id: number; inside: (x: number, y: number) => boolean }[] = [];
      const doors: number[] = [];
      const block = (x: number, y: number, w: number, h: number, door: boolean) => {
        const outline = [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }];
        const id = door ? occluders.addDoor(outline, { open: random() < 0.5 }) : occluders.addPolygon(outline);
        if (door) doors.push(id);
        solid.push({ id, inside: (px, py) => (!door || !occluders.isOpen(id)) && px >= x && px <= x + w && py >= y && py <= y + h });
      };
      for (let i = 0; i < 30; i++) block(random() * 40, random() * 40, 0.3 + random() * 4, 0.3 + random() * 0.6, false);
      for (let i = 0; i < 20; i++) block(random() * 40, random() * 40, 0.2 + random() * 0.3, 1 + random() * 2, true);
      const inSolid = (x: number, y: number) => solid.some((s) => s.inside(x, y));
      const { culling, update } = culled(occluders);
      const walkers: { id: string; x: number; y: number; vx: number; vy: number }[] = [];
      const teams = ["red", "blue", "green"];
      for (let i = 0; i < 9; i++) {
        const w = { id: `p${i}`, x: random() * 40, y: random() * 40, vx: 0, vy: 0 };
        walkers.push(w);
        culling.addEntity(w.id, { x: w.x, y: w.y, radius: 0.35, team: teams[i % 3], character: true });
        culling.addClient(w.id, w.id);
        const rtt = Math.round(random() * 120);
        culling.setRoundTrip(w.id, rtt, rtt);
      }
      for (let i = 0; i < 20; i++) {
        const w = { id: `g${i}`, x: random() * 40, y: random() * 40, vx: 0, vy: 0 };
        walkers.push(w);
        culling.addEntity(w.id, { x: w.x, y: w.y, radius: 0.35, sightRange: 12 });
      }
      for (let t = 0; t < 400; t++) {
        occluders.advance(TICK);
        for (const w of walkers) {
          if (random() < 0.1) {
            const a = random() * 2 * Math.PI;
            const v = random() < 0.8 ? SPEED * random() : 0;
            w.vx = Math.cos(a) * v;
            w.vy = Math.sin(a) * v;
          }
          const x = Math.min(40, Math.max(0, w.x + w.vx * TICK));
          const y = Math.min(40, Math.max(0, w.y + w.vy * TICK));
          // Bodies do not walk into what is solid, though a door may shut or a cloud appear around one.
          if (!inSolid(x, y) || inSolid(w.x, w.y)) {
            w.x = x;
            w.y = y;
          }
          culling.moveEntity(w.id, w.x, w.y);
        }
        // Eight doors a second on average in a room of twenty, as a busy level might.
        if (random() < 0.4) {
          const door = doors[Math.floor(random() * doors.length)]!;
          occluders.setOpen(door, !occluders.isOpen(door));
          toggles++;
        }
        if (random() < 0.02) {
          occluders.addSmoke(random() * 40, random() * 40, { radius: 1 + random() * 2.5, seconds: 2 + random() * 8, growSeconds: random(), fadeSeconds: random() * 2 });
          clouds++;
        }
        if (random() < 0.01) {
          const walls = solid.filter((s) => !doors.includes(s.id));
          if (walls.length > 0) {
            const broken = walls[Math.floor(random() * walls.length)]!;
            occluders.remove(broken.id);
            solid.splice(solid.indexOf(broken), 1);
          }
        }
        update();
      }
      const counts = culling.audit!.counts;
      audited += counts.clientTicks - counts.excused;
    }
    expect(audited).toBeGreaterThan(9000);
    expect(toggles).toBeGreaterThan(400);
    expect(clouds).toBeGreaterThan(15);
  });
});
