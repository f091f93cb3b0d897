// Each team's look-ahead, from its clients' round trips: kept apart from the culling class because it is
// one rule (the slowest client of a team decides, capped) with its own per-client records, read once per
// update by the potential sight.
import type { PotentialSight } from "./potentialSight.js";

interface ClientRoundTrip {
  /** The look-ahead its round-trip estimate buys, meters (the cap's until one is reported). */
  lookahead: number;
  /** Its last round-trip estimate, ms, or undefined while unknown. */
  roundTripMs: number | undefined;
  /** The client's character's slot: its team is the one the round trip sizes. */
  characterSlot: number;
}

/**
 * How far each team's characters and every entity may move before the team's clients hear of it:
 * `min(maxLookahead, maxSpeed x (min(roundTrip, maxRoundTripMs) / 2 + tickSeconds))` for the team's
 * slowest client, the cap's for a client whose round trip is not known yet.
 * @internal
 */
export class TeamLookaheads {
  private readonly clients = new Map<string, ClientRoundTrip>();
  private perTeam = new Float64Array(4);

  constructor(
    private readonly maxSpeed: number,
    private readonly tickSeconds: number,
    readonly maxRoundTripMs: number,
    private readonly maxLookahead: number,
  ) {}

  /** The look-ahead (meters) a round trip (ms) buys. */
  lookaheadFor(roundTripMs: number | undefined): number {
    const rtt = Math.min(roundTripMs ?? this.maxRoundTripMs, this.maxRoundTripMs);
    return Math.min(this.maxLookahead, this.maxSpeed * (rtt / 2000 + this.tickSeconds));
  }

  has(clientId: string): boolean {
    return this.clients.has(clientId);
  }

  /** A client whose character is in `characterSlot`, round trip unknown yet. */
  addClient(clientId: string, characterSlot: number): void {
    this.clients.set(clientId, { lookahead: this.lookaheadFor(undefined), roundTripMs: undefined, characterSlot });
  }

  removeClient(clientId: string): boolean {
    return this.clients.delete(clientId);
  }

  setCharacterSlot(clientId: string, characterSlot: number): void {
    this.clients.get(clientId)!.characterSlot = characterSlot;
  }

  /** Records a client's round trip (ms, undefined: unknown); false for an unknown client. */
  setRoundTrip(clientId: string, roundTripMs: number | undefined): boolean {
    const rtt = this.clients.get(clientId);
    if (rtt === undefined) return false;
    rtt.roundTripMs = roundTripMs;
    rtt.lookahead = this.lookaheadFor(roundTripMs);
    return true;
  }

  /** The client's last round-trip estimate, ms (undefined while unknown). */
  roundTripOf(clientId: string): number | undefined {
    return this.clients.get(clientId)?.roundTripMs;
  }

  /** Gives every team of the sight its look-ahead from its slowest client (the cap's for a team without one). */
  apply(sight: PotentialSight): void {
    if (this.perTeam.length < sight.teamCount) this.perTeam = new Float64Array(sight.teamCount * 2);
    const lookahead = this.perTeam;
    lookahead.fill(-1, 0, sight.teamCount);
    for (const rtt of this.clients.values()) {
      const t = sight.teamOfSlot(rtt.characterSlot);
      if (t >= 0 && rtt.lookahead > lookahead[t]!) lookahead[t] = rtt.lookahead;
    }
    const unknown = this.lookaheadFor(undefined);
    for (let t = 0; t < sight.teamCount; t++) sight.setLookaheadOf(t, lookahead[t]! >= 0 ? lookahead[t]! : unknown);
  }
}
