// The leak check a studio runs in its own CI, with `sightline/testing`: bots play capture the flag under
// the culling's truth audit (no leak, pop-in or miss in any client-tick, no footstep told to a bot that
// could not hear it or naming a runner it could not see), and the raw frames every bot received are
// searched for the enemy's team-only loadouts, which must never arrive.
// Run it: `npx tsx examples/capture-the-flag/leakCheck.ts [seconds]` (a server on 127.0.0.1:$PORT, default
// 2568): one JSON line, and exit code 1 on any failure.
import { defineRoom, defineServer, matchMaker, type Room as ServerRoom } from "@colyseus/core";
import type { Room } from "@colyseus/sdk";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { pathToFileURL } from "node:url";
import { auditWithBots, FrameRecorder, type BotAuditReport } from "sightline/testing";
import { BASES, TEAMS, type Team } from "./ctfField.js";
import { CtfRoom } from "./ctfRoom.js";

/** Plays `bots` bots for `seconds` in `room` (served on 127.0.0.1:`port`); throws on any leak. */
export async function leakCheck(room: ServerRoom, port: number, seconds: number, bots = 8): Promise<BotAuditReport & { framesChecked: number }> {
  const frames = FrameRecorder.start();
  const joined: { room: Room; team: Team }[] = [];
  try {
    const team = (i: number): Team => TEAMS[i % 2]!;
    const report = await auditWithBots(room, {
      port, bots, seconds, latencyMs: [0, 60],
      joinOptions: (i) => ({ team: team(i) }),
      onJoin: (bot, i) => {
        joined.push({ room: bot, team: team(i) });
        bot.onMessage("spotted", () => {});
        bot.onMessage("footstep", () => {});
      },
      act: (bot, i, random) => {
        const me = (bot.state as any).players?.get(bot.sessionId);
        if (me === undefined) return;
        // For the enemy flag, or home with it, through the nearer gap of the middle wall; weaving. Now and
        // then a ping, or a mark on an enemy in sight.
        const goal = BASES[(me.carrying === "") === (team(i) === "red") ? "blue" : "red"];
        const crossing = Math.sign(goal.x - 30) !== Math.sign(me.x - 30) && Math.abs(me.x - 30) > 1.5;
        const to = crossing ? { x: 30, y: me.y < 15 ? 6.5 : 23.5 } : goal;
        const weave = crossing ? 2 : 12;
        bot.send("move", { x: to.x - me.x + (random() - 0.5) * weave, y: to.y - me.y + (random() - 0.5) * weave });
        const roll = random();
        if (roll < 0.01) bot.send("ping");
        else if (roll < 0.03) {
          for (const [id, p] of (bot.state as any).players) if (p.team !== team(i)) bot.send("spot", id);
        }
      },
    });
    // Team-only fields: each bot holds its teammates' loadouts and never an enemy's.
    let framesChecked = 0;
    for (const a of joined) {
      for (const b of joined) {
        const loadout = `${b.team}-kit-${b.room.sessionId}`;
        if (a.team === b.team) frames.assertReceived(a.room, loadout, "a teammate's loadout");
        else frames.assertNeverReceived(a.room, loadout, "an enemy's loadout");
      }
      framesChecked += frames.framesOf(a.room).length;
    }
    return { ...report, framesChecked };
  } finally {
    frames.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const seconds = Number(process.argv[2] ?? 20);
  const port = Number(process.env.PORT ?? 2568);
  const server = defineServer({ transport: new WebSocketTransport(), rooms: { ctf: defineRoom(CtfRoom) }, greet: false });
  await server.listen(port, "127.0.0.1");
  const listing = await matchMaker.createRoom("ctf", {});
  const room = matchMaker.getLocalRoomById(listing.roomId)!;
  let failed = false;
  try {
    const report = await leakCheck(room, port, seconds);
    console.log(JSON.stringify({ check: "ctf-leaks", audited: report.audited, ...report.counts, framesChecked: report.framesChecked, events: (room as CtfRoom).events }));
  } catch (err) {
    failed = true;
    console.error(err instanceof Error ? err.message : err);
  }
  await server.gracefullyShutdown(false);
  process.exit(failed ? 1 : 0);
}
