import type { PotentialSight } from "./potentialSight.js";

/** Called when an entity enters or leaves a client's view. */
export type ViewListener = (clientId: string, entityId: string) => void;

/** View churn of the last {@link ViewKeeper.update}, and totals. */
export interface ChurnReport {
  /** Entities added to views this update, over all clients. */
  adds: number;
  /** Entities removed from views this update (lingers expired, entities gone). */
  removes: number;
  /** The largest adds + removes of a single client this update. */
  maxPerClient: number;
  /** Sums since construction. */
  totalAdds: number;
  totalRemoves: number;
  /** Client-updates counted in the totals. */
  clientUpdates: number;
}

interface ClientRecord {
  readonly id: string;
  /** The client's own character (always in its view). */
  readonly character: string;
  readonly team: string;
  /** Entity id -> tick it last qualified (was potentially visible, or is the client's team). */
  readonly inView: Map<string, number>;
}

/**
 * Which entities each client's view holds, given what its team could potentially see: the client's own
 * character and its teammates always, every entity its team could see soon, and each of those for
 * `lingerTicks` more after it stops qualifying, so an entity on the edge does not flicker in and out.
 *
 * The linger bounds churn too: an entity can enter and leave one client's view at most once per
 * `lingerTicks + 1` ticks while it keeps moving near the edge. Imports no Colyseus: the room turns the
 * add/remove calls into `StateView.add` / `StateView.remove`.
 */
export class ViewKeeper {
  readonly lingerTicks: number;
  readonly churn: ChurnReport = { adds: 0, removes: 0, maxPerClient: 0, totalAdds: 0, totalRemoves: 0, clientUpdates: 0 };
  private readonly clients = new Map<string, ClientRecord>();
  private tick = 0;
  /** The record `enterCurrent` adds to: one bound callback instead of a closure per client per tick. */
  private current: ClientRecord | null = null;
  private readonly enterCurrent = (id: string): void => this.enter(this.current!, id);

  constructor(
    private readonly sight: PotentialSight,
    options: { lingerTicks: number },
    private readonly onAdd: ViewListener,
    private readonly onRemove: ViewListener,
  ) {
    if (!(Number.isInteger(options.lingerTicks) && options.lingerTicks >= 0)) throw new RangeError(`lingerTicks must be an integer >= 0 (got ${options.lingerTicks})`);
    this.lingerTicks = options.lingerTicks;
  }

  /**
   * Starts keeping a view for a client whose character is `character` (an entity of the sight, added with
   * its team). Its own character and teammates enter the view now.
   */
  addClient(clientId: string, character: string): void {
    if (this.clients.has(clientId)) throw new RangeError(`client ${JSON.stringify(clientId)} already has a view`);
    const team = this.sight.teamOf(character);
    if (team === undefined) throw new RangeError(`${JSON.stringify(character)} is not a character of the sight`);
    const record: ClientRecord = { id: clientId, character, team, inView: new Map() };
    this.clients.set(clientId, record);
    this.current = record;
    this.sight.forEachMember(team, this.enterCurrent);
  }

  /** Stops keeping the client's view (no remove calls: the view leaves with the client). */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** Whether the client's view holds `entityId` now. */
  has(clientId: string, entityId: string): boolean {
    return this.clients.get(clientId)?.inView.has(entityId) ?? false;
  }

  /** The entity ids the client's view holds now (live: copy to keep). */
  viewOf(clientId: string): ReadonlyMap<string, number> | undefined {
    return this.clients.get(clientId)?.inView;
  }

  /** Brings every view up to date with the sight's last `update()`. `tick` must increase. */
  update(tick: number): ChurnReport {
    this.tick = tick;
    const churn = this.churn;
    churn.adds = 0;
    churn.removes = 0;
    churn.maxPerClient = 0;
    for (const record of this.clients.values()) {
      const before = churn.adds + churn.removes;
      // Teammates (including ones that joined since) are always in.
      this.current = record;
      this.sight.forEachMember(record.team, this.enterCurrent);
      this.sight.forEachVisible(record.team, this.enterCurrent);
      for (const [id, qualified] of record.inView) {
        if (qualified === tick) continue;
        const gone = !this.sight.has(id);
        if (gone || tick - qualified > this.lingerTicks) {
          record.inView.delete(id);
          churn.removes++;
          if (!gone) this.onRemove(record.id, id);
        }
      }
      const mine = churn.adds + churn.removes - before;
      if (mine > churn.maxPerClient) churn.maxPerClient = mine;
      churn.clientUpdates++;
    }
    churn.totalAdds += churn.adds;
    churn.totalRemoves += churn.removes;
    return churn;
  }

  private enter(record: ClientRecord, id: string): void {
    const had = record.inView.has(id);
    record.inView.set(id, this.tick);
    if (!had) {
      this.churn.adds++;
      this.onAdd(record.id, id);
    }
  }
}
