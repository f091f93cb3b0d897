import { describe, expect, it } from "vitest";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";
import { CullingAudit } from "../../server/culling/cullingAudit.js";
import { PotentialSight } from "../../server/culling/potentialSight.js";
import { Reveals } from "../../server/culling/reveals.js";
import { ViewKeeper } from "../../server/culling/viewKeeper.js";

const TICK = 1 / 20;

/** A wall at x = 10..10.5 from y = 0 to 20 with a doorway at y = 9..11. */
function twoRooms(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 9);
  occluders.addRectangle(10, 11, 0.5, 9);
  return occluders;
}

/** The same wall with no doorway. */
function solidWall(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 20);
  return occluders;
}

/**
 * Red at (5, 3) and (3, 1), both well below the doorway; blue at (7, 4), seen by red, with its own
 * client. A culling whose listeners mirror the views, audited at every update and every settle.
 */
function room(occluders = twoRooms()) {
  const mirrors = new Map<string, Set<string>>();
  const mirror = (c: string) => mirrors.get(c) ?? mirrors.set(c, new Set()).get(c)!;
  const culling = new ViewCulling({
    occluders, tickSeconds: TICK, maxSpeed: 4, audit: true,
    onAdd: (c, e) => mirror(c).add(e),
    onRemove: (c, e) => {
      expect(mirror(c).has(e), `${e} removed from ${c} without being added`).toBe(true);
      mirror(c).delete(e);
    },
  });
  culling.addEntity("red", { x: 5, y: 3, radius: 0.4, team: "red", character: true });
  culling.addEntity("red-2", { x: 3, y: 1, radius: 0.4, team: "red", character: true });
  culling.addEntity("blue", { x: 7, y: 4, radius: 0.4, team: "blue", character: true });
  for (const id of ["red", "red-2", "blue"]) culling.addClient(id, id);
  const clean = () => {
    const audit = culling.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    for (const [c, ids] of mirrors) expect([...ids].sort(), `the listeners' view of ${c}`).toEqual(culling.viewOf(c).sort());
  };
  const update = () => {
    culling.update();
    clean();
  };
  const settle = () => {
    const left = culling.settle();
    clean();
    return left;
  };
  return { culling, update, settle };
}

describe("settling what happened between two updates", () => {
  it("an enemy teleported behind the wall between updates leaves, at the settle before the send, every view that cannot see its new spot", () => {
    const { culling, update, settle } = room();
    update();
    expect(culling.has("red", "blue")).toBe(true);
    culling.teleportEntity("blue", 15, 3);
    expect(settle()).toBe(2); // from both red views (a team shares what it sees)
    expect(culling.has("red", "blue")).toBe(false);
    expect(culling.has("blue", "blue")).toBe(true);
    expect(culling.audit!.counts.sends).toBeGreaterThan(0);
  });

  it("a teleport to a spot the team still sees keeps it; a second settle before the update changes nothing", () => {
    const { culling, update, settle } = room();
    update();
    culling.teleportEntity("blue", 6, 2);
    expect(settle()).toBe(0);
    expect(culling.has("red", "blue")).toBe(true);
    culling.teleportEntity("blue", 15, 3);
    expect(settle()).toBe(2);
    expect(settle()).toBe(0);
    update();
    expect(culling.has("red", "blue")).toBe(false);
  });

  it("an undeclared move longer than the teleport distance is settled like a declared one; a step is left to the update", () => {
    const { culling, update, settle } = room();
    update();
    culling.moveEntity("blue", 7 + culling.teleportDistance * 0.9, 4);
    expect(settle()).toBe(0);
    culling.moveEntity("blue", 15, 3);
    expect(settle()).toBe(2);
  });

  it("nothing enters a view at a settle: an enemy teleported into plain sight arrives at the next update", () => {
    const { culling, update, settle } = room();
    culling.teleportEntity("blue", 15, 3);
    update();
    expect(culling.has("red", "blue")).toBe(false);
    culling.teleportEntity("blue", 6, 3);
    expect(settle()).toBe(0);
    expect(culling.has("red", "blue")).toBe(false);
    update();
    expect(culling.has("red", "blue")).toBe(true);
  });

  it("an entity that joins another team between updates leaves its old teammates' views at once where they cannot see it", () => {
    const { culling, update, settle } = room();
    culling.addEntity("drone", { x: 18, y: 2, radius: 0.3, team: "red" });
    update();
    expect(culling.has("red", "drone")).toBe(true);
    culling.setTeam("drone", "blue");
    expect(settle()).toBe(2);
    expect(culling.has("red", "drone")).toBe(false);
    expect(culling.has("red-2", "drone")).toBe(false);
    update();
    expect(culling.has("blue", "drone")).toBe(true);
  });

  it("a client that takes a character on another team keeps, at the settle, only what the new team sees", () => {
    const { culling, update, settle } = room(solidWall());
    culling.addEntity("scout", { x: 15, y: 15, radius: 0.4, team: "blue", character: true });
    culling.addEntity("red-post", { x: 2, y: 18, radius: 0.3, team: "red" });
    culling.teleportEntity("blue", 15, 3); // the whole blue team behind the wall
    update();
    expect(culling.has("red", "red-post")).toBe(true);
    culling.setCharacter("red", "scout");
    settle();
    // Red's teammates, hidden from blue, leave at once; the new team's own stay.
    expect(culling.viewOf("red").sort()).toEqual(["blue", "scout"]);
  });

  it("a reveal keeps a teleported entity in the views it is revealed to", () => {
    const { culling, update, settle } = room();
    culling.reveal("blue", { client: "red-2" });
    update();
    culling.teleportEntity("blue", 15, 3);
    settle();
    expect(culling.has("red", "blue")).toBe(false);
    expect(culling.has("red-2", "blue")).toBe(true);
  });
});

// The public culling settles before the audit looks, so only its parts, assembled without the settle, can
// show that the send audit would catch a teleport carried by a send: a check of the audit's own power.
describe("the culling audit at a send", () => {
  it("counts an entity teleported out of sight since the update and still in a view as a leak", () => {
    const occluders = twoRooms();
    const sight = new PotentialSight(occluders, 20, 0.4);
    const reveals = new Reveals();
    const views = new ViewKeeper(sight, reveals, { lingerTicks: 5 }, () => {}, () => {});
    const audit = new CullingAudit(occluders, sight, views, reveals, { tickSeconds: TICK, lingerTicks: 5, teleportDistance: 0.4 });
    sight.addEntity("red", 5, 3, 0.4, "red", true);
    sight.addEntity("blue", 7, 4, 0.4, "blue", true);
    views.addClient("red", "red");
    audit.addClient("red", "red", 0);
    sight.setLookahead("red", 0.4);
    sight.update();
    views.update(1);
    audit.audit(1);
    audit.auditSend();
    expect(audit.counts.leaks).toBe(0);
    sight.placeEntity("blue", 6.8, 4.1); // declared, in sight: allowed
    audit.auditSend();
    expect(audit.counts.leaks).toBe(0);
    sight.placeEntity("blue", 15, 3);
    audit.auditSend();
    expect(views.has("red", "blue")).toBe(true);
    expect(audit.counts.leaks).toBe(1);
    expect(audit.failures[0]).toMatch(/send after tick 1: red's view holds blue, which after a teleport or a team change, its team could not potentially see where it is/);
    audit.dispose();
  });
});
