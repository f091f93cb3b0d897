import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // @colyseus/testing's boot() always binds port 2568, so two room test files in parallel collide.
    fileParallelism: false,
    testTimeout: 20_000,
  },
});
