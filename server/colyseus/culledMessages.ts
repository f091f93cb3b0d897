import { getMessageBytes, Protocol, type Client, type ISendOptions } from "@colyseus/core";
import { fail, within } from "../../shared/validation/rangeChecks.js";
import type { CulledSendOptions } from "./pluginTypes.js";

const AFTER_PATCH: ISendOptions = Object.freeze({ afterNextPatch: true });
/** Messages kept per entity for catching up; older ones are dropped first. */
const CATCH_UP_PER_ENTITY = 32;

/** What the router asks of the plugin. @internal */
export interface MessageViews {
  /** Sessions whose views are kept (clients with a character). */
  sessions(): Iterable<string>;
  /** Whether the session's view holds the entity now. */
  holds(sessionId: string, entityId: string): boolean;
  /** The connected client of a session, or undefined while it is away (dropped, reconnecting). */
  clientOf(sessionId: string): Client | undefined;
}

interface Pending {
  about: readonly string[];
  bytes: Uint8Array;
  except: ReadonlySet<string> | undefined;
  /** `performance.now()` until which a session that gains every entity of `about` still gets it; 0: never. */
  catchUpUntil: number;
  /** Sessions that got it (only tracked for messages kept for catching up). */
  sentTo: Set<string> | undefined;
}

/** Counts of the culled-message router, since the room started. */
export interface MessageCounts {
  /** Deliveries: one per message per client that received it. */
  sent: number;
  /** Messages not delivered to a client with a view because its view did not hold what they were about. */
  withheld: number;
  /** Of `sent`, the deliveries made on catching up (the entity entered the view after the message). */
  caughtUp: number;
}

/**
 * Routes messages about entities to the clients whose views hold them. A message is queued when the
 * room sends it and resolved just before the next patch, once that patch's views are decided: it goes to
 * each client whose view then holds every entity it is about, staged after the patch (`afterNextPatch`),
 * so it always lands after the state that introduces the entity, never before.
 *
 * A client whose view gains the entity later gets the message only if it was sent with a catch-up window
 * and the window is still open (a gunshot heard a moment ago); otherwise it is dropped for that client.
 * @internal
 */
export class CulledMessages {
  readonly counts: MessageCounts = { sent: 0, withheld: 0, caughtUp: 0 };
  private queue: Pending[] = [];
  private spare: Pending[] = [];
  /** Messages still open for catching up, by each entity they are about. */
  private readonly recent = new Map<string, Pending[]>();

  constructor(private readonly views: MessageViews) {}

  /**
   * `SightlinePlugin.sendToViewersOf`: checks what it is given (a RangeError naming the field, nothing
   * queued) and queues it.
   */
  sendAbout(about: string | readonly string[], type: string | number, payload: unknown, options: CulledSendOptions, isEntity: (id: string) => boolean): void {
    const ids = typeof about === "string" ? [about] : [...about];
    if (ids.length === 0) fail("SightlinePlugin.sendToViewersOf about", "must name at least one entity", about);
    for (const id of ids) if (!isEntity(id)) fail("SightlinePlugin.sendToViewersOf about", "is not an entity", id);
    const catchUp = within("CulledSendOptions.catchUpSeconds", options.catchUpSeconds ?? 0, 0, 10, "seconds");
    const except = options.except === undefined ? undefined : new Set((Array.isArray(options.except) ? (options.except as readonly Client[]) : [options.except as Client]).map((c) => c.sessionId));
    this.send(ids, type, payload, except, catchUp * 1000, performance.now());
  }

  /** Queues a message about `about` (every id must be in a view for the message to reach it). */
  send(about: readonly string[], type: string | number, payload: unknown, except: ReadonlySet<string> | undefined, catchUpMs: number, now: number): void {
    const bytes = getMessageBytes.raw(Protocol.ROOM_DATA, type, payload);
    const pending: Pending = { about, bytes, except, catchUpUntil: catchUpMs > 0 ? now + catchUpMs : 0, sentTo: catchUpMs > 0 ? new Set() : undefined };
    this.queue.push(pending);
    if (pending.catchUpUntil > 0) {
      for (const id of about) {
        let list = this.recent.get(id);
        if (list === undefined) this.recent.set(id, (list = []));
        if (list.length >= CATCH_UP_PER_ENTITY) list.shift();
        list.push(pending);
      }
    }
  }

  /** Resolves the queued messages against the views of the coming patch (call just before it). */
  flush(now: number): void {
    if (this.queue.length > 0) {
      // Swapped first: a message sent while delivering waits for the next patch.
      const queue = this.queue;
      this.queue = this.spare;
      this.spare = queue;
      for (const m of queue) this.deliver(m);
      queue.length = 0;
    }
    if (this.recent.size > 0) this.expire(now);
  }

  /** The session's view just gained `entityId`: catch it up on the open messages about it. */
  entered(sessionId: string, entityId: string, now: number): void {
    const list = this.recent.get(entityId);
    if (list === undefined) return;
    const client = this.views.clientOf(sessionId);
    if (client === undefined) return;
    for (const m of list) {
      // Still queued: the flush delivers it with the rest.
      if (m.catchUpUntil <= now || m.sentTo!.has(sessionId) || this.queue.includes(m)) continue;
      if (m.except?.has(sessionId) || !this.holdsAll(sessionId, m.about, entityId)) continue;
      m.sentTo!.add(sessionId);
      client.enqueueRaw(m.bytes, AFTER_PATCH);
      this.counts.sent++;
      this.counts.caughtUp++;
    }
  }

  /** Forgets what a session received (it left). */
  forget(sessionId: string): void {
    for (const list of this.recent.values()) for (const m of list) m.sentTo?.delete(sessionId);
  }

  /** Drops whatever is about an entity that no longer exists. */
  dropEntity(entityId: string): void {
    this.recent.delete(entityId);
  }

  private deliver(m: Pending): void {
    for (const sessionId of this.views.sessions()) {
      if (m.except?.has(sessionId)) continue;
      if (!this.holdsAll(sessionId, m.about, undefined)) {
        this.counts.withheld++;
        continue;
      }
      const client = this.views.clientOf(sessionId);
      if (client === undefined) continue;
      m.sentTo?.add(sessionId);
      client.enqueueRaw(m.bytes, AFTER_PATCH);
      this.counts.sent++;
    }
  }

  /** Whether the session's view holds every id of `about` (`entering` is being added now, so it counts). */
  private holdsAll(sessionId: string, about: readonly string[], entering: string | undefined): boolean {
    for (const id of about) if (id !== entering && !this.views.holds(sessionId, id)) return false;
    return true;
  }

  private expire(now: number): void {
    for (const [id, list] of this.recent) {
      let keep = 0;
      for (const m of list) if (m.catchUpUntil > now) list[keep++] = m;
      list.length = keep;
      if (keep === 0) this.recent.delete(id);
    }
  }
}
