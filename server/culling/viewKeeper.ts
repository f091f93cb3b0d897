import type { PotentialSight } from "./potentialSight.js";
import { Reveals } from "./reveals.js";
import type { ViewListener } from "./viewCullingOptions.js";
import { integer } from "../../shared/validation/rangeChecks.js";

/** View churn of the last {@link ViewKeeper.update}, and totals. @internal */
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
  /** The client's own character (always in its view), and its slot in the sight. */
  character: string;
  characterSlot: number;
  /** Its team's index in the sight, as of the last update (a team change is noticed there). */
  teamIndex: number;
  /** Set when the character or its team changed: the next update drops what no longer qualifies at once. */
  reset: boolean;
  /**
   * Per entity slot of the sight: 1 + the tick it last qualified (was potentially visible, or is the
   * client's team), 0 when not in the view; and the slot's generation then (a freed slot is gone).
   */
  qualified: Int32Array;
  generation: Int32Array;
  /** The slots in the view, densely: [0, count). */
  slots: Int32Array;
  count: number;
}

/**
 * Which entities each client's view holds, given what its team could potentially see: the client's own
 * character and everything on its team always, every entity its team could see soon, and each of those for
 * `lingerTicks` more after it stops qualifying, so an entity on the edge does not flicker in and out.
 *
 * The linger bounds churn too: an entity can enter and leave one client's view at most once per
 * `lingerTicks + 1` ticks while it keeps moving near the edge. An entity that teleports (the sight's
 * `teleported`, a respawn) does not linger: it leaves at once the views it no longer qualifies for, since
 * lingering would send its new spot to clients that cannot see it there (flicker is not at stake: it did
 * not walk off an edge). Neither does a view whose character changed team (or whose client took another
 * character): what the old team saw is not the new one's to keep. An entity a reveal shows to the client
 * (to everyone, its team, or it alone) qualifies like one its team could see, and lingers like one when the
 * reveal ends. Views are kept per entity slot of the sight (typed arrays, no per-tick hashing of ids): the
 * upkeep runs for every client every tick.
 * @internal
 */
export class ViewKeeper {
  readonly lingerTicks: number;
  readonly churn: ChurnReport = { adds: 0, removes: 0, maxPerClient: 0, totalAdds: 0, totalRemoves: 0, clientUpdates: 0 };
  private readonly clients = new Map<string, ClientRecord>();
  private tick = 0;
  /** {@link settle}'s scratch: the slots that are news since the update. */
  private news = new Int32Array(0);
  /** {@link admitSeenNow}'s scratch: per (team, slot), 1 seen now, 2 not, 0 not asked yet. */
  private verdictsNow = new Uint8Array(0);

  constructor(
    private readonly sight: PotentialSight,
    private readonly reveals: Reveals,
    options: { lingerTicks: number },
    private readonly onAdd: ViewListener,
    private readonly onRemove: ViewListener,
  ) {
    integer("ViewKeeper lingerTicks", options.lingerTicks, 0);
    this.lingerTicks = options.lingerTicks;
  }

  /**
   * Starts keeping a view for a client whose character is `character` (a character of the sight, so on a
   * team). Its team's entities, its own character among them, enter the view now.
   */
  addClient(clientId: string, character: string): void {
    const n = this.sight.slotCapacity;
    const slot = this.sight.slotOf(character);
    const record: ClientRecord = {
      id: clientId, character, characterSlot: slot, teamIndex: this.sight.teamOfSlot(slot), reset: false,
      qualified: new Int32Array(n), generation: new Int32Array(n), slots: new Int32Array(n), count: 0,
    };
    this.clients.set(clientId, record);
    if (record.teamIndex >= 0) for (const slot of this.sight.allySlotsOf(record.teamIndex)) this.enter(record, slot);
  }

  /** Gives a client another character: at the next update, what the new one does not qualify for leaves at once. */
  setCharacter(clientId: string, character: string): void {
    const record = this.clients.get(clientId);
    if (record === undefined || record.character === character) return;
    record.character = character;
    record.characterSlot = this.sight.slotOf(character);
    record.reset = true;
  }

  /** The character a client's view follows, or undefined for an unknown client. */
  characterOf(clientId: string): string | undefined {
    return this.clients.get(clientId)?.character;
  }

  /** Ids of the clients with a view. */
  clientIds(): IterableIterator<string> {
    return this.clients.keys();
  }

  /**
   * An entity is about to leave the sight: every view holding it lets it go now, with a remove call, so
   * the listener can still find it.
   */
  dropEntity(slot: number): void {
    const id = this.sight.idOf(slot);
    if (id === undefined) return;
    const generation = this.sight.generationOf(slot);
    for (const record of this.clients.values()) {
      if (slot >= record.qualified.length || record.qualified[slot] === 0 || record.generation[slot] !== generation) continue;
      record.qualified[slot] = 0;
      const i = record.slots.subarray(0, record.count).indexOf(slot);
      record.slots[i] = record.slots[--record.count]!;
      this.churn.removes++;
      this.churn.totalRemoves++;
      this.onRemove(record.id, id);
    }
  }

  /** Stops keeping the client's view (no remove calls: the view leaves with the client). */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** Whether the client's view holds `entityId` now. */
  has(clientId: string, entityId: string): boolean {
    const record = this.clients.get(clientId);
    if (record === undefined) return false;
    const slot = this.sight.slotOf(entityId);
    return slot >= 0 && slot < record.qualified.length && record.qualified[slot] !== 0 && record.generation[slot] === this.sight.generationOf(slot);
  }

  /**
   * Writes the ids the client's view holds now into `ids` from index 0 and returns how many, or -1 for an
   * unknown client. The array is never shortened, so one reused every tick stops allocating once it is
   * long enough (V8 drops an array's storage when its length is set to 0).
   */
  viewIdsInto(clientId: string, ids: string[]): number {
    const record = this.clients.get(clientId);
    if (record === undefined) return -1;
    let n = 0;
    for (let i = 0; i < record.count; i++) {
      const slot = record.slots[i]!;
      const id = this.sight.idOf(slot);
      if (id !== undefined && record.generation[slot] === this.sight.generationOf(slot)) ids[n++] = id;
    }
    return n;
  }

  /** The entity ids the client's view holds now, each with the tick it last qualified (a copy). */
  viewOf(clientId: string): ReadonlyMap<string, number> | undefined {
    const record = this.clients.get(clientId);
    if (record === undefined) return undefined;
    const view = new Map<string, number>();
    for (let i = 0; i < record.count; i++) {
      const slot = record.slots[i]!;
      const id = this.sight.idOf(slot);
      if (id !== undefined && record.generation[slot] === this.sight.generationOf(slot)) view.set(id, record.qualified[slot]! - 1);
    }
    return view;
  }

  /** How many entities the client's view holds now. */
  viewSize(clientId: string): number {
    return this.clients.get(clientId)?.count ?? 0;
  }

  /** Brings every view up to date with the sight's last `update()`. `tick` must increase. */
  update(tick: number): ChurnReport {
    this.tick = tick;
    const churn = this.churn;
    churn.adds = 0;
    churn.removes = 0;
    churn.maxPerClient = 0;
    const sight = this.sight;
    for (const record of this.clients.values()) {
      const before = churn.adds + churn.removes;
      if (record.qualified.length < sight.slotCapacity) grow(record, sight.slotCapacity);
      // The character cannot leave the sight while a client follows it, so its slot stays its own.
      const teamIndex = sight.teamOfSlot(record.characterSlot);
      if (teamIndex !== record.teamIndex) {
        record.teamIndex = teamIndex;
        record.reset = true;
      }
      // Its team's entities (its own character among them, and ones that joined since) are always in.
      if (teamIndex >= 0) {
        for (const slot of sight.allySlotsOf(teamIndex)) this.enter(record, slot);
        const visible = sight.visibleSlotsOf(teamIndex);
        for (let i = 0; i < visible.count; i++) this.enter(record, visible.list[i]!);
      }
      const reveals = this.reveals.list;
      for (let i = 0; i < reveals.length; i++) {
        const r = reveals[i]!;
        if (Reveals.shows(r, record.id, teamIndex, tick)) this.enter(record, r.slot);
      }
      const now = tick + 1;
      const mayLinger = !record.reset;
      record.reset = false;
      let kept = 0;
      for (let i = 0; i < record.count; i++) {
        const slot = record.slots[i]!;
        const qualified = record.qualified[slot]!;
        const gone = record.generation[slot] !== sight.generationOf(slot);
        if (!gone && (qualified === now || (mayLinger && tick - (qualified - 1) <= this.lingerTicks && !sight.teleported(slot)))) {
          record.slots[kept++] = slot;
          continue;
        }
        record.qualified[slot] = 0;
        churn.removes++;
        if (!gone) this.onRemove(record.id, sight.idOf(slot)!);
      }
      record.count = kept;
      const mine = churn.adds + churn.removes - before;
      if (mine > churn.maxPerClient) churn.maxPerClient = mine;
      churn.clientUpdates++;
    }
    churn.totalAdds += churn.adds;
    churn.totalRemoves += churn.removes;
    return churn;
  }

  /**
   * Between two updates, before state is sent: lets go at once, from each view, what must not wait for the
   * next update. An entity that is news since the update (put somewhere, moved farther than the teleport
   * distance, or on another team) leaves every view whose team could not potentially see it where it is
   * now and that no reveal shows it to; a view whose character changed team, or which follows another
   * character, keeps only what its team could see now, and gains its new team's own (its new character
   * among them); an entity that joined a team enters that team's views. Nothing else enters here: what
   * newly qualifies by sight waits for the update. Returns how many entities left views.
   */
  settle(): number {
    const sight = this.sight;
    const capacity = sight.slotCapacity;
    if (this.news.length < capacity) this.news = new Int32Array(capacity);
    const news = this.news;
    let n = 0;
    for (let s = 0; s < capacity; s++) if (sight.idOf(s) !== undefined && sight.changedSinceUpdate(s)) news[n++] = s;
    let left = 0;
    for (const record of this.clients.values()) {
      const team = sight.teamOfSlot(record.characterSlot);
      if (record.reset || team !== record.teamIndex) {
        // Backwards: a removal swaps the last entry, already seen, into the gap.
        for (let i = record.count - 1; i >= 0; i--) {
          const slot = record.slots[i]!;
          if (record.generation[slot] !== sight.generationOf(slot) || this.mayHold(record, team, slot)) continue;
          this.drop(record, i);
          left++;
        }
        // The new team's own are its to see at once, its new character first among them.
        if (team >= 0) {
          if (record.qualified.length < capacity) grow(record, capacity);
          for (const slot of sight.allySlotsOf(team)) this.enter(record, slot);
        }
        continue;
      }
      for (let j = 0; j < n; j++) {
        const slot = news[j]!;
        if (slot >= record.qualified.length || record.qualified[slot] === 0 || record.generation[slot] !== sight.generationOf(slot)) {
          // A new teammate is the view's to see at once.
          if (team >= 0 && sight.teamOfSlot(slot) === team) {
            if (record.qualified.length < capacity) grow(record, capacity);
            this.enter(record, slot);
          }
          continue;
        }
        if (this.mayHold(record, team, slot)) continue;
        this.drop(record, record.slots.subarray(0, record.count).indexOf(slot));
        left++;
      }
    }
    return left;
  }

  /**
   * Between two updates, after the occluders changed (a door opened, a cloud thinned): every entity a
   * view's team could potentially see now, where everything is now, enters the view at once, so what the
   * change reveals goes out with the send that carries the change. Nothing leaves here (what the change
   * hides lingers from the next update, as usual). Returns how many entered.
   */
  admitSeenNow(): number {
    const sight = this.sight;
    const capacity = sight.slotCapacity;
    if (this.verdictsNow.length < sight.teamCount * capacity) this.verdictsNow = new Uint8Array(sight.teamCount * capacity);
    const verdicts = this.verdictsNow;
    verdicts.fill(0, 0, sight.teamCount * capacity);
    let entered = 0;
    for (const record of this.clients.values()) {
      const team = sight.teamOfSlot(record.characterSlot);
      if (team < 0) continue;
      if (record.qualified.length < capacity) grow(record, capacity);
      for (let slot = 0; slot < capacity; slot++) {
        if (sight.idOf(slot) === undefined || sight.teamOfSlot(slot) === team) continue;
        if (record.qualified[slot] !== 0 && record.generation[slot] === sight.generationOf(slot)) continue;
        const v = team * capacity + slot;
        // 1: seen, 2: not, per team: the test does not depend on the client.
        if (verdicts[v] === 0) verdicts[v] = sight.seesNow(team, slot) ? 1 : 2;
        if (verdicts[v] !== 1) continue;
        this.enter(record, slot);
        entered++;
      }
    }
    return entered;
  }

  /** Whether a view on team `team` may hold the entity in `slot` right now (settle's rule). */
  private mayHold(record: ClientRecord, team: number, slot: number): boolean {
    if (slot === record.characterSlot) return true;
    if (team < 0) return false;
    const sight = this.sight;
    return sight.teamOfSlot(slot) === team || this.reveals.shows(slot, sight.generationOf(slot), record.id, team, this.tick) || sight.seesNow(team, slot);
  }

  /** Takes entry `i` of a view out, at once, with a remove call. */
  private drop(record: ClientRecord, i: number): void {
    const slot = record.slots[i]!;
    record.slots[i] = record.slots[--record.count]!;
    record.qualified[slot] = 0;
    this.churn.totalRemoves++;
    this.onRemove(record.id, this.sight.idOf(slot)!);
  }

  private enter(record: ClientRecord, slot: number): void {
    const generation = this.sight.generationOf(slot);
    const was = record.qualified[slot]!;
    record.qualified[slot] = this.tick + 1;
    if (was !== 0 && record.generation[slot] === generation) return;
    // A slot still listed for an entity that has since left the sight is taken over in place (the old
    // entity leaves the view without a call: it is gone); otherwise the slot joins the list.
    if (was === 0) record.slots[record.count++] = slot;
    else this.churn.removes++;
    record.generation[slot] = generation;
    this.churn.adds++;
    this.onAdd(record.id, this.sight.idOf(slot)!);
  }
}

function grow(record: ClientRecord, n: number): void {
  const qualified = new Int32Array(n);
  qualified.set(record.qualified);
  const generation = new Int32Array(n);
  generation.set(record.generation);
  const slots = new Int32Array(n);
  slots.set(record.slots.subarray(0, record.count));
  record.qualified = qualified;
  record.generation = generation;
  record.slots = slots;
}
