import { defineConfig } from "vitest/config";

/**
 * Test files that start a server, a browser, Redis or a child process (tsc, the CLI, `npm start`). They
 * make up the integration layer; every other file is in the unit layer, which a setup file holds to that.
 */
const INTEGRATION = [
  "test/colyseus/noisesOnTheWire.test.ts",
  "test/colyseus/randomizedAudit.test.ts",
  "test/colyseus/sendNoiseMisuse.test.ts",
  "test/colyseus/sendTiming.test.ts",
  "test/colyseus/sightlinePlugin.test.ts",
  "test/rooms/unseenGuards.test.ts",
  "test/colyseus/teamGames.test.ts",
  "test/examples/captureTheFlag.test.ts",
  "test/examples/cullingRoom.test.ts",
  "test/examples/fogOfWar.test.ts",
  "test/fov/exploredRoom.test.ts",
  "test/loadtest/cli.test.ts",
  "test/loadtest/levelPlay.test.ts",
  "test/loadtest/peersCommand.test.ts",
  "test/loadtest/plainPeer.test.ts",
  "test/loadtest/serverFigures.test.ts",
  "test/package/consumer.test.ts",
  "test/rooms/culling.test.ts",
  "test/rooms/doorsOnTheWire.test.ts",
  "test/rooms/fairnessOnTheWire.test.ts",
  "test/rooms/frontDoor.test.ts",
  "test/rooms/poseHistory.test.ts",
  "test/rooms/hostile.test.ts",
  "test/rooms/hostileClients.test.ts",
  "test/rooms/roomCreation.test.ts",
  "test/rooms/server.test.ts",
  "test/rooms/stealthRoom.test.ts",
  "test/rooms/stealthRoomHygiene.test.ts",
  "test/scaleOut/behindProxy.test.ts",
  "test/scaleOut/drain.test.ts",
  "test/scaleOut/redisRestart.test.ts",
  "test/scaleOut/rollingRestart.test.ts",
  "test/scaleOut/shutdownWithoutRedis.test.ts",
  "test/scaleOut/twoProcesses.test.ts",
  "test/typecheck.test.ts",
  "test/viewer/doorsAndSmoke.test.ts",
  "test/viewer/noises.test.ts",
  "test/viewer/whySpotted.test.ts",
  "test/viewer/spectators.test.ts",
  "test/viewer/viewerPage.test.ts",
];

export default defineConfig({
  // `sightline`, `sightline/occluders`, ... resolve to the library's source through tsconfig.json's paths,
  // as they do under tsx and esbuild: tests, examples and the demo import the library by its public names.
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    // Two files at a time whatever the machine (vitest would take one on two cores): most integration
    // time is spent waiting on sockets, child processes and the rooms' own clocks, not on the CPU.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // The library and pure logic: modules are loaded once per worker and shared by its files.
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: INTEGRATION, isolate: false, setupFiles: ["test/fixtures/unitLayer.ts"] },
      },
      {
        extends: true,
        // A process per file: each room test file boots its own Colyseus server (on a port of its own).
        test: { name: "integration", include: INTEGRATION },
      },
    ],
  },
});
