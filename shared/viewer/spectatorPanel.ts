/// <reference lib="dom" />
import { readRays, SPECTATOR_MESSAGES, type ReceivedEntities } from "../spectatorProtocol.js";
import { RAY_TICKS_SHOWN } from "./rayLayer.js";

/** The part of an SDK room the panel uses. */
export interface SpectatorRoom {
  send(type: string, payload: unknown): void;
  onMessage(type: string, callback: (payload: any) => void): unknown;
}

/**
 * A spectator's controls and feeds: the sight rays of the last ticks, and a select that narrows the view
 * to what one player's client received (the server reports that player's view as culling keeps it).
 */
export class SpectatorPanel {
  /** Newest last; at most {@link RAY_TICKS_SHOWN}. */
  readonly rayBatches: Float32Array[] = [];
  /** Ray messages received, for the record. */
  rayMessages = 0;
  /** The watched player's session id, or "" for everything. */
  private watched = "";
  /** What the watched player's client holds, once the server said. */
  private received: ReadonlySet<string> | null = null;
  private playersShown = "";

  constructor(
    private readonly room: SpectatorRoom,
    private readonly select: HTMLSelectElement,
    private readonly raysToggle: HTMLInputElement,
  ) {
    room.onMessage(SPECTATOR_MESSAGES.rays, (bytes: Uint8Array) => {
      this.rayMessages++;
      this.rayBatches.push(readRays(bytes));
      if (this.rayBatches.length > RAY_TICKS_SHOWN) this.rayBatches.shift();
    });
    room.onMessage(SPECTATOR_MESSAGES.received, (m: ReceivedEntities) => {
      if (m.player === this.watched) this.received = new Set(m.ids);
    });
    select.addEventListener("change", () => this.watch(select.value));
  }

  /** Whether rays are to be drawn. */
  get showRays(): boolean {
    return this.raysToggle.checked;
  }

  /** The player whose view the page is narrowed to ("" = everything). */
  get watchedPlayer(): string {
    return this.watched;
  }

  /** Whether an entity is to be drawn: always when showing everything, else when the watched client has it. */
  shows(entityId: string): boolean {
    if (this.watched === "") return true;
    return this.received !== null && this.received.has(entityId);
  }

  /** Keeps the select's options in step with the players in the room. */
  listPlayers(players: readonly { id: string; team: string }[]): void {
    const key = players.map((p) => `${p.id}:${p.team}`).join(",");
    if (key === this.playersShown) return;
    this.playersShown = key;
    const everything = new Option("everything (server truth)", "");
    const options = players.map((p) => new Option(`what ${p.id} (${p.team}) received`, p.id));
    this.select.replaceChildren(everything, ...options);
    if (this.watched !== "" && !players.some((p) => p.id === this.watched)) this.watch("");
    this.select.value = this.watched;
  }

  /** Narrows the view to one player's client ("" = everything). */
  watch(player: string): void {
    this.watched = player;
    this.received = null;
    this.room.send(SPECTATOR_MESSAGES.watch, { player });
  }
}
