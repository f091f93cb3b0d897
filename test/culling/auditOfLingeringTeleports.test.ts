import { describe, expect, it } from "vitest";
import { Occluders } from "sightline/occluders";
import { CullingAudit } from "../../server/culling/cullingAudit.js";
import { PotentialSight } from "../../server/culling/potentialSight.js";
import { Reveals } from "../../server/culling/reveals.js";
import { ViewKeeper } from "../../server/culling/viewKeeper.js";

// The public culling never lets a teleported entity linger, so only its parts, assembled without that
// rule, can show that the audit would catch it: a check of the audit's own power to find this leak.
describe("the culling audit", () => {
  it("counts an entity that lingers after teleporting out of sight as a leak, and one that walked there as none", () => {
    const occluders = new Occluders();
    occluders.addRectangle(10, 7, 0.5, 4);
    // No teleport distance: views linger through a teleport.
    const sight = new PotentialSight(occluders, 20, Infinity);
    const reveals = new Reveals();
    const views = new ViewKeeper(sight, reveals, { lingerTicks: 5 }, () => {}, () => {});
    const audit = new CullingAudit(occluders, sight, views, reveals, { tickSeconds: 0.05, lingerTicks: 5, teleportDistance: 0.5 });
    sight.addEntity("watcher", 7, 5, 0.35, "a", true);
    sight.addEntity("enemy", 17, 5, 0.35, "b", true);
    views.addClient("watcher", "watcher");
    audit.addClient("watcher", "watcher", 0);
    let tick = 0;
    const update = () => {
      sight.update();
      views.update(++tick);
      return audit.audit(tick);
    };
    update();
    sight.moveEntity("enemy", 16.9, 5);
    expect(update().leaks).toBe(0);
    // Put behind the wall in one tick: the view still holds it, with its new spot.
    sight.moveEntity("enemy", 12, 9);
    update();
    expect(views.has("watcher", "enemy")).toBe(true);
    expect(audit.counts.leaks).toBe(1);
    expect(audit.failures[0]).toMatch(/holds enemy, which teleported where it is not potentially visible/);
    audit.dispose();
  });
});
