/**
 * The `plugin` sides of `againstCheckout.ts`: one `SightlinePlugin` per side, on a stand-in room (a clock,
 * no sockets) over the culling bench's 64 x 500 level, every client with a real `StateView`. Each side
 * uses its own checkout's plugin and its own copy of `@colyseus/schema` (schema instances and views must
 * come from one copy). Per tick, outside the timings, the level's moves are written into the schema
 * instances; timed: `update()` (positions read, potential sight, view upkeep, `view.add`/`remove`), then
 * the hook Colyseus calls before the patch (the other side's flushes messages; this side's also settles).
 */
import { join } from "node:path";
import { TICK_SECONDS } from "../../shared/gameRules.js";
import { buildBenchLevel, stepBenchLevel, WALL, type BenchLevel } from "./benchLevel.js";

/** One side of the A/B: timings per tick, ms. */
export interface PluginSide {
  readonly mine: boolean;
  /** `update()` per tick. */
  readonly ms: number[];
  /** The hook before the patch per tick. */
  readonly patchMs: number[];
  step(): void;
  run(tick: number): void;
}

interface Libraries {
  plugin: Record<string, any>;
  occluders: Record<string, any>;
  schema: Record<string, any>;
}

const CLIENTS = 64;
const GUARDS = 436;

/** Four sides built in the order other, this, this, other, on one shared level (stepped by the first). */
export async function pluginSides(other: string, root: string): Promise<PluginSide[]> {
  const level = buildBenchLevel({ seed: 77, walls: 360, guards: GUARDS, players: CLIENTS, size: 120 });
  const roundTrips = level.players.map(() => level.random() * 120);
  const load = async (dir: string): Promise<Libraries> => ({
    plugin: await import(join(dir, "server/colyseus/index.ts")),
    occluders: await import(join(dir, "server/occluders/index.ts")),
    schema: await import(join(dir, "node_modules/@colyseus/schema/build/index.mjs")),
  });
  const theirs = await load(other);
  const ours = await load(root);
  const sides = [side(false, theirs, level, roundTrips), side(true, ours, level, roundTrips), side(true, ours, level, roundTrips), side(false, theirs, level, roundTrips)];
  const first = sides[0]!;
  sides[0] = { ...first, step: () => stepBenchLevel(level) };
  return sides;
}

function side(mine: boolean, lib: Libraries, level: BenchLevel, roundTrips: number[]): PluginSide {
  const { schema, t, Encoder, StateView } = lib.schema;
  const Unit = schema({ x: t.float32().default(0), y: t.float32().default(0) }, "BenchUnit");
  const State = schema({ units: t.map(Unit).view() }, "BenchUnits");
  const state = new State();
  new Encoder(state);
  const standIn = {
    patchRate: 50, roomId: "bench", clock: { tick() {} },
    clients: { getById: () => undefined },
  } as Record<string, any>;
  const plugin = new lib.plugin.SightlinePlugin({ maxSpeed: 3.3, tickSeconds: TICK_SECONDS, update: "manual" });
  plugin.room = standIn;
  const byId = new Map<string, { x: number; y: number }>();
  plugin.start({ occluders: lib.occluders.Occluders.fromWorld(level.world, { opaqueMask: WALL }), roundTrip: (id: string) => roundTrips[Number(id.slice(1))] });
  for (const a of [...level.players, ...level.guards]) {
    const unit = new Unit().assign({ x: a.x, y: a.y });
    state.units.set(a.id, unit);
    byId.set(a.id, unit);
    const player = a.id.startsWith("p");
    plugin.addEntity(a.id, unit, { radius: level.playerRadius, ...(player ? { team: a.id, character: true } : {}) });
  }
  for (const p of level.players) plugin.setCharacter({ sessionId: p.id, view: new StateView() }, p.id);
  const ms: number[] = [];
  const patchMs: number[] = [];
  return {
    mine, ms, patchMs,
    step: () => {},
    run: () => {
      for (const a of level.players) Object.assign(byId.get(a.id)!, { x: a.x, y: a.y });
      for (const a of level.guards) Object.assign(byId.get(a.id)!, { x: a.x, y: a.y });
      const t0 = performance.now();
      plugin.update();
      const t1 = performance.now();
      standIn.onBeforePatch?.(state);
      const t2 = performance.now();
      ms.push(t1 - t0);
      patchMs.push(t2 - t1);
    },
  };
}
