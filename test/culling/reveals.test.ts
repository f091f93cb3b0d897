import { describe, expect, it } from "vitest";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";

const TICK = 1 / 20;

/** A wall at x = 10..10.5 from y = 0 to 20, no doorway: nothing on one side sees the other. */
function wall(): Occluders {
  const occluders = new Occluders();
  occluders.addRectangle(10, 0, 0.5, 20);
  return occluders;
}

/** Red and blue players either side of the wall, a green one beside red, and a flag on blue's side. */
function field() {
  const culling = new ViewCulling({ occluders: wall(), tickSeconds: TICK, maxSpeed: 4, lingerSeconds: 0.25, audit: true });
  culling.addEntity("red", { x: 5, y: 10, radius: 0.4, team: "red", character: true });
  culling.addEntity("red-2", { x: 5, y: 14, radius: 0.4, team: "red", character: true });
  culling.addEntity("green", { x: 5, y: 6, radius: 0.4, team: "green", character: true });
  culling.addEntity("blue", { x: 15, y: 10, radius: 0.4, team: "blue", character: true });
  culling.addEntity("flag", { x: 16, y: 12, radius: 0.3 });
  for (const id of ["red", "red-2", "green", "blue"]) culling.addClient(id, id);
  const update = () => {
    const r = culling.update();
    const audit = culling.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    return r;
  };
  return { culling, update };
}

describe("reveals", () => {
  it("a flag carrier revealed to a team enters every view of that team at the next update, behind the wall, and no one else's", () => {
    const { culling, update } = field();
    update();
    expect(culling.has("red", "blue")).toBe(false);
    culling.reveal("blue", { team: "red" });
    expect(culling.has("red", "blue")).toBe(false); // from the next update, not at once
    expect(culling.revealed("red", "blue", true)).toBe(true);
    update();
    expect(culling.has("red", "blue")).toBe(true);
    expect(culling.has("red-2", "blue")).toBe(true);
    expect(culling.has("green", "blue")).toBe(false);
    expect(culling.qualifies("red", "blue")).toBe(false); // sight still says no: the reveal alone shows it
    for (let i = 0; i < 40; i++) update();
    expect(culling.has("red", "blue")).toBe(true); // no seconds: until concealed
  });

  it("a radar ping shows an entity for its seconds, then it lingers for the linger and leaves", () => {
    const { culling, update } = field();
    update();
    culling.reveal("flag", { client: "green", seconds: 0.5 }); // 10 updates
    const held: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      update();
      held.push(culling.has("green", "flag"));
    }
    // Updates 1..10 revealed, then 5 updates of linger (0.25 s), then gone.
    expect(held.indexOf(false)).toBe(15);
    expect(held.slice(15).every((h) => !h)).toBe(true);
    expect(culling.has("red", "flag")).toBe(false);
  });

  it("a reveal to everyone reaches every client; conceal ends it early, and the entity lingers before it leaves", () => {
    const { culling, update } = field();
    culling.reveal("flag");
    update();
    for (const c of ["red", "red-2", "green"]) expect(culling.has(c, "flag")).toBe(true);
    expect(culling.conceal("flag")).toBe(1);
    for (let i = 0; i < culling.lingerTicks; i++) update();
    expect(culling.has("red", "flag")).toBe(true);
    update();
    expect(culling.has("red", "flag")).toBe(false);
  });

  it("revealing again to the same audience extends the reveal rather than stacking it, and conceal by audience ends only that one", () => {
    const { culling, update } = field();
    culling.reveal("flag", { team: "red", seconds: 0.1 });
    culling.reveal("flag", { team: "red", seconds: 5 });
    culling.reveal("flag", { client: "green", seconds: 5 });
    update();
    expect(culling.conceal("flag", { team: "red" })).toBe(1);
    expect(culling.conceal("flag", { team: "nobody" })).toBe(0);
    for (let i = 0; i < 10; i++) update();
    expect(culling.has("red", "flag")).toBe(false);
    expect(culling.has("green", "flag")).toBe(true);
  });

  it("a revealed entity that teleports behind the wall stays in the views it is revealed to, and leaves the others at once", () => {
    const { culling, update } = field();
    culling.moveEntity("blue", 9, 3); // red's side: red sees it
    update();
    expect(culling.has("red", "blue")).toBe(true);
    expect(culling.has("green", "blue")).toBe(true);
    culling.reveal("blue", { client: "red", seconds: 2 });
    update();
    culling.teleportEntity("blue", 18, 3);
    update();
    expect(culling.has("red", "blue")).toBe(true);
    expect(culling.has("green", "blue")).toBe(false);
  });

  it("a client that joins a team later finds that team's reveal; a reveal to a team with no one yet waits for it", () => {
    const { culling, update } = field();
    culling.reveal("flag", { team: "yellow" });
    update();
    culling.addEntity("yellow", { x: 2, y: 2, radius: 0.4, team: "yellow", character: true });
    culling.addClient("yellow", "yellow");
    update();
    expect(culling.has("yellow", "flag")).toBe(true);
    culling.setTeam("green", "yellow");
    update();
    expect(culling.has("green", "flag")).toBe(true);
  });

  it("a removed entity's reveals end with it, and a client's with the client", () => {
    const { culling, update } = field();
    culling.reveal("flag", { client: "red" });
    update();
    culling.removeEntity("flag");
    culling.addEntity("flag", { x: 16, y: 12, radius: 0.3 });
    update();
    expect(culling.has("red", "flag")).toBe(false);
    culling.reveal("flag", { client: "red-2" });
    culling.removeClient("red-2");
    culling.addClient("red-2", "red-2");
    update();
    expect(culling.has("red-2", "flag")).toBe(false);
  });

  it("misuse fails at the call with a RangeError naming the field, and changes nothing", () => {
    const { culling, update } = field();
    expect(() => culling.reveal("nobody")).toThrow(/ViewCulling.reveal entityId is not an entity \(got "nobody"\)/);
    expect(() => culling.reveal("flag", { team: "red", client: "red" })).toThrow(/RevealOptions.client cannot be given with team/);
    expect(() => culling.reveal("flag", { seconds: 0 })).toThrow(/RevealOptions.seconds must be a number > 0 of seconds/);
    expect(() => culling.reveal("flag", { seconds: NaN })).toThrow(/RevealOptions.seconds/);
    expect(() => culling.reveal("flag", { client: "ghost" })).toThrow(/RevealOptions.client has no view \(got "ghost"\)/);
    expect(() => culling.reveal("flag", { team: "" })).toThrow(/RevealOptions.team must be a non-empty string/);
    expect(() => culling.reveal("flag", null as never)).toThrow(/RevealOptions must be an object/);
    update();
    expect(culling.has("red", "flag")).toBe(false);
    expect(culling.conceal("nobody")).toBe(0);
  });
});
