import { describe, expect, it } from "vitest";
import { BotBehaviour } from "../../loadtest/botBehaviour.js";
import { BotLevelPlay, type PlaySight } from "../../loadtest/botLevelPlay.js";
import { levelPlayOn, newLevelPlayTally } from "../../loadtest/levelPlay.js";
import { NavGrid } from "../../server/sim/navGrid.js";
import { TICK_SECONDS } from "../../shared/gameRules.js";
import { seededRandom } from "../../shared/seededRandom.js";
import { LOBBY_DOOR, lobbyMap } from "./lobbyMap.js";

/** A decoding blunderer 1.1 m before the lobby's shut door, heading for the east room, and what it sends. */
function atTheDoor() {
  const map = lobbyMap("lobby", { open: false });
  const behaviour = new BotBehaviour("blunderer", NavGrid.ofMap(map), map, seededRandom(5), TICK_SECONDS);
  const sent: { type: string; payload: object }[] = [];
  const play = new BotLevelPlay({ ...levelPlayOn(map), shutShare: 0, smokeEverySeconds: [1e9, 1e9] }, seededRandom(6), true, TICK_SECONDS, map,
    (type, payload) => sent.push({ type, payload }), newLevelPlayTally());
  let open = false;
  const sight: PlaySight = { sessionId: "me", me: {}, doors: { get: (key) => (key === String(LOBBY_DOOR) ? { open } : undefined) }, players: undefined, guards: undefined };
  behaviour.headFor(10.9, 6, { x: 18, y: 6 });
  /** One tick at (10.9, 6), where the bot stands: its intent. */
  const tick = (now: number) => play.steer(behaviour.steer(10.9, 6), 10.9, 6, behaviour, sight, now);
  return { tick, sent, opens: () => (open = true) };
}

describe("a bot at a shut door it asked to open", () => {
  it("stands facing the door, and standing there is not being stuck: once the door opens it walks on along the same path", () => {
    const { tick, sent, opens } = atTheDoor();
    for (let t = 0; t < 40; t++) {
      const intent = tick(t * 50);
      expect(intent.moveX, `tick ${t}`).toBe(0);
      expect(intent.moveY).toBe(0);
      expect(Math.abs(intent.facing)).toBeLessThan(0.05); // east, at the door
    }
    // Two seconds at the door: asked at once and a second later, not every tick.
    expect(sent).toEqual([{ type: "door", payload: { door: LOBBY_DOOR, open: true } }, { type: "door", payload: { door: LOBBY_DOOR, open: true } }]);
    opens();
    const intent = tick(2050);
    expect(intent.moveX).toBeGreaterThan(0.9); // still heading east: two seconds without moving did not make it give up its path
  });
});
