import { describe, expect, it } from "vitest";
import { SightlinePlugin } from "sightline/colyseus";
import { encoded } from "sightline/testing";
import { fieldServer, untilPatch } from "../fixtures/fieldServer.js";
import { FieldRoom, Unit } from "../fixtures/fieldRoom.js";

// What team games need from `sightline/colyseus`, through real SDK clients and the raw frames they
// received: reveals, team-only fields, spectators and casters, and misuse refused at the call. The field:
// a solid wall at x = 9..11, the west never sees the east.

const server = fieldServer();

async function patches(room: FieldRoom, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await room.waitForNextPatch();
}

const unitsOf = (client: { state: unknown }) => (client.state as any).units;

describe("reveals", () => {
  it("a flag carrier revealed to the other team arrives behind the wall, and once the reveal ends its moves no longer do", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { audit: true });
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    await patches(room, 3);
    expect(unitsOf(red).has(blue.sessionId)).toBe(false);
    server.frames.assertNeverReceived(red, blue.sessionId, "blue's id before the reveal");

    room.plugins.sightline.reveal(blue.sessionId, { team: "red", seconds: 0.5 });
    expect(await untilPatch(room, () => unitsOf(red).has(blue.sessionId))).toBe(true);
    server.frames.assertReceived(red, blue.sessionId, "blue's id once revealed");
    // While revealed, blue's moves reach red.
    room.state.units.get(blue.sessionId)!.x = 31.125;
    expect(await untilPatch(room, () => unitsOf(red).get(blue.sessionId)?.x === 31.125)).toBe(true);
    // The reveal ends (10 updates), then linger (5): gone from red's state.
    expect(await untilPatch(room, () => !unitsOf(red).has(blue.sessionId))).toBe(true);
    room.state.units.get(blue.sessionId)!.x = 32.375;
    expect(await untilPatch(room, () => unitsOf(blue).get(blue.sessionId)?.x === 32.375)).toBe(true);
    await patches(room, 3);
    server.frames.assertNeverReceived(red, encoded(32.375, "float32"), "blue's x after the reveal");
    server.frames.assertReceived(blue, encoded(32.375, "float32"));
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
  });

  it("a spotted mark shows an enemy to one client only; an objective revealed to everyone reaches every client; conceal ends both", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { audit: true });
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const mate = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 30 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    room.addUnit("objective", 35, 35, "neutral", false);
    const plugin = room.plugins.sightline;
    plugin.reveal(blue.sessionId, { client: room.clients.getById(red.sessionId)! });
    plugin.reveal("objective");
    expect(await untilPatch(room, () => unitsOf(red).has(blue.sessionId) && unitsOf(mate).has("objective"))).toBe(true);
    await patches(room, 2);
    expect(unitsOf(mate).has(blue.sessionId)).toBe(false);
    server.frames.assertNeverReceived(mate, blue.sessionId, "blue, marked for red alone");
    expect(plugin.conceal(blue.sessionId)).toBe(1);
    expect(plugin.conceal("objective", { client: red.sessionId })).toBe(0);
    expect(plugin.conceal("objective")).toBe(1);
    expect(await untilPatch(room, () => !unitsOf(red).has(blue.sessionId) && !unitsOf(mate).has("objective"))).toBe(true);
    expect(unitsOf(blue).has("objective")).toBe(true); // in blue's own sight, reveal or not
    const audit = plugin.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
  });
});

describe("team-only fields", () => {
  it("a teammate decodes them; an enemy who sees the unit never receives their bytes, and after a team change neither does the old team", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    // All in the west: everyone sees everyone.
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const mate = await server.colyseus.connectTo(room, { team: "red", x: 6, y: 22 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 5, y: 24 });
    expect(await untilPatch(room, () => unitsOf(blue).has(red.sessionId) && unitsOf(mate).has(red.sessionId))).toBe(true);
    await patches(room, 3);
    const redUnit = room.state.units.get(red.sessionId)!;
    expect(unitsOf(mate).get(red.sessionId).loadout).toBe(`loadout-${red.sessionId}`);
    expect(unitsOf(mate).get(red.sessionId).stamina).toBe(redUnit.stamina);
    expect(unitsOf(mate).get(red.sessionId).secret).toBeUndefined(); // owner-only
    expect(unitsOf(blue).get(red.sessionId).loadout).toBeUndefined();
    server.frames.assertNeverReceived(blue, `loadout-${red.sessionId}`, "red's team-only loadout");
    server.frames.assertNeverReceived(blue, encoded(redUnit.stamina, "float32"), "red's team-only stamina");
    server.frames.assertReceived(blue, `loadout-${blue.sessionId}`, "its own loadout");

    // The mate goes over to blue, and its loadout changes in the same tick: red must not learn the new one.
    room.setTeam(mate.sessionId, "blue");
    const mateUnit = room.state.units.get(mate.sessionId)!;
    mateUnit.loadout = `turncoat-${mate.sessionId}`;
    mateUnit.stamina = 88.875;
    expect(await untilPatch(room, () => unitsOf(blue).get(mate.sessionId)?.loadout === `turncoat-${mate.sessionId}`)).toBe(true);
    await patches(room, 3);
    expect(unitsOf(red).has(mate.sessionId)).toBe(true); // still in sight
    expect(unitsOf(red).get(mate.sessionId).loadout).toBeUndefined();
    server.frames.assertNeverReceived(red, `turncoat-${mate.sessionId}`, "the turncoat's new loadout");
    server.frames.assertNeverReceived(red, encoded(88.875, "float32"), "the turncoat's new stamina");
    // And the turncoat no longer hears red's team fields either.
    redUnit.loadout = "red-after-the-split";
    expect(await untilPatch(room, () => unitsOf(red).get(red.sessionId)?.loadout === "red-after-the-split")).toBe(true);
    await patches(room, 2);
    server.frames.assertNeverReceived(mate, "red-after-the-split", "red's loadout after the mate left the team");
    expect(room.exceptions).toEqual([]);
  });
});

describe("spectators and casters", () => {
  it("a spectator of a player sees what its team knows, team fields included, and not its owner-only fields unless granted", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { audit: true });
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    const secret = room.state.units.get(red.sessionId)!.secret;
    const watcher = await server.colyseus.connectTo(room, { watch: red.sessionId });
    const coach = await server.colyseus.connectTo(room, { watch: red.sessionId, ownerFields: true });
    expect(await untilPatch(room, () => unitsOf(watcher).has(red.sessionId) && unitsOf(coach).has(red.sessionId))).toBe(true);
    await patches(room, 3);
    expect(unitsOf(watcher).get(red.sessionId).loadout).toBe(`loadout-${red.sessionId}`);
    expect(unitsOf(watcher).get(red.sessionId).secret).toBeUndefined();
    server.frames.assertNeverReceived(watcher, encoded(secret, "float32"), "the player's owner-only secret");
    expect(unitsOf(coach).get(red.sessionId).secret).toBe(secret);
    expect(unitsOf(red).get(red.sessionId).secret).toBe(secret); // the player keeps its own
    server.frames.assertNeverReceived(watcher, blue.sessionId, "blue, behind the wall");
    expect(room.plugins.sightline.counters.clients).toBe(4);
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
  });

  it("a caster sees every unit and every team's fields, owner-only ones when granted, and entities added later", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    const caster = await server.colyseus.connectTo(room, { all: true });
    room.addUnit("late", 35, 5, "neutral", false);
    const units = unitsOf(caster);
    expect(await untilPatch(room, () => units.has(red.sessionId) && units.has(blue.sessionId) && units.has("late"))).toBe(true);
    await patches(room, 2);
    expect(units.get(blue.sessionId).loadout).toBe(`loadout-${blue.sessionId}`);
    expect(units.get(red.sessionId).loadout).toBe(`loadout-${red.sessionId}`);
    expect(units.get(red.sessionId).secret).toBeUndefined();
    expect(room.plugins.sightline.has(caster.sessionId, blue.sessionId)).toBe(true);
    expect(room.plugins.sightline.viewOf(caster.sessionId).sort()).toEqual([blue.sessionId, red.sessionId, "late"].sort());
    const trusted = await server.colyseus.connectTo(room, { all: true, ownerFields: true });
    expect(await untilPatch(room, () => unitsOf(trusted).get(red.sessionId)?.secret !== undefined)).toBe(true);
    // The players learn nothing of the casters.
    for (const player of [red, blue]) server.frames.assertNeverReceived(player, caster.sessionId, "the caster's session");
  });

  it("a caster who takes a character keeps only what its team sees, and a player turned caster sees everything", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { audit: true });
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const blue = await server.colyseus.connectTo(room, { team: "blue", x: 30, y: 20 });
    const caster = await server.colyseus.connectTo(room, { all: true });
    expect(await untilPatch(room, () => unitsOf(caster).has(blue.sessionId))).toBe(true);
    room.addUnit("drone", 5, 25, "red", true);
    room.plugins.sightline.setCharacter(room.clients.getById(caster.sessionId)!, "drone");
    expect(await untilPatch(room, () => !unitsOf(caster).has(blue.sessionId))).toBe(true);
    expect(unitsOf(caster).get("drone").secret).toBe(room.state.units.get("drone")!.secret);
    room.state.units.get(blue.sessionId)!.x = 33.625;
    expect(await untilPatch(room, () => unitsOf(blue).get(blue.sessionId)?.x === 33.625)).toBe(true);
    await patches(room, 2);
    server.frames.assertNeverReceived(caster, encoded(33.625, "float32"), "blue's x once the caster plays red");
    // And back: the player (red) turns caster, without owner fields.
    room.plugins.sightline.spectateAll(room.clients.getById(red.sessionId)!);
    expect(await untilPatch(room, () => unitsOf(red).has(blue.sessionId) && unitsOf(red).get(red.sessionId)?.secret === undefined)).toBe(true);
    const audit = room.plugins.sightline.audit!;
    expect(audit.counts, audit.failures.join("\n")).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(room.exceptions).toEqual([]);
  });

  it("a client cannot take a character another client plays: it would receive the player's owner-only fields", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    const red = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 20 });
    const other = await server.colyseus.connectTo(room, { team: "red", x: 4, y: 25 });
    const client = room.clients.getById(other.sessionId)!;
    expect(() => room.plugins.sightline.setCharacter(client, red.sessionId)).toThrow(`SightlinePlugin.setCharacter characterId is played by client "${red.sessionId}": watch it with spectate(client, id)`);
    room.plugins.sightline.spectate(client, red.sessionId);
    await patches(room, 3);
    expect(unitsOf(other).get(red.sessionId).secret).toBeUndefined();
    // Back to playing its own.
    room.plugins.sightline.setCharacter(client, other.sessionId);
    expect(await untilPatch(room, () => unitsOf(other).get(other.sessionId)?.secret !== undefined)).toBe(true);
  });
});

describe("misuse fails at the call", () => {
  it("an instance outside a .view() collection, or not in the state, is a RangeError naming the id and the fix; nothing is declared", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    const plugin = room.plugins.sightline;
    const plain = new Unit().assign({ x: 3, y: 3, team: "red" });
    room.state.plain.set("plain-1", plain);
    expect(() => plugin.addEntity("plain-1", plain, { radius: 0.5 })).toThrow(/SightlinePlugin.addEntity instance of "plain-1" is not in a .view\(\) collection, so every client receives it whatever its view holds: declare its collection with .view\(\)/);
    const loose = new Unit().assign({ x: 3, y: 3, team: "red" });
    expect(() => plugin.addEntity("loose-1", loose)).toThrow(/SightlinePlugin.addEntity instance of "loose-1" is not in the room's state: put it in a .view\(\) collection of this.state first/);
    expect(() => plugin.addEntity("odd", {} as never)).toThrow(/SightlinePlugin.addEntity instance of "odd" must be its schema instance/);
    expect(plugin.counters.entities).toBe(0);
    // Once in a .view() collection, the same instance is fine.
    room.state.units.set("loose-1", loose);
    plugin.addEntity("loose-1", loose);
    expect(plugin.counters.entities).toBe(1);
    expect(() => plugin.reveal("nobody")).toThrow(/SightlinePlugin.reveal entityId is not an entity/);
    expect(() => plugin.reveal("loose-1", { team: "red", client: "x" })).toThrow(/RevealOptions.client cannot be given with team/);
    expect(() => plugin.reveal("loose-1", { seconds: -1 })).toThrow(/RevealOptions.seconds/);
    expect(() => plugin.spectate(room.clients[0] as never, "loose-1", { ownerFields: "yes" as never })).toThrow(/SpectateOptions.ownerFields must be a boolean/);
    expect(() => plugin.spectate({ sessionId: "someone" } as never, "loose-1")).toThrow(/SightlinePlugin.spectate characterId is not a character/);
    expect(plugin.counters.clients).toBe(0);
  });

  it("view tags must be single bits, and the team tag must differ from the owner tag", () => {
    expect(() => new SightlinePlugin({ ownerTag: 3 })).toThrow(/SightlineOptions.ownerTag must be a view tag: a power of two/);
    expect(() => new SightlinePlugin({ teamTag: 0 })).toThrow(/SightlineOptions.teamTag must be a view tag/);
    expect(() => new SightlinePlugin({ ownerTag: 2, teamTag: 2 })).toThrow(/SightlineOptions.teamTag must differ from ownerTag/);
  });
});
