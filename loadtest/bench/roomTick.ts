/**
 * room-tick: what one tick of the demo room costs with 8 players, as the room itself measures it
 * (inputs + simulation + state sync; the patch that follows each firing is timed apart and not included) and the
 * simulation step inside it, with
 * 8 real SDK clients over loopback WebSocket, next to the bare simulation stepping 8 players driven by the
 * same bot policy with no Colyseus at all. Both run the same number of ticks; p50 / p99 / max in ms.
 *
 * The bots walk nav-grid paths to random spots and to the exit, crouching now and then, so guards notice,
 * chase, lose and catch them: the tick covers vision, awareness and guard behaviour under play.
 */
import { Client, type Room } from "@colyseus/sdk";
import { matchMaker } from "@colyseus/core";
import { createStealthServer } from "../../server/app.js";
import { MapCatalog } from "../../server/rooms/mapCatalog.js";
import type { StealthRoom } from "../../server/rooms/StealthRoom.js";
import { NavGrid, type Waypoint } from "../../server/sim/navGrid.js";
import type { StealthMap } from "../../server/sim/tiledMap.js";
import { TICK_RATE, TICK_SECONDS } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";

const PLAYERS = 8;
const SECONDS = Number(process.env.BENCH_ROOM_SECONDS ?? 20);

/** A wandering player: paths to a random free spot (one time in four, the exit), crouching now and then. */
class Bot {
  private readonly path: Waypoint[] = [];
  private stuck = 0;
  private lastX = NaN;
  private lastY = NaN;
  crouch = false;
  constructor(private readonly nav: NavGrid, private readonly map: StealthMap, private readonly random: () => number) {}

  /** Unit move and facing toward the next waypoint from (x, y). */
  steer(x: number, y: number): { moveX: number; moveY: number; facing: number; crouch: boolean } {
    if (Math.hypot(x - this.lastX, y - this.lastY) < 0.01) this.stuck++;
    else this.stuck = 0;
    this.lastX = x;
    this.lastY = y;
    while (this.path.length > 0 && Math.hypot(this.path[0]!.x - x, this.path[0]!.y - y) < 0.3) this.path.shift();
    if (this.path.length === 0 || this.stuck > 20) this.replan(x, y);
    const wp = this.path[0];
    if (wp === undefined) return { moveX: 0, moveY: 0, facing: 0, crouch: false };
    const dx = wp.x - x;
    const dy = wp.y - y;
    const d = Math.hypot(dx, dy) || 1;
    if (this.random() < 0.01) this.crouch = !this.crouch;
    return { moveX: dx / d, moveY: dy / d, facing: Math.atan2(dy, dx), crouch: this.crouch };
  }

  private replan(x: number, y: number): void {
    this.stuck = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      const exit = this.map.exits[0];
      const goal = exit !== undefined && this.random() < 0.25
        ? { x: exit[0]!.x + 1, y: exit[0]!.y + 1 }
        : { x: 1 + this.random() * (this.map.width - 2), y: 1 + this.random() * (this.map.height - 2) };
      if (this.nav.isFree(goal.x, goal.y) && this.nav.findPath(x, y, goal.x, goal.y, this.path)) return;
    }
  }
}

type Timing = ReturnType<StealthRoom["stats"]["tickTime"]>;
async function fullRoom(map: StealthMap): Promise<{ tickMs: Timing; stepMs: Timing; stats: Record<string, unknown> }> {
  const server = createStealthServer();
  await server.listen(0, "127.0.0.1");
  const address = (server.transport as unknown as { server: { address(): { port: number } } }).server.address();
  const endpoint = `ws://127.0.0.1:${address.port}`;
  const nav = NavGrid.ofMap(map);
  const rooms: Room[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    for (let i = 0; i < PLAYERS; i++) {
      const client = new Client(endpoint);
      const spawn = map.spawns[i % map.spawns.length]!.name;
      const room: Room = i === 0 ? await client.create("stealth", { spawn }) : await client.joinById(rooms[0]!.roomId, { spawn });
      room.onMessage("round", () => {});
      room.onMessage("error", (e: unknown) => console.error("bot got an error:", e));
      rooms.push(room);
      const bot = new Bot(nav, map, seededRandom(100 + i));
      const input = room.input({ mode: "reliable" }) as { data: Record<string, number | boolean>; send(): number };
      let seq = 0;
      timers.push(setInterval(() => {
        const me = (room.state as { players?: Map<string, { x: number; y: number }> }).players?.get(room.sessionId);
        if (me === undefined) return;
        const s = bot.steer(me.x, me.y);
        input.data.seq = ++seq;
        input.data.moveX = s.moveX;
        input.data.moveY = s.moveY;
        input.data.facing = s.facing;
        input.data.crouch = s.crouch;
        input.send();
      }, TICK_SECONDS * 1000));
    }
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const room = matchMaker.getLocalRoomById(rooms[0]!.roomId) as StealthRoom;
    return { tickMs: room.stats.tickTime(), stepMs: room.stats.stepTime(), stats: room.stats.snapshot() };
  } finally {
    for (const t of timers) clearInterval(t);
    await Promise.all(rooms.map((r) => r.leave().catch(() => undefined)));
    await server.gracefullyShutdown(false);
  }
}

export async function roomTickBench(): Promise<void> {
  const map = MapCatalog.bundled().get("demo")!;
  const room = await fullRoom(map);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  console.log(JSON.stringify({
    bench: "room-tick", map: "demo", players: PLAYERS, seconds: SECONDS, tickRate: TICK_RATE,
    room: { p50: round(room.tickMs.p50), p99: round(room.tickMs.p99), max: round(room.tickMs.max), ticks: room.tickMs.samples },
    roomSimulationStep: { p50: round(room.stepMs.p50), p99: round(room.stepMs.p99), max: round(room.stepMs.max) },
    play: { detectionEvents: room.stats.detectionEvents, captures: room.stats.captures, escapes: room.stats.escapes, rejected: (room.stats.rejected as { total: number }).total },
  }));
}
