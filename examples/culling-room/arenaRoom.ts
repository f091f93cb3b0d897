// Anti-wallhack culling in your own Colyseus 0.18 room, with your own schema and no physics engine:
// each client receives only the tanks its team could see soon. Run it: `npx tsx examples/culling-room/server.ts`.
import { Room, type Client } from "@colyseus/core";
import { schema, StateView, t } from "@colyseus/schema";
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";

export const Tank = schema({ x: t.float32().default(0), y: t.float32().default(0), team: t.string().default("") }, "Tank");
/** Tanks sit in a `.view()` map: a client receives only the ones its StateView holds. */
export const ArenaState = schema({ tanks: t.map(Tank).view() }, "ArenaState");

const TICK_SECONDS = 1 / 20;
const SPEED = 5; // meters per second
/** A 40 m square split by a wall at x = 19.5..20.5 with a doorway at y = 18..22. */
export const SPAWNS: Record<string, { x: number; y: number }> = { red: { x: 5, y: 10 }, blue: { x: 35, y: 10 } };

export class ArenaRoom extends Room<{ state: InstanceType<typeof ArenaState> }> {
  override state = new ArenaState();
  culling!: ViewCulling;
  private readonly velocity = new Map<string, { x: number; y: number }>();

  override onCreate(options: { audit?: boolean }): void {
    const occluders = new Occluders();
    occluders.addRectangle(19.5, 0, 1, 18);
    occluders.addRectangle(19.5, 22, 1, 18);
    this.culling = new ViewCulling({
      occluders, tickSeconds: TICK_SECONDS, maxSpeed: SPEED * 1.1, audit: options.audit === true,
      onAdd: (clientId, id) => this.clients.getById(clientId)?.view?.add(this.state.tanks.get(id)!),
      onRemove: (clientId, id) => this.clients.getById(clientId)?.view?.remove(this.state.tanks.get(id)!),
    });
    // Movement intent in the unit disc; anything else is ignored.
    this.onMessage("move", (client, m: { x?: unknown; y?: unknown } | null) => {
      const x = typeof m?.x === "number" ? m.x : NaN;
      const y = typeof m?.y === "number" ? m.y : NaN;
      const length = Math.hypot(x, y);
      if (Number.isFinite(length)) this.velocity.set(client.sessionId, length > 1 ? { x: x / length, y: y / length } : { x, y });
    });
    this.setSimulationInterval(() => this.tick(), TICK_SECONDS * 1000);
  }

  override onJoin(client: Client, options: { team?: unknown }): void {
    const team = options?.team === "blue" ? "blue" : "red";
    const tank = new Tank();
    Object.assign(tank, SPAWNS[team], { team });
    this.state.tanks.set(client.sessionId, tank);
    client.view = new StateView(); // before addClient: it fills the view with the client's own team now
    this.culling.addEntity(client.sessionId, { x: tank.x, y: tank.y, radius: 1, team, character: true });
    this.culling.addClient(client.sessionId, client.sessionId);
  }

  override onLeave(client: Client): void {
    this.culling.removeClient(client.sessionId);
    this.culling.removeEntity(client.sessionId); // before the tank leaves the state, so views can let it go
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
      this.culling.moveEntity(id, tank.x, tank.y);
    }
    this.culling.update(); // after the moves, before the patch
  }
}
