import { Circle, Vec2, type Body, type World } from "planck";
import { CATEGORY, WALK_BLOCKERS } from "./mapWorld.js";

/** What a character's body collides with: what stops walking, and the other characters. */
const CHARACTER_COLLIDES_WITH = WALK_BLOCKERS | CATEGORY.PLAYER | CATEGORY.GUARD;

/**
 * A character's body: a dynamic circle that does not turn (facing is the game's, not the physics'), with
 * no friction. Guards are four times as dense as players, so a player cannot shove a guard off its route.
 * The stealth simulation and the load test's plain peer build theirs here, so both crowds push alike.
 */
export function createCharacterBody(world: World, role: "player" | "guard", x: number, y: number, radius: number): Body {
  const body = world.createBody({ type: "dynamic", position: Vec2(x, y), fixedRotation: true });
  body.createFixture({
    shape: new Circle(radius),
    density: role === "guard" ? 4 : 1,
    friction: 0,
    filterCategoryBits: role === "guard" ? CATEGORY.GUARD : CATEGORY.PLAYER,
    filterMaskBits: CHARACTER_COLLIDES_WITH,
  });
  return body;
}
