// Anti-wallhack culling in your own Colyseus 0.18 room, with your own schema and no physics engine: each
// client receives only the tanks its team could see soon, and only the shots of tanks it holds.
// Run it: `npx tsx examples/culling-room/server.ts`.
import { definePlugins, Room, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { SightlinePlugin } from "sightline/colyseus";
import { Occluders } from "sightline/occluders";

/** Owner-only fields: `ammo` reaches the tank's own client alone. */
export const OWNER = 1;
export const Tank = schema({ x: t.float32().default(0), y: t.float32().default(0), team: t.string().default(""), ammo: t.uint8().default(9).view(OWNER) }, "Tank");
/** Tanks sit in a `.view()` map: a client receives only the ones its StateView holds. */
export const ArenaState = schema({ tanks: t.map(Tank).view() }, "ArenaState");

const TICK_SECONDS = 1 / 20;
const SPEED = 5; // meters per second
/** A 40 m square split by a wall at x = 19.5..20.5 with a doorway at y = 18..22. */
export const SPAWNS: Record<string, { x: number; y: number }> = { red: { x: 5, y: 10 }, blue: { x: 35, y: 10 } };

export class ArenaRoom extends Room<{ state: InstanceType<typeof ArenaState> }> {
  override state = new ArenaState();
  // Views follow each tick (`update()` below), reading each tank's x and y.
  override plugins = definePlugins([new SightlinePlugin({ maxSpeed: SPEED * 1.1, tickSeconds: TICK_SECONDS, update: "manual", ownerTag: OWNER })]);
  private readonly velocity = new Map<string, { x: number; y: number }>();

  override onCreate(options: { audit?: boolean }): void {
    const occluders = new Occluders();
    occluders.addRectangle(19.5, 0, 1, 18);
    occluders.addRectangle(19.5, 22, 1, 18);
    this.plugins.sightline.start({ occluders, audit: options.audit === true });
    // Movement intent in the unit disc; anything else is ignored.
    this.onMessage("move", (client, m: { x?: unknown; y?: unknown } | null) => {
      const x = typeof m?.x === "number" ? m.x : NaN;
      const y = typeof m?.y === "number" ? m.y : NaN;
      const length = Math.hypot(x, y);
      if (Number.isFinite(length)) this.velocity.set(client.sessionId, length > 1 ? { x: x / length, y: y / length } : { x, y });
    });
    // A shot is news only to those who can see the shooter.
    this.onMessage("fire", (client) => this.plugins.sightline.sendToViewersOf(client.sessionId, "shot", { by: client.sessionId }));
    this.setTimestep(() => this.tick(), TICK_SECONDS * 1000);
  }

  override onJoin(client: Client, options: { team?: unknown }): void {
    const team = options?.team === "blue" ? "blue" : "red";
    const tank = new Tank();
    Object.assign(tank, SPAWNS[team], { team });
    this.state.tanks.set(client.sessionId, tank);
    this.plugins.sightline.addEntity(client.sessionId, tank, { radius: 1, team, character: true });
    this.plugins.sightline.setCharacter(client, client.sessionId); // creates client.view
  }

  override onLeave(client: Client): void {
    this.plugins.sightline.removeEntity(client.sessionId); // before the tank leaves the state
    this.state.tanks.delete(client.sessionId);
    this.velocity.delete(client.sessionId);
  }

  // Without this hook, one exception in a handler stops the whole process.
  override onUncaughtException(error: Error, method: string): void {
    console.error(`arena ${method}:`, error);
  }

  private tick(): void {
    for (const [id, tank] of this.state.tanks) {
      const v = this.velocity.get(id) ?? { x: 0, y: 0 };
      tank.x = Math.min(40, Math.max(0, tank.x + v.x * SPEED * TICK_SECONDS));
      tank.y = Math.min(40, Math.max(0, tank.y + v.y * SPEED * TICK_SECONDS));
    }
    this.plugins.sightline.update(); // after the moves: the next patch carries both
  }
}
