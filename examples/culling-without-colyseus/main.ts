// Anti-wallhack culling for a server of your own (any transport, no Colyseus): `ViewCulling` says which
// entities each client may receive; you send those. Two players either side of a wall, a scout who
// respawns between two ticks, a radar ping. Run it: `npx tsx examples/culling-without-colyseus/main.ts`.
import { ViewCulling } from "sightline/culling";
import { Occluders } from "sightline/occluders";

const TICK = 1 / 20;
const occluders = new Occluders();
occluders.addRectangle(10, 0, 1, 30); // a wall from y = 0 to 30, nothing sees across it

// What each client holds: your own per-client interest sets, kept by the culling's listeners.
const held = new Map<string, Set<string>>([["west", new Set()], ["east", new Set()]]);
const log: string[] = [];
const culling = new ViewCulling({
  occluders, tickSeconds: TICK, maxSpeed: 6,
  onAdd: (client, id) => {
    held.get(client)!.add(id);
    log.push(`${client} +${id}`);
  },
  onRemove: (client, id) => {
    held.get(client)!.delete(id);
    log.push(`${client} -${id}`);
  },
});
culling.addEntity("west", { x: 4, y: 10, radius: 0.4, team: "west", character: true });
culling.addEntity("east", { x: 16, y: 10, radius: 0.4, team: "east", character: true });
culling.addEntity("scout", { x: 6, y: 14, radius: 0.4, team: "east", character: true });
culling.addClient("west", "west");
culling.addClient("east", "east");

/** What a server of your own would do at each send: serialize the held entities for each client. */
function send(label: string): void {
  console.log(`${label}: ${log.splice(0).join(" ") || "no change"} | west holds ${[...held.get("west")!].sort().join(",")}`);
}

culling.update(); // each tick, after your physics: move entities in, then update
send("tick 1");

// A respawn between two ticks (a message, a timer): declare it, and settle before anything is sent, so the
// west never receives the scout's new spot behind the wall.
culling.teleportEntity("scout", 18, 20);
culling.settle();
send("respawn, before the next tick's send");

culling.update();
send("tick 2");

// A radar ping: the east team's scout shows to the west for one second, whatever the wall says.
culling.reveal("scout", { team: "west", seconds: 1 });
for (let tick = 3; tick <= 30; tick++) {
  culling.update();
  if (log.length > 0) send(`tick ${tick}`);
}
