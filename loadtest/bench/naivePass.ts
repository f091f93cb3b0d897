import { Vec2, type Fixture } from "planck";
import { silhouettePoints } from "sightline";
import { WALL, type BenchAgent, type BenchLevel } from "./benchLevel.js";

/** The textbook loop: every guard against every player, angles by atan2, closest-hit rays. */
export class NaivePass {
  /** 1 where guard gi saw player pi in the last run (gi * players + pi). */
  readonly sees: Uint8Array;
  private readonly out = { ax: 0, ay: 0, bx: 0, by: 0 };
  // One ray's state, and its ends and callback made once: a ray costs planck's query, not our garbage.
  private readonly from = Vec2(0, 0);
  private readonly to = Vec2(0, 0);
  private eye: BenchAgent | null = null;
  private target: BenchAgent | null = null;
  private blockerAt = Infinity;
  private targetAt = Infinity;
  private readonly closest = (fixture: Fixture, _point: Vec2, _normal: Vec2, fraction: number): number => {
    const body = fixture.getBody();
    if (body === this.eye!.body) return -1;
    if (body === this.target!.body) { this.targetAt = Math.min(this.targetAt, fraction); return fraction; }
    if ((fixture.getFilterCategoryBits() & WALL) === 0) return -1;
    this.blockerAt = Math.min(this.blockerAt, fraction);
    return fraction;
  };

  /** @param range meters; @param halfAngle radians. */
  constructor(private readonly level: BenchLevel, private readonly range: number, private readonly halfAngle: number) {
    this.sees = new Uint8Array(level.guards.length * level.players.length);
  }

  run(): number {
    const { guards, players, playerRadius: r } = this.level;
    let rays = 0;
    this.sees.fill(0);
    for (let gi = 0; gi < guards.length; gi++) {
      const g = guards[gi]!;
      for (let pi = 0; pi < players.length; pi++) {
        const p = players[pi]!;
        const dx = p.x - g.x;
        const dy = p.y - g.y;
        const d = Math.hypot(dx, dy);
        if (d > this.range + r) continue;
        // Angular half-width of the body as seen from the eye widens the cone test for a round target.
        const halfWidth = d > r ? Math.asin(r / d) : Math.PI;
        let diff = Math.abs(Math.atan2(dy, dx) - g.facing) % (2 * Math.PI);
        if (diff > Math.PI) diff = 2 * Math.PI - diff;
        if (diff > this.halfAngle + halfWidth) continue;
        // Same samples and k-of-n (k = 1) as ours: the centre first, then the two silhouette points.
        rays++;
        if (this.rayClear(g, p, p.x, p.y)) { this.sees[gi * players.length + pi] = 1; continue; }
        if (!silhouettePoints(g.x, g.y, p.x, p.y, r, 0.1, this.out)) continue;
        rays++;
        if (this.rayClear(g, p, this.out.ax, this.out.ay)) { this.sees[gi * players.length + pi] = 1; continue; }
        rays++;
        if (this.rayClear(g, p, this.out.bx, this.out.by)) this.sees[gi * players.length + pi] = 1;
      }
    }
    return rays;
  }

  /** Closest hit wins: clear iff the first opaque fixture met is the target's body, or none is met. */
  private rayClear(g: BenchAgent, p: BenchAgent, x: number, y: number): boolean {
    this.eye = g;
    this.target = p;
    this.blockerAt = Infinity;
    this.targetAt = Infinity;
    this.from.x = g.x;
    this.from.y = g.y;
    this.to.x = x;
    this.to.y = y;
    this.level.world.rayCast(this.from, this.to, this.closest);
    return this.blockerAt >= this.targetAt || this.blockerAt === Infinity;
  }
}
