import { describe, expect, it } from "vitest";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import { seededRandom } from "../../shared/seededRandom.js";
import { culled, SPEED, TICK } from "../fixtures/auditedCulling.js";

/** Two rooms side by side: a wall at x = 10..10.5 from y = 0 to y = 20 with a doorway at y = 9..11. */
function twoRooms(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 9);
  occluders.addRectangle(10, 11, 0.5, 9);
  return occluders;
}

describe("culling in your own game", () => {
  it("player behind a wall does not receive the enemy; a player in the open does", () => {
    const { culling, update } = culled(twoRooms());
    culling.addEntity("hidden", { x: 5, y: 2, radius: 0.4, team: "red", character: true });
    culling.addEntity("open", { x: 5, y: 10, radius: 0.4, team: "green", character: true });
    culling.addEntity("enemy", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
    culling.addClient("hidden", "hidden");
    culling.addClient("open", "open");
    update();
    expect(culling.has("hidden", "hidden")).toBe(true);
    expect(culling.has("hidden", "enemy")).toBe(false);
    // Through the doorway, from the open player's spot, the enemy is in sight: sent, both ways.
    expect(culling.has("open", "enemy")).toBe(true);
    expect(culling.has("hidden", "open")).toBe(true);
  });

  it("teammates are always in view and share what they see", () => {
    const { culling, update } = culled(twoRooms());
    culling.addEntity("hidden", { x: 5, y: 2, radius: 0.4, team: "red", character: true });
    culling.addEntity("mate", { x: 14, y: 18, radius: 0.4, team: "red", character: true });
    culling.addEntity("turret", { x: 1, y: 19, radius: 0.5, team: "red" }); // on the team, but no eye
    culling.addEntity("enemy", { x: 15, y: 2, radius: 0.4, team: "blue", character: true });
    culling.addClient("hidden", "hidden");
    // Its own character and everything on its team arrive at once, before any update.
    expect(culling.viewOf("hidden").sort()).toEqual(["hidden", "mate", "turret"]);
    update();
    // The teammate across the wall sees the enemy, so the hidden player's view holds it too.
    expect(culling.has("hidden", "enemy")).toBe(true);
  });

  it("a wall added after the culling was built hides the enemy at the next update, after its linger", () => {
    const occluders = new Occluders();
    occluders.addRectangle(100, 100, 1, 1); // far away: the set is not empty, and small
    const { culling, update } = culled(occluders, { lingerSeconds: 0 });
    culling.addEntity("watcher", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 8, y: 0, radius: 0.4 });
    culling.addClient("watcher", "watcher");
    update();
    expect(culling.has("watcher", "enemy")).toBe(true);
    // More walls than the set held when the culling was built, all across the line of sight.
    for (let i = 0; i < 4; i++) occluders.addRectangle(3 + i, -3, 0.3, 6);
    update();
    expect(culling.qualifies("watcher", "enemy")).toBe(false);
    expect(culling.has("watcher", "enemy")).toBe(false);
  });

  it("a wall removed at runtime sends what it hid at the next update", () => {
    const occluders = new Occluders();
    const wall = occluders.addRectangle(4, -3, 0.5, 6);
    const { culling, update } = culled(occluders);
    culling.addEntity("watcher", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 8, y: 0, radius: 0.4 });
    culling.addClient("watcher", "watcher");
    update();
    expect(culling.has("watcher", "enemy")).toBe(false);
    occluders.remove(wall);
    update();
    expect(culling.has("watcher", "enemy")).toBe(true);
  });

  it("an entity that walks behind a wall lingers; one put behind it (a respawn) leaves at once", () => {
    const { culling, update } = culled(twoRooms(), { lingerSeconds: 0.25 });
    culling.addEntity("watcher", { x: 5, y: 5, radius: 0.4, team: "red", character: true });
    culling.addEntity("walker", { x: 9.2, y: 2, radius: 0.3 });
    culling.addEntity("respawned", { x: 7, y: 5, radius: 0.3 });
    culling.addClient("watcher", "watcher");
    update();
    expect(culling.has("watcher", "walker")).toBe(true);
    culling.moveEntity("respawned", 15, 5); // far behind the wall in one update
    let t = 0;
    let walkerLeft = -1;
    let lastQualified = 0;
    for (let x = 9.2; t < 40 && walkerLeft < 0; t++) {
      x += SPEED * TICK * 0.9;
      culling.moveEntity("walker", x, 2);
      update();
      if (t === 0) expect(culling.has("watcher", "respawned")).toBe(false);
      if (culling.qualifies("watcher", "walker")) lastQualified = t;
      if (!culling.has("watcher", "walker")) walkerLeft = t;
    }
    expect(walkerLeft - lastQualified).toBe(culling.lingerTicks + 1);
  });

  it("a character shut inside a wall sees out of it, as sight rays do, and keeps in view what it sees", () => {
    const occluders = new Occluders();
    const { culling, update } = culled(occluders);
    culling.addEntity("watcher", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 6, y: 0, radius: 0.4, team: "blue", character: true });
    culling.addClient("watcher", "watcher");
    culling.addClient("enemy", "enemy");
    update();
    expect(culling.has("watcher", "enemy")).toBe(true);
    expect(culling.has("enemy", "watcher")).toBe(true);
    // A door slides shut over the watcher: a 3 m block it now stands in the middle of.
    occluders.addRectangle(-1.5, -1.5, 3, 3);
    for (let i = 0; i < 10; i++) update();
    expect(culling.has("watcher", "enemy")).toBe(true);
    // From outside, the same block hides the watcher's whole body: the enemy's view lets it go.
    expect(culling.has("enemy", "watcher")).toBe(false);
  });

  it("a respawn a step away leaves at once when declared a teleport, and lingers when walked", () => {
    const { culling, update } = culled(new Occluders(), { lingerSeconds: 0.25 });
    culling.addEntity("watcher", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
    culling.addEntity("walked", { x: 20.7, y: 0, radius: 0.4 });
    culling.addEntity("respawned", { x: 0, y: 20.7, radius: 0.4 });
    culling.addClient("watcher", "watcher");
    culling.setRoundTrip("watcher", 0);
    update();
    // 20.7 m is inside the view's reach, 20 m + 2 x 0.2 m look-ahead + 0.4 m body: both are in view.
    expect(culling.has("watcher", "walked")).toBe(true);
    expect(culling.has("watcher", "respawned")).toBe(true);
    // 0.3 m in one update is within the 0.4 m a teleport needs to be noticed by distance alone.
    culling.moveEntity("walked", 21, 0);
    culling.teleportEntity("respawned", 0, 21);
    update();
    expect(culling.qualifies("watcher", "walked")).toBe(false);
    expect(culling.has("watcher", "walked")).toBe(true);
    expect(culling.has("watcher", "respawned")).toBe(false);
  });

  it("a short respawn breaks the speed bound: the audit reports the pop-in it causes unless it is declared a teleport", () => {
    const popInsAfterJump = (declared: boolean) => {
      const culling = new ViewCulling({ occluders: new Occluders(), tickSeconds: TICK, maxSpeed: SPEED, audit: true });
      culling.addEntity("watcher", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
      culling.addEntity("enemy", { x: 20.9, y: 0, radius: 0.4, team: "blue", character: true });
      culling.addClient("watcher", "watcher");
      // A 10 ms round trip: the client holds the view of one update ago, sent with a 0.22 m look-ahead.
      culling.setRoundTrip("watcher", 10);
      for (let i = 0; i < 5; i++) culling.update();
      expect(culling.has("watcher", "enemy")).toBe(false);
      // The enemy walks one step closer while the watcher is put back 0.39 m towards it (caught near
      // its spawn): 20.31 m apart, in plain sight, and no earlier view could have held the enemy.
      culling.moveEntity("enemy", 20.7, 0);
      if (declared) culling.teleportEntity("watcher", 0.39, 0);
      else culling.moveEntity("watcher", 0.39, 0);
      culling.update();
      expect(culling.has("watcher", "enemy")).toBe(true);
      return culling.audit!.counts.popIns;
    };
    expect(popInsAfterJump(false)).toBe(1);
    expect(popInsAfterJump(true)).toBe(0);
  });

  it("a team change moves the view to the new team at once, with nothing of the old one lingering", () => {
    const { culling, update } = culled(twoRooms(), { lingerSeconds: 1 });
    culling.addEntity("spy", { x: 5, y: 2, radius: 0.4, team: "red", character: true });
    culling.addEntity("old-mate", { x: 5, y: 30, radius: 0.4, team: "red", character: true }); // out of blue's reach
    culling.addEntity("new-mate", { x: 15, y: 2, radius: 0.4, team: "blue", character: true });
    culling.addClient("spy", "spy");
    update();
    expect(culling.has("spy", "old-mate")).toBe(true);
    expect(culling.has("spy", "new-mate")).toBe(false);
    culling.setTeam("spy", "blue");
    update();
    expect(culling.has("spy", "new-mate")).toBe(true);
    expect(culling.has("spy", "old-mate")).toBe(false); // behind the wall from both blue characters
    expect(() => culling.setTeam("spy", undefined)).toThrow(/ViewCulling\.setTeam team is required for a character/);
  });

  it("a client that leaves and comes back, or reconnects, gets its whole view back", () => {
    const { culling, update, mirrors } = culled(twoRooms());
    culling.addEntity("p", { x: 5, y: 10, radius: 0.4, team: "red", character: true });
    culling.addEntity("enemy", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
    culling.addClient("p", "p");
    update();
    const before = culling.viewOf("p").sort();
    expect(before).toEqual(["enemy", "p"]);
    // Leaving calls no listener: the view leaves with the client.
    expect(culling.removeClient("p")).toBe(true);
    expect(culling.viewOf("p")).toEqual([]);
    mirrors.delete("p");
    expect(culling.removeClient("p")).toBe(false);
    culling.addClient("p", "p");
    update();
    expect([...mirrors.get("p")!].sort()).toEqual(before);
    // A reconnection keeps the client: a fresh view for the new connection is what viewOf holds.
    expect(culling.viewOf("p").sort()).toEqual(before);
    expect(() => culling.addClient("p", "p")).toThrow(/ViewCulling\.addClient clientId already has a view/);
  });

  it("removing an entity lets every view go of it at once; a client's own character cannot be removed under it", () => {
    const { culling, update, mirrors } = culled(new Occluders());
    culling.addEntity("a", { x: 0, y: 0, team: "red", character: true });
    culling.addEntity("b", { x: 3, y: 0, team: "blue", character: true });
    culling.addEntity("crate", { x: 1, y: 1 });
    culling.addClient("a", "a");
    culling.addClient("b", "b");
    update();
    expect(mirrors.get("a")!.has("crate")).toBe(true);
    culling.removeEntity("crate");
    expect(mirrors.get("a")!.has("crate")).toBe(false);
    expect(mirrors.get("b")!.has("crate")).toBe(false);
    expect(() => culling.removeEntity("b")).toThrow(/is the character of client "b"/);
    culling.addEntity("b2", { x: 3, y: 1, team: "blue", character: true });
    culling.setCharacter("b", "b2");
    culling.removeEntity("b");
    update();
    expect(culling.has("a", "b")).toBe(false);
    expect(culling.has("b", "b2")).toBe(true);
  });

  it("the culling range rises to the longest observer's range, so a guard that can see a player is in its view", () => {
    const { culling, update } = culled(new Occluders(), { range: 20 });
    culling.addEntity("p", { x: 0, y: 0, radius: 0.4, team: "red", character: true });
    culling.addEntity("sniper", { x: 28, y: 0, radius: 0.4, sightRange: 30 });
    culling.addClient("p", "p");
    expect(culling.range).toBe(30);
    update();
    expect(culling.has("p", "sniper")).toBe(true);
    culling.removeEntity("sniper");
    expect(culling.range).toBe(20);
  });

  it("randomized: walkers, respawns far and near, team changes, walls coming and going, round trips of 0-120 ms: no leak, no pop-in, no miss", () => {
    let audited = 0;
    let churn = 0;
    for (const seed of [3, 4]) {
      const random = seededRandom(seed);
      const occluders = new Occluders();
      // Each wall with its shape: walkers do not walk into walls (they are solid), though a wall may
      // appear around one, and a respawn may put one inside a wall.
      const walls: { id: number; inside: (x: number, y: number) => boolean }[] = [];
      const addWall = () => {
        const x = random() * 40;
        const y = random() * 40;
        if (random() < 0.7) {
          const w = 0.3 + random() * 4;
          const h = 0.3 + random() * 0.8;
          walls.push({ id: occluders.addRectangle(x, y, w, h), inside: (px, py) => px >= x && px <= x + w && py >= y && py <= y + h });
        } else {
          const r = 0.3 + random();
          walls.push({ id: occluders.addCircle(x, y, r), inside: (px, py) => (px - x) ** 2 + (py - y) ** 2 <= r * r });
        }
      };
      const inWall = (x: number, y: number) => walls.some((w) => w.inside(x, y));
      for (let i = 0; i < 40; i++) addWall();
      const { culling, update } = culled(occluders, { audit: true });
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
      for (let t = 0; t < 300; t++) {
        for (const w of walkers) {
          if (random() < 0.1) {
            const a = random() * 2 * Math.PI;
            const v = random() < 0.8 ? SPEED * random() : 0;
            w.vx = Math.cos(a) * v;
            w.vy = Math.sin(a) * v;
          }
          const x = Math.min(40, Math.max(0, w.x + w.vx * TICK));
          const y = Math.min(40, Math.max(0, w.y + w.vy * TICK));
          if (!inWall(x, y) || inWall(w.x, w.y)) {
            w.x = x;
            w.y = y;
          }
          const jump = random();
          if (jump < 0.002) {
            w.x = random() * 40; // a respawn, far enough to be noticed as one
            w.y = random() * 40;
          } else if (jump < 0.006) {
            // A respawn a step or two away (caught near its spawn), declared.
            const a = random() * 2 * Math.PI;
            const k = random();
            w.x = Math.min(40, Math.max(0, w.x + Math.cos(a) * 2 * SPEED * TICK * k));
            w.y = Math.min(40, Math.max(0, w.y + Math.sin(a) * 2 * SPEED * TICK * k));
            culling.teleportEntity(w.id, w.x, w.y);
            continue;
          }
          culling.moveEntity(w.id, w.x, w.y);
        }
        if (random() < 0.05) addWall();
        if (random() < 0.05 && walls.length > 0) occluders.remove(walls.splice(Math.floor(random() * walls.length), 1)[0]!.id);
        if (random() < 0.01) culling.setTeam(`p${Math.floor(random() * 9)}`, teams[Math.floor(random() * 3)]);
        churn += update().adds;
      }
      audited += culling.audit!.counts.clientTicks - culling.audit!.counts.excused;
    }
    expect(audited).toBeGreaterThan(4000);
    expect(churn).toBeGreaterThan(100);
  });
});

describe("culling refuses unsafe or malformed settings, naming the field", () => {
  const occluders = new Occluders();
  const base = { occluders, tickSeconds: TICK, maxSpeed: SPEED };

  it.each([
    [{ ...base, occluders: undefined }, /ViewCullingOptions\.occluders must be an Occluders/],
    [{ ...base, tickSeconds: 0 }, /ViewCullingOptions\.tickSeconds must be a number of seconds in \(0, 1\]/],
    [{ ...base, maxSpeed: Number.NaN }, /ViewCullingOptions\.maxSpeed must be a finite number >= 0 of meters per second \(got NaN\)/],
    [{ ...base, maxLookahead: 0 }, /ViewCullingOptions\.maxLookahead must cover at least one tick of motion/],
    [{ ...base, range: -1 }, /ViewCullingOptions\.range/],
    [{ ...base, lingerSeconds: 11 }, /ViewCullingOptions\.lingerSeconds/],
    [{ ...base, maxRoundTripMs: 5000 }, /ViewCullingOptions\.maxRoundTripMs/],
    [{ ...base, audit: { sample: 2 } }, /ViewCullingOptions\.audit\.sample/],
    [{ ...base, onAdd: "add" }, /ViewCullingOptions\.onAdd must be a function/],
  ])("%#: %o", (options, message) => {
    expect(() => new ViewCulling(options as never)).toThrow(message);
  });

  it("nothing moves: zero speed needs no look-ahead, and any move counts as a teleport", () => {
    const culling = new ViewCulling({ occluders, tickSeconds: TICK, maxSpeed: 0, maxLookahead: 0 });
    expect(culling.lookaheadFor(300)).toBe(0);
  });

  it("bad entities, clients and round trips are RangeErrors that change nothing", () => {
    const culling = new ViewCulling(base);
    culling.addEntity("p", { x: 0, y: 0, team: "red", character: true });
    expect(() => culling.addEntity("p", { x: 1, y: 1 })).toThrow(/ViewCulling\.addEntity id is already an entity/);
    expect(() => culling.addEntity("q", { x: Number.POSITIVE_INFINITY, y: 0 })).toThrow(/CullingEntity\.x must be a finite number/);
    expect(() => culling.addEntity("q", { x: 0, y: 0, radius: -1 })).toThrow(/CullingEntity\.radius/);
    expect(() => culling.addEntity("q", { x: 0, y: 0, character: true })).toThrow(/CullingEntity\.team is required for a character/);
    expect(() => culling.addEntity("", { x: 0, y: 0 })).toThrow(/ViewCulling\.addEntity id must be a non-empty string/);
    expect(() => culling.moveEntity("nobody", 0, 0)).toThrow(/ViewCulling\.moveEntity id is not an entity/);
    expect(() => culling.moveEntity("p", Number.NaN, 0)).toThrow(/ViewCulling\.moveEntity x must be a finite number \(got NaN\)/);
    culling.addEntity("box", { x: 1, y: 1 });
    expect(() => culling.addClient("c", "box")).toThrow(/ViewCulling\.addClient characterId is not a character/);
    expect(() => culling.addClient("c", "nobody")).toThrow(/ViewCulling\.addClient characterId is not an entity/);
    culling.addClient("c", "p");
    expect(() => culling.setRoundTrip("c", -5)).toThrow(/ViewCulling\.setRoundTrip roundTripMs/);
    culling.setRoundTrip("gone", 50); // a measure that lands after its client left: ignored
    expect(culling.viewOf("c")).toEqual(["p"]);
  });
});
