// Minimal reproduction: a room plugin's onLeave is never called on the first room of a class that
// defines onUncaughtException. Run from the repository root: `npx node docs/upstream/plugin-hooks-first-room/repro.mjs`.
import { defineRoom, defineServer, definePlugins, Room, RoomPlugin } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { Client } from "@colyseus/sdk";

const calls = [];

class LeavePlugin extends RoomPlugin {
  pluginName = "leaves";
  onLeave(client) {
    calls.push(`plugin onLeave in room ${this.room.roomId}`);
  }
}

class PluggedRoom extends Room {
  plugins = definePlugins([new LeavePlugin()]);
  onLeave() {}
  onUncaughtException(err) {
    console.error(err);
  }
}

const server = defineServer({ transport: new WebSocketTransport(), rooms: { plugged: defineRoom(PluggedRoom) }, greet: false });
await server.listen(2590, "127.0.0.1");
const sdk = new Client("http://127.0.0.1:2590");
for (const attempt of ["first room of the class", "second room of the class"]) {
  const room = await sdk.create("plugged");
  await room.leave();
  await new Promise((resolve) => setTimeout(resolve, 200));
  console.log(`${attempt}: plugin onLeave calls so far = ${calls.length}`);
}
await server.gracefullyShutdown(false);
process.exit(0);
