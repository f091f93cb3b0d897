import { Client, type Room } from "@colyseus/sdk";
import { createHistogram } from "node:perf_hooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Bot, type BotContext } from "../../loadtest/bot.js";
import { newGaitTally } from "../../loadtest/botGait.js";
import { ErrorTally } from "../../loadtest/errorTally.js";
import { levelPlayOn, newLevelPlayTally, type LevelPlay } from "../../loadtest/levelPlay.js";
import { runLoad } from "../../loadtest/loadRun.js";
import { parseLoadTestArgs, type LoadTestOptions } from "../../loadtest/options.js";
import { ProgressLine } from "../../loadtest/progress.js";
import { fetchPublicLevel, type PublicLevel } from "../../loadtest/publicMap.js";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import { CHARACTER_RADIUS, DISTRACTION, SMOKE, TICK_SECONDS } from "../../shared/gameRules.js";
import { distanceToOutline } from "../../shared/outlineDistance.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { bootLoopback, type LoopbackServer } from "../fixtures/bootLoopback.js";
import { sleep } from "../fixtures/roomClients.js";
import { LOBBY_DOOR, LOBBY_DOOR_OUTLINE, lobbyMap } from "./lobbyMap.js";

/** Bots of the load test playing the lobby's door and smoke (see `lobbyMap`) against a real room. */

let server: LoopbackServer;
let http: string;
let endpoint: string;
beforeAll(async () => {
  const catalog = new MapCatalog().add(lobbyMap("lobby", { open: false })).add(lobbyMap("lobby-open", { open: true, sill: true }));
  server = await bootLoopback(createStealthServer({ room: { catalog } }));
  http = `http://127.0.0.1:${server.port}`;
  endpoint = `ws://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.shutdown();
});

let bots: Bot[] = [];
let others: Room[] = [];
let driver: NodeJS.Timeout | undefined;
afterEach(async () => {
  clearInterval(driver);
  driver = undefined;
  await Promise.allSettled([...bots.map((b) => b.leave()), ...others.map((r) => r.leave())]);
  bots = [];
  others = [];
  await server.cleanup();
});

/** What every bot of a scenario shares, with `levelPlay` as given (undefined: off). */
function botContext(level: PublicLevel, levelPlay: LevelPlay | undefined): BotContext {
  return {
    endpoints: [endpoint], roomName: "stealth", level, traffic: { bytesIn: 0, messagesIn: 0, patchesIn: 0 }, errors: new ErrorTally(),
    roundTrips: createHistogram(), measuring: false, tickSeconds: TICK_SECONDS, holdLimit: undefined,
    views: { checks: 0, entitiesHeld: 0, farLeaks: 0, farLeakExamples: [] }, sent: { frames: 0 },
    levelPlay, play: newLevelPlayTally(), joins: { local: [], cross: [] }, gaits: newGaitTally(), heard: { messages: 0, noises: 0 },
  };
}

/** A bot that joins the room (creating it on `map` when there is none yet) at spawn `spawn`, driven at the tick rate. */
async function botAt(ctx: BotContext, spawn: string, decodes: boolean, options: { map: string; roomId?: string }): Promise<Bot> {
  const at = ctx.level.map.spawns.find((s) => s.name === spawn)!;
  const bot = new Bot(bots.length, "blunderer", decodes, `t${bots.length}`, at, ctx, seededRandom(7 + bots.length));
  bots.push(bot);
  await bot.join(options.roomId, { map: options.map });
  driver ??= setInterval(() => {
    for (const b of bots) b.tick(performance.now());
  }, TICK_SECONDS * 1000);
  return bot;
}

/** Habits that leave one thing to test: no grenades or distractions unless asked for, no shutting unless asked for. */
function habits(level: PublicLevel, change: Partial<LevelPlay>): LevelPlay {
  return { ...levelPlayOn(level.map), shutShare: 0, smokeEverySeconds: [1e9, 1e9], distractEverySeconds: [1e9, 1e9], ...change };
}

/** Resolves once `done` holds (checked every 50 ms); fails the test after `ms` saying `what`. */
async function until(what: string, done: () => boolean, ms = 8000): Promise<void> {
  const end = performance.now() + ms;
  while (!done()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

/** The room's own figures from `GET /stats`. */
async function roomFigures(roomId: string): Promise<{ doorsToggled: number; smokesThrown: number; noises: number }> {
  const stats = (await (await fetch(`${http}/stats`)).json()) as { rooms: { roomId: string; doorsToggled: number; smokesThrown: number; noises: number }[] };
  return stats.rooms.find((r) => r.roomId === roomId)!;
}

/** What a decoding bot's state holds (absent until its first patch). */
interface Seen {
  players?: Map<string, { x: number; y: number; smokes: number; distractions: number }>;
  doors?: Map<string, { open: boolean }>;
}

describe("bots with level play", () => {
  it("a bot before a shut door on its path asks for it once and walks through once it opens, never touching it while shut", async () => {
    const level = await fetchPublicLevel(http, "lobby");
    const ctx = botContext(level, habits(level, {}));
    const bot = await botAt(ctx, "near", true, { map: "lobby" });
    const seen = () => bot.room!.state as unknown as Seen;
    let closestWhileShut = Infinity;
    bot.room!.onStateChange(() => {
      const me = seen().players?.get(bot.room!.sessionId);
      if (me !== undefined && seen().doors?.get(String(LOBBY_DOOR))?.open === false) closestWhileShut = Math.min(closestWhileShut, distanceToOutline(LOBBY_DOOR_OUTLINE, me.x, me.y));
    });
    bot.headFor({ x: 18, y: 6 });

    await until("the bot is through the doorway", () => (seen().players?.get(bot.room!.sessionId)?.x ?? 0) > 13.5);
    expect(ctx.play.doorOpens).toBe(1);
    // It asked from within reach, and its body never touched the door while it was shut.
    expect(closestWhileShut).toBeGreaterThan(CHARACTER_RADIUS + 0.3);
    expect(closestWhileShut).toBeLessThan(1.5);
    expect((await roomFigures(bot.roomId!)).doorsToggled).toBe(1);
    expect(ctx.errors.total).toBe(0);
    expect(ctx.play.refused).toBe(0);
  });

  it("a bot that shuts doors shuts this one behind it once clear of the doorway", async () => {
    const level = await fetchPublicLevel(http, "lobby");
    const ctx = botContext(level, habits(level, { shutShare: 1 }));
    const bot = await botAt(ctx, "near", true, { map: "lobby" });
    expect(bot.shutsDoors).toBe(true);
    bot.headFor({ x: 18, y: 6 });

    await until("the door is opened and shut again", () => ctx.play.doorShuts === 1);
    await until("the room has shut it", () => (bot.room!.state as unknown as Seen).doors?.get(String(LOBBY_DOOR))?.open === false, 2000);
    expect((bot.room!.state as unknown as Seen).players!.get(bot.room!.sessionId)!.x).toBeGreaterThan(12.5 + CHARACTER_RADIUS);
    expect(ctx.play).toMatchObject({ doorOpens: 1, doorShuts: 1, refused: 0 });
    expect((await roomFigures(bot.roomId!)).doorsToggled).toBe(2);
    expect(ctx.errors.total).toBe(0);
  });

  it("a bot shutting a door on someone still in the doorway is refused: it counts the refusal, not an error, and plays on", async () => {
    const level = await fetchPublicLevel(http, "lobby-open");
    const ctx = botContext(level, habits(level, { shutShare: 1 }));
    // A thin bot: it cannot see who stands in the doorway, so it asks, and the room says no.
    const bot = await botAt(ctx, "west", false, { map: "lobby-open" });
    const loiterer = await new Client(endpoint).joinById(bot.roomId!, { spawn: "sill", team: "loiterers" });
    others.push(loiterer);
    loiterer.onMessage("noise", () => {}); // it hears the bot come: no SDK warning for each
    bot.headFor({ x: 18, y: 7 });

    await until("the room refuses to shut the door", () => ctx.play.refused > 0);
    expect(ctx.play.refusedExamples[0]).toMatch(/^bot 0: door: door 30 cannot shut: someone is in the doorway/);
    expect(ctx.play.doorShuts).toBe(1);
    expect(ctx.errors.total).toBe(0);
    const frames = ctx.sent.frames;
    await sleep(300);
    expect(bot.phase).toBe("in");
    expect(ctx.sent.frames).toBeGreaterThan(frames + 3);
    expect((await roomFigures(bot.roomId!)).doorsToggled).toBe(0);
  });

  it("a bot with grenades throws them ahead on its way, three a life, and the room lands each", async () => {
    const level = await fetchPublicLevel(http, "lobby-open");
    const ctx = botContext(level, habits(level, { smokeEverySeconds: [0.2, 0.2] }));
    const bot = await botAt(ctx, "west", true, { map: "lobby-open" });
    bot.headFor({ x: 22, y: 10 });

    await until("three grenades thrown", () => ctx.play.smokes === SMOKE.grenades, 4000);
    await until("the room counts them", () => (bot.room!.state as unknown as Seen).players?.get(bot.room!.sessionId)?.smokes === 0, 2000);
    await sleep(500);
    expect(ctx.play.smokes).toBe(SMOKE.grenades); // none past an empty pouch
    expect((await roomFigures(bot.roomId!)).smokesThrown).toBe(SMOKE.grenades);
    expect(ctx.play.refused).toBe(0);
    expect(ctx.errors.total).toBe(0);
  });
});

describe("bots in a room that hears", () => {
  it("throw distractions behind them, three a life, which the room lands, and count the noises they are told of without a warning", async () => {
    const warn = vi.spyOn(console, "warn");
    try {
      const level = await fetchPublicLevel(http, "lobby-open");
      const ctx = botContext(level, habits(level, { distractEverySeconds: [0.2, 0.2] }));
      const a = await botAt(ctx, "west", true, { map: "lobby-open" });
      const b = await botAt(ctx, "near", true, { map: "lobby-open", roomId: a.roomId });
      a.headFor({ x: 22, y: 10 });
      b.headFor({ x: 22, y: 2 });
      const left = (bot: Bot) => (bot.room!.state as unknown as Seen).players?.get(bot.room!.sessionId)?.distractions;

      await until("three distractions thrown by each", () => ctx.play.distractions === 2 * DISTRACTION.count, 4000);
      await until("the room counts them", () => left(a) === 0 && left(b) === 0, 2000);
      await until("the bots are told of what they heard", () => ctx.heard.noises > 0, 2000);
      await sleep(500);
      expect(ctx.play.distractions).toBe(2 * DISTRACTION.count); // none past an empty pouch
      expect(ctx.play.distractionsRefused).toBe(0);
      expect(ctx.errors.total).toBe(0);
      expect(ctx.heard.messages).toBeGreaterThan(0);
      // Thuds and footsteps.
      expect((await roomFigures(a.roomId!)).noises).toBeGreaterThan(2 * DISTRACTION.count);
      expect(warn.mock.calls.filter((c) => String(c[0]).includes("not registered"))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a run with --level-play off", () => {
  /** A short run of 4 bots on the lobby (its door shut) through the CLI's own options and run. */
  async function run(levelPlay: "on" | "off") {
    const options = parseLoadTestArgs(["--endpoint", endpoint, "--map", "lobby", "--clients", "4", "--duration", "3", "--warmup", "1", "--ramp", "0", "--seed", "3", "--level-play", levelPlay]) as LoadTestOptions;
    const record = await runLoad(options, endpoint, new AbortController().signal, new ProgressLine());
    const end = record.servers[0]!.marks.get("end")!.rooms.find((r) => r.roomId === record.roomIds[0])!;
    return { record, end };
  }

  it("never asks for a door or a grenade, where the same bots with it on open the shut door", async () => {
    const off = await run("off");
    expect(off.record.options.levelPlay).toBe("off");
    expect(off.record.play).toEqual(newLevelPlayTally());
    expect(off.record.errors.total).toBe(0);
    expect(off.end).toMatchObject({ doorsToggled: 0, smokesThrown: 0 });
    await server.cleanup();

    const on = await run("on");
    expect(on.record.play.doorOpens).toBeGreaterThan(0);
    expect(on.end.doorsToggled).toBeGreaterThan(0);
    expect(on.record.errors.total).toBe(0);
  });
});
