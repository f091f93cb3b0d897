import { schema, t } from "@colyseus/schema";

/**
 * The plain peer room's state: the stealth room's players and guards with the same fields, but no view
 * tags anywhere, so Colyseus broadcasts the whole state to every client. Awareness meters, detection
 * events and explored tiles are left out: they exist only because of vision.
 *
 * The NPCs sit under `guards` with the fields of a stealth guard because the load-test bots read them
 * there (blunderers walk at the nearest one); their cone and alert fields never change here, they only keep
 * a client's full state the shape of a stealth room's.
 */
export const PlainPlayer = schema({
  x: t.float32().default(0),
  y: t.float32().default(0),
  facing: t.float32().default(0),
  crouch: t.boolean().default(false),
  team: t.string().default("infiltrators"),
  caught: t.uint16().default(0),
  escapes: t.uint16().default(0),
  /** Seq of the last input frame simulated, as the stealth room acknowledges it. */
  ack: t.uint32().default(0),
}, "PlainPlayer");
export type PlainPlayer = InstanceType<typeof PlainPlayer>;

export const PlainNpc = schema({
  x: t.float32().default(0),
  y: t.float32().default(0),
  facing: t.float32().default(0),
  fov: t.float32().default(0),
  range: t.float32().default(0),
  alert: t.string().default("idle"),
  activity: t.string().default("patrol"),
}, "PlainNpc");
export type PlainNpc = InstanceType<typeof PlainNpc>;

export const PlainState = schema({
  map: t.string().default(""),
  tick: t.uint32().default(0),
  players: t.map(PlainPlayer),
  guards: t.map(PlainNpc),
}, "PlainState");
export type PlainState = InstanceType<typeof PlainState>;
