import type { ViewListener } from "sightline/culling";
import type { StealthSimulation } from "../sim/stealthSimulation.js";
import type { RoomCulling, RoomCullingReport } from "./roomCulling.js";

/**
 * Culling turned off: every client's view holds every guard, camera and player, as if the state were
 * broadcast. The baseline a load test compares culling against (bytes per client, CPU); never a choice
 * for a game that cares about wallhacks. With everything in view there is nothing to leak and nothing to
 * miss, so there is no audit.
 */
export class EverythingVisible implements RoomCulling {
  readonly enabled = false;
  readonly range = Infinity;
  readonly audit = null;
  private readonly clients = new Set<string>();
  /** Guards and cameras: there from the start to the end. */
  private readonly fixed = new Set<string>();
  private readonly playerIds = new Set<string>();
  private readonly report: RoomCullingReport = { adds: 0, removes: 0, maxPerClient: 0, potentiallyVisible: 0, ms: 0 };

  constructor(private readonly simulation: StealthSimulation, private readonly onAdd: ViewListener) {
    for (const g of simulation.guards) this.fixed.add(g.id);
    for (const c of simulation.cameras) this.fixed.add(c.id);
  }

  /** Gives a client every entity now, and its character (already in the simulation) to every other client. */
  addClient(clientId: string, _playerId: string): void {
    this.syncEveryone();
    this.clients.add(clientId);
    for (const id of this.fixed) this.add(clientId, id);
    for (const id of this.playerIds) this.add(clientId, id);
  }

  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** Round trips do not matter when nothing is withheld. */
  setRoundTrip(): void {}

  has(clientId: string, entityId: string): boolean {
    return this.clients.has(clientId) && (this.fixed.has(entityId) || this.playerIds.has(entityId));
  }

  /** Players that joined since the last call reach every view; players that left are forgotten. */
  update(_tick: number): RoomCullingReport {
    const started = performance.now();
    const r = this.report;
    r.adds = 0;
    r.removes = 0;
    // Each new player enters every view once; a departed one leaves with its client.
    r.maxPerClient = this.syncEveryone();
    r.potentiallyVisible = this.fixed.size + this.playerIds.size;
    r.ms = performance.now() - started;
    return r;
  }

  dispose(): void {}

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
        this.report.removes += this.clients.size;
      }
    }
    return joined;
  }

  private add(clientId: string, entityId: string): void {
    this.report.adds++;
    this.onAdd(clientId, entityId);
  }
}
