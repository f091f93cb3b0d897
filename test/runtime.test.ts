import { describe, expect, it } from "vitest";

// `npm ci --ignore-scripts` leaves no node_modules/.bin/node, and then every script silently runs on
// the system Node (20 here), below what the package supports (engines: node >= 24, as planck 1.5
// requires). Fail loudly instead.
describe("runtime", () => {
  it("runs on Node >= 24 (the pinned `node` devDependency)", () => {
    const [major] = process.versions.node.split(".").map(Number);
    expect(major).toBeGreaterThanOrEqual(24);
  });
});
