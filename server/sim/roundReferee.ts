import type { Body } from "planck";
import type { AwarenessModel, DetectionEvent } from "sightline";
import type { RoundEvent, SimGuard, SimPlayer } from "./simEntities.js";

/** What the referee needs of the simulation. */
export interface Refereed {
  readonly players: ReadonlyMap<string, SimPlayer>;
  readonly guards: readonly SimGuard[];
  readonly awareness: AwarenessModel;
  respawn(id: string): void;
}

/**
 * The round's rules, once per step after behaviour: a player inside an exit escapes, one within `reach`
 * meters (centre to centre) of an alerted guard is caught; both respawn. The catcher stands down (its
 * `cleared` joins the step's `events`) and every meter about the player goes, as if it had slipped away.
 */
export function checkRound(sim: Refereed, reach: number, exits: readonly Body[], round: RoundEvent[], events: DetectionEvent[]): void {
  // The alerted guards, once a step: asking every guard's state for every player was 1,600 id lookups a
  // room a step. A catch stands its guard down, so it leaves the list at once.
  const alerted = alertedScratch;
  let count = 0;
  for (const g of sim.guards) if (sim.awareness.state(g.id) === "alerted") alerted[count++] = g;
  const filled = count;
  for (const p of sim.players.values()) {
    const at = p.body.getPosition();
    let escaped = false;
    for (const exit of exits) {
      for (let f = exit.getFixtureList(); f !== null; f = f.getNext()) {
        // The box first: most players are nowhere near an exit, and the shape test is the costlier one.
        const box = f.getAABB(0);
        if (at.x < box.lowerBound.x || at.x > box.upperBound.x || at.y < box.lowerBound.y || at.y > box.upperBound.y) continue;
        if (f.testPoint(at)) escaped = true;
      }
    }
    if (escaped) {
      p.escapes++;
      round.push({ type: "escaped", playerId: p.id });
      sim.respawn(p.id);
      continue;
    }
    for (let i = 0; i < count; i++) {
      const g = alerted[i]!;
      const gp = g.body.getPosition();
      if ((gp.x - at.x) ** 2 + (gp.y - at.y) ** 2 <= reach * reach) {
        p.caught++;
        round.push({ type: "caught", playerId: p.id, by: g.id });
        const cleared = sim.awareness.standDown(g.id);
        if (cleared !== undefined) events.push(cleared);
        sim.awareness.remove(p.id);
        sim.respawn(p.id);
        alerted.copyWithin(i, i + 1, count--);
        break;
      }
    }
  }
  // No room's guards are held past its step.
  alerted.fill(undefined, 0, filled);
}

/** The alerted guards of the step under way, reused (written from 0, never shortened: see docs/performance.md). */
const alertedScratch: (SimGuard | undefined)[] = [];

/** A camera spotted someone at `at`: the `count` nearest guards come to look. */
export function raiseAlarm(guards: readonly SimGuard[], at: { x: number; y: number }, count: number): void {
  if (count === 0) return;
  const ranked = guards
    .map((g) => ({ g, d: (g.body.getPosition().x - at.x) ** 2 + (g.body.getPosition().y - at.y) ** 2 }))
    .sort((a, b) => a.d - b.d);
  for (let i = 0; i < Math.min(count, ranked.length); i++) ranked[i]!.g.brain.alarm(at.x, at.y);
}
