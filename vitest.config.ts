import { defineConfig } from "vitest/config";

export default defineConfig({
  // `sightline`, `sightline/occluders`, ... resolve to the library's source through tsconfig.json's paths,
  // as they do under tsx and esbuild: tests, examples and the demo import the library by its public names.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/**/*.test.ts"],
    // @colyseus/testing's boot() always binds port 2568, so two room test files in parallel collide.
    fileParallelism: false,
    testTimeout: 20_000,
  },
});
