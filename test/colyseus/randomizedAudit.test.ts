import type { StateView } from "@colyseus/schema";
import { describe, expect, it } from "vitest";
import { AuditFailure, auditWithBots } from "sightline/testing";
import { fieldServer } from "../fixtures/fieldServer.js";
import { FieldRoom, OWNER, TEAM, type FieldOptions, type TeleportMoment } from "../fixtures/fieldRoom.js";
import { seededRandom } from "../../shared/seededRandom.js";

// The randomized audit of `sightline/colyseus`: bots walk a field split by a wall with a doorway, with
// round trips of 0 to 120 ms, shouting now and then, while respawns happen at every moment state can
// change between two updates, units change teams, reveals come and go, and a caster watches. The culling's
// truth audit runs on every client-tick and every send between updates, and on every noise delivered; the
// view tags are checked at every encode.

const server = fieldServer();

const MOMENTS: TeleportMoment[] = ["handler", "clock", "native", "afterUpdate"];
/** Seconds each run plays: 6 in the suite; `AUDIT_SECONDS=120 npx vitest run test/colyseus/randomizedAudit.test.ts` for a long one. */
const SECONDS = Number(process.env.AUDIT_SECONDS ?? 6);

/** A random spot clear of the wall (x = 9..11), where a respawn may put a body. */
function spot(random: () => number): { x: number; y: number } {
  const x = 37 * random();
  return { x: x < 8.5 ? x : x + 3, y: 40 * random() };
}
const TEAMS = ["red", "blue", "neutral"];

/**
 * Checks, just before every encode, that each view holds team tags only on units of its own team and the
 * owner tag only on its own character (casters: every team tag, no owner tag).
 */
function watchTags(room: FieldRoom): { encodes: number; wrong: string[] } {
  const found = { encodes: 0, wrong: [] as string[] };
  const serializer = (room as unknown as { _serializer: { applyPatches: (...args: unknown[]) => unknown } })._serializer;
  const applyPatches = serializer.applyPatches;
  serializer.applyPatches = function (...args: unknown[]) {
    found.encodes++;
    for (const client of room.clients) {
      const view = client.view as StateView | undefined;
      if (view === undefined) continue;
      const own = room.state.units.get(client.sessionId);
      const caster = own === undefined;
      room.state.units.forEach((unit, id) => {
        if (view.hasTag(unit, TEAM) && !caster && unit.team !== own.team) found.wrong.push(`${client.sessionId} holds ${id}'s team fields (${unit.team} vs ${own.team})`);
        if (view.hasTag(unit, OWNER) && id !== client.sessionId) found.wrong.push(`${client.sessionId} holds ${id}'s owner fields`);
      });
    }
    return applyPatches.apply(this, args);
  };
  return found;
}

describe("the randomized plugin audit", () => {
  it.each<FieldOptions>([
    { update: "manual", loop: "timestep" },
    { update: "beforePatch", loop: "patch" },
  ])("no leak, pop-in, miss, sound leak or misplaced tag: %o, with respawns at every moment, team changes, reveals, shouts and a caster", async (options) => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { ...options, doorway: true });
    const tags = watchTags(room);
    const random = seededRandom(options.update === "manual" ? 23 : 29);
    for (let d = 0; d < 3; d++) {
      const at = spot(random);
      room.addUnit(`drone-${d}`, at.x, at.y, TEAMS[d % 3]!, false);
    }
    // The room's own chaos, five times a second: drones respawn, change team, get revealed and concealed.
    const chaos = setInterval(() => {
      const drone = `drone-${Math.floor(random() * 3)}`;
      const roll = random();
      if (roll < 0.3) room.teleport({ id: drone, ...spot(random) });
      else if (roll < 0.45) room.setTeam(drone, TEAMS[Math.floor(random() * 3)]!);
      else if (roll < 0.7) {
        const ids = [...room.state.units.keys()];
        const id = ids[Math.floor(random() * ids.length)]!;
        const audience = random();
        const client = room.clients[Math.floor(random() * room.clients.length)]?.sessionId;
        const to = audience < 0.4 ? { team: TEAMS[Math.floor(random() * 2)]! } : audience < 0.7 && client !== undefined ? { client } : {};
        room.plugins.sightline.reveal(id, { ...to, seconds: 0.1 + random() });
      } else if (roll < 0.8) room.plugins.sightline.conceal(drone);
    }, 200);
    // With manual updates, twice a run: a respawn that must leave views at the very next send. A neutral
    // drone is put by a bot; once some bot's view holds it, it goes far off the field, and the room sends
    // a patch at once (as a room that patches on demand would). Left to the timers, a send between a
    // respawn and the next update came too seldom on a loaded machine for every run to have one.
    room.addUnit("drone-watch", 0.5, 0.5, "neutral", false);
    const episodes: ReturnType<typeof setTimeout>[] = [];
    const seenByABot = () => room.clients.some((c) => room.state.units.has(c.sessionId) && room.plugins.sightline.has(c, "drone-watch"));
    const episode = (triesLeft: number) => {
      const bot = room.clients.map((c) => room.state.units.get(c.sessionId)).find((u) => u !== undefined && u.team !== "neutral");
      if (bot === undefined) return;
      room.teleport({ id: "drone-watch", x: bot.x < 10 ? Math.max(0.5, bot.x - 1) : Math.min(39.5, bot.x + 1), y: bot.y });
      const away = (polls: number) => {
        if (!seenByABot()) {
          // The bot may have jumped away itself before the views followed: put the drone by it again.
          episodes.push(setTimeout(() => (polls > 0 ? away(polls - 1) : triesLeft > 0 && episode(triesLeft - 1)), 50));
          return;
        }
        room.teleport({ id: "drone-watch", x: -100, y: -100 });
        (room as unknown as { broadcastPatch(): boolean }).broadcastPatch();
      };
      away(6);
    };
    if (options.update === "manual") for (const at of [1500, 3500]) episodes.push(setTimeout(() => episode(5), at));
    const shouts = seededRandom(options.update === "manual" ? 31 : 37);
    try {
      const report = await auditWithBots(room, {
        port: server.colyseus.port, bots: 7, seconds: SECONDS, latencyMs: [0, 60], seed: options.update === "manual" ? 5 : 6,
        joinOptions: (i) => (i === 6 ? { all: true } : { team: i % 2 === 0 ? "red" : "blue", x: i % 2 === 0 ? 2 + i : 38 - i, y: 5 + 5 * i }),
        onJoin: (bot) => bot.onMessage("noise", () => {}),
        act: (bot, i, r) => {
          if (i === 6) return;
          const roll = r();
          if (roll < 0.04) bot.send("teleport", { id: bot.sessionId, ...spot(r), at: MOMENTS[Math.floor(r() * MOMENTS.length)] });
          else if (roll < 0.25) bot.send("walk", { dx: r() * 2 - 1, dy: r() * 2 - 1 });
          else if (roll < 0.253) bot.send("team", r() < 0.5 ? "red" : "blue");
          // A shout of 6 to 26 m, to the enemy or to the team too: heard through the doorway or not at all.
          // Its loudness comes from a stream of its own, so the bots' other moves are those of the run without.
          else if (roll < 0.33) bot.send("noise", { loudness: 6 + 20 * shouts(), kind: "shout", toTeam: shouts() < 0.3 });
        },
      });
      const counters = room.plugins.sightline.counters;
      console.log(`randomized plugin audit (${options.update}, ${options.loop} loop): ${report.audited} client-ticks audited (${report.counts.clientTicks} in all), ${report.counts.sends} sends between updates (${counters.settled} entities let go at them), ${tags.encodes} encodes tag-checked, ${report.counts.soundsAudited} noise deliveries audited; leaks ${report.counts.leaks}, pop-ins ${report.counts.popIns}, misses ${report.counts.misses}, sound leaks ${report.counts.soundLeaks}`);
      expect(report.audited).toBeGreaterThan(SECONDS * 60);
      expect(report.counts.soundsAudited).toBeGreaterThan(SECONDS * 10);
      expect(tags.wrong.slice(0, 5)).toEqual([]);
      expect(tags.encodes).toBeGreaterThan(60);
      expect(counters.settled).toBeGreaterThan(0); // respawns between updates were let go before a send
      expect(counters.adds + counters.removes).toBeGreaterThan(20);
      expect(room.exceptions).toEqual([]);
    } finally {
      clearInterval(chaos);
      for (const e of episodes) clearTimeout(e);
    }
  }, 20_000 + SECONDS * 1000);
});

describe("the bot audit and noises", () => {
  // Red and blue west of the solid wall, 4 m apart, hear each other's shouts; green, both of it east of the
  // wall 10 m away, hears none of theirs (a team hears through any of its ears, so it has none west).
  const seats = [{ team: "red", x: 5, y: 10 }, { team: "blue", x: 5, y: 14 }, { team: "green", x: 15, y: 10 }, { team: "green", x: 15, y: 14 }];
  const shout = (bot: { send: (type: string, message: unknown) => void }, _i: number, r: () => number) => {
    if (r() < 0.2) bot.send("noise", { loudness: 12, kind: "shout" });
  };

  it("a room whose noises carry through its wall fails the bot audit on sound leaks", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", { hearingWithoutWalls: true });
    const failure = await auditWithBots(room, { port: server.colyseus.port, bots: 4, seconds: 2, joinOptions: (i) => seats[i]!, act: shout }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(AuditFailure);
    const report = (failure as AuditFailure).report;
    expect(report.counts).toMatchObject({ leaks: 0, popIns: 0, misses: 0 });
    expect(report.counts.soundLeaks).toBeGreaterThan(0);
    expect((failure as AuditFailure).message).toMatch(/[1-9]\d* sound leaks over \d+ noise deliveries/);
    expect(report.failures.some((f) => f.startsWith("soundLeak:") && f.includes("could not hear"))).toBe(true);
  });

  it("the same room with the hearing of its own walls passes, its shouts audited", async () => {
    const room = await server.colyseus.createRoom<FieldRoom>("field", {});
    const report = await auditWithBots(room, { port: server.colyseus.port, bots: 4, seconds: 2, joinOptions: (i) => seats[i]!, act: shout });
    expect(report.counts.soundLeaks).toBe(0);
    expect(report.counts.soundsAudited).toBeGreaterThan(10);
  });
});
