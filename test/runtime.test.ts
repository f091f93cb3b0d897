import { describe, expect, it } from "vitest";

// `npm ci --ignore-scripts` leaves no node_modules/.bin/node, and then every script silently runs on
// the system Node (20 here), which Colyseus 0.18 and planck 1.5 do not support. Fail loudly instead.
describe("runtime", () => {
  it("runs on Node >= 22 (the pinned `node` devDependency)", () => {
    const [major] = process.versions.node.split(".").map(Number);
    expect(major).toBeGreaterThanOrEqual(22);
  });
});
