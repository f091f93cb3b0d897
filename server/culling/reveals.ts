// The culling's reveals: entities shown to a team, a client or everyone whatever their sight says (a flag
// carrier, a radar ping, a "spotted" mark, an objective). Kept apart from the view upkeep that reads them
// and the audit that allows them: this is the one record of what was declared shown, to whom and until when.
import { fail, nonEmptyString } from "../../shared/validation/rangeChecks.js";
import type { RevealTarget } from "./viewCullingOptions.js";

/** Who a reveal shows its entity to. @internal */
export type RevealAudience = "everyone" | "team" | "client";

/** One reveal in force. @internal */
export interface Reveal {
  /** The entity's slot in the sight, and the slot's generation then (a freed slot voids the reveal). */
  readonly slot: number;
  readonly generation: number;
  readonly audience: RevealAudience;
  /** The team's index, for a team reveal (-1 otherwise). */
  readonly team: number;
  /** The client's id, for a client reveal ("" otherwise). */
  readonly client: string;
  /** The first update it counts in, and the last (Infinity: until concealed). */
  from: number;
  until: number;
}

/**
 * The reveals in force, as a short flat list: a room has a handful at a time, and every client's upkeep
 * walks them once per update, so a list beats any index. A reveal of the same entity to the same audience
 * again extends it (the later end wins) rather than stacking a second one.
 * @internal
 */
export class Reveals {
  readonly list: Reveal[] = [];

  /** Shows the entity in `slot` to `audience` for updates `from` to `until` (ticks, inclusive). */
  add(slot: number, generation: number, audience: RevealAudience, team: number, client: string, from: number, until: number): void {
    for (const r of this.list) {
      if (r.slot !== slot || r.generation !== generation || r.audience !== audience || r.team !== team || r.client !== client) continue;
      if (until > r.until) r.until = until;
      return;
    }
    this.list.push({ slot, generation, audience, team, client, from, until });
  }

  /**
   * Ends the reveals of the entity in `slot` to `audience` (with its `team` or `client`), or every reveal of
   * it when `audience` is undefined. Returns how many ended.
   */
  remove(slot: number, audience?: RevealAudience, team = -1, client = ""): number {
    let kept = 0;
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      const ends = r.slot === slot && (audience === undefined || (r.audience === audience && r.team === team && r.client === client));
      if (!ends) list[kept++] = r;
    }
    const ended = list.length - kept;
    list.length = kept;
    return ended;
  }

  /** Ends every reveal to a client (it left). */
  removeClient(client: string): void {
    let kept = 0;
    const list = this.list;
    for (let i = 0; i < list.length; i++) if (list[i]!.client !== client) list[kept++] = list[i]!;
    list.length = kept;
  }

  /** Drops the reveals that ended before update `tick`, and those of entities gone (`generationOf` changed). */
  expire(tick: number, generationOf: (slot: number) => number): void {
    let kept = 0;
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      if (r.until >= tick && r.generation === generationOf(r.slot)) list[kept++] = r;
    }
    list.length = kept;
  }

  /** Whether reveal `r` shows its entity, at update `tick`, to `client` whose character is on team `team`. */
  static shows(r: Reveal, client: string, team: number, tick: number): boolean {
    if (tick < r.from || tick > r.until) return false;
    return r.audience === "everyone" || (r.audience === "team" ? r.team === team && team >= 0 : r.client === client);
  }

  /** Whether any reveal shows the entity in `slot` (of `generation`) to that client at update `tick`. */
  shows(slot: number, generation: number, client: string, team: number, tick: number): boolean {
    for (const r of this.list) if (r.slot === slot && r.generation === generation && Reveals.shows(r, client, team, tick)) return true;
    return false;
  }
}

/**
 * Reads who a reveal (or a conceal) is for: [audience, team index, client id]. `teamIndex` resolves a team
 * name (-1: none); `hasClient`, when given, refuses a client with no view. Throws a RangeError naming
 * `<owner>.<field>` for both a team and a client, or a bad one.
 * @internal
 */
export function audienceOf(owner: string, o: RevealTarget, teamIndex: (team: string) => number, hasClient?: (id: string) => boolean): [RevealAudience, number, string] {
  if (o.team !== undefined && o.client !== undefined) fail(`${owner}.client`, "cannot be given with team: a reveal is to a team or to one client", o.client);
  if (o.team !== undefined) return ["team", teamIndex(nonEmptyString(`${owner}.team`, o.team)), ""];
  if (o.client === undefined) return ["everyone", -1, ""];
  const client = nonEmptyString(`${owner}.client`, o.client);
  if (hasClient !== undefined && !hasClient(client)) fail(`${owner}.client`, "has no view", client);
  return ["client", -1, client];
}
