import type { StealthSimulation } from "../sim/stealthSimulation.js";
import { StealthCulling, type CullingReport } from "./stealthCulling.js";
import type { ChurnReport, ViewListener } from "./viewKeeper.js";

/**
 * Culling turned off: every client's view holds every guard, camera and player, as if the state were
 * broadcast. The baseline a load test compares culling against (bytes per client, CPU); never a choice
 * for a game that cares about wallhacks. A `StealthCulling` whose sight is never updated (its `sight` and
 * `views` stay empty) and no audit: with everything in view there is nothing to leak and nothing to miss;
 * the room drives it like the real one.
 */
export class EverythingVisible extends StealthCulling {
  private readonly clients = new Set<string>();
  /** Guards and cameras: there from the start to the end. */
  private readonly fixed = new Set<string>();
  private readonly playerIds = new Set<string>();
  private readonly churn: ChurnReport = { adds: 0, removes: 0, maxPerClient: 0, totalAdds: 0, totalRemoves: 0, clientUpdates: 0 };

  constructor(private readonly simulation: StealthSimulation, private readonly onAdd: ViewListener) {
    super(simulation, {}, onAdd, () => {});
    for (const g of simulation.guards) this.fixed.add(g.id);
    for (const c of simulation.cameras) this.fixed.add(c.id);
  }

  /** Gives a client every entity now, and its character (already in the simulation) to every other client. */
  override addClient(clientId: string, _playerId: string): void {
    this.syncEveryone();
    this.clients.add(clientId);
    for (const id of this.fixed) this.add(clientId, id);
    for (const id of this.playerIds) this.add(clientId, id);
  }

  override removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** Round trips do not matter when nothing is withheld. */
  override setRoundTrip(_clientId: string, _roundTripMs: number | undefined): void {}

  override has(clientId: string, entityId: string): boolean {
    return this.clients.has(clientId) && (this.fixed.has(entityId) || this.playerIds.has(entityId));
  }

  /** Players that joined since the last call reach every view; players that left are forgotten. */
  override update(_tick: number): CullingReport {
    const started = performance.now();
    const churn = this.churn;
    churn.adds = 0;
    churn.removes = 0;
    // Each new player enters every view once; a departed one leaves with its client.
    churn.maxPerClient = this.syncEveryone();
    churn.clientUpdates += this.clients.size;
    return { churn, potentiallyVisible: this.fixed.size + this.playerIds.size, ms: performance.now() - started };
  }

  /** Returns how many players joined since the last call. */
  private syncEveryone(): number {
    let joined = 0;
    for (const id of this.simulation.players.keys()) {
      if (this.playerIds.has(id)) continue;
      this.playerIds.add(id);
      joined++;
      for (const clientId of this.clients) this.add(clientId, id);
    }
    if (this.playerIds.size > this.simulation.players.size) {
      for (const id of this.playerIds) {
        if (this.simulation.players.has(id)) continue;
        this.playerIds.delete(id);
        this.churn.removes += this.clients.size;
        this.churn.totalRemoves += this.clients.size;
      }
    }
    return joined;
  }

  private add(clientId: string, entityId: string): void {
    this.churn.adds++;
    this.churn.totalAdds++;
    this.onAdd(clientId, entityId);
  }
}
