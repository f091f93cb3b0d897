import { getMessageBytes, Protocol, type Client, type ISendOptions } from "@colyseus/core";
import { checkNoise, Hearing, type Noise } from "../hearing/hearing.js";
import { NoiseDelivery, type HeardNoiseMessage, type NoiseListener } from "../culling/noiseDelivery.js";
import { madeAtEmitter, SoundAudit } from "../culling/soundAudit.js";
import type { AuditCounts } from "../culling/cullingAudit.js";
import type { Occluders } from "../occluders/occluders.js";
import { fail, knownKeys, object } from "../../shared/validation/rangeChecks.js";
import type { EntityRecord, EntityRegistry } from "./entityRegistry.js";
import type { SessionViews } from "./sessionViews.js";

const AFTER_PATCH: ISendOptions = Object.freeze({ afterNextPatch: true });

/** Counts of the noise router, since the room started. */
export interface NoiseCounts {
  /** Noises sent with `sendNoise`. */
  noises: number;
  /** Deliveries: one per noise per client that heard it (several go in one message per patch). */
  delivered: number;
  /** Of those, deliveries that named the emitter (the client's view held it). */
  named: number;
}

interface Queued {
  noise: Noise;
  type: string | number;
  /** The emitter's team, unless its own team hears it too (`toEmitterTeam`). */
  skipTeam: string | undefined;
  whenHidden: boolean;
  sent: boolean;
}

/** Options of `SightlinePlugin.sendNoise`. */
export interface NoiseSendOptions {
  /**
   * Whether the emitter's own team hears it too. Default false: teammates hold the emitter in view
   * anyway, and play its footsteps from its movement; a noise is news to the other teams.
   */
  toEmitterTeam?: boolean;
  /**
   * Send it only to clients whose view lacks the emitter: for a noise a client can make up itself from
   * what it sees (the footsteps of a character it watches walk), so the wire carries only what it could
   * not know. Default false: a shout or a shot goes to every client that could hear it.
   */
  whenHidden?: boolean;
}

const SEND_OPTION_KEYS: readonly string[] = ["toEmitterTeam", "whenHidden"];

/**
 * Routes noises to the clients whose character's team could hear them, resolved just before each patch
 * (once the views are decided, so "is the emitter in view" is what that patch shows) and staged after
 * it, like culled messages. A caster gets every noise as it was.
 * @internal
 */
export class CulledNoises {
  readonly counts: NoiseCounts = { noises: 0, delivered: 0, named: 0 };
  private queue: Queued[] = [];
  private spare: Queued[] = [];
  private delivery: NoiseDelivery | null = null;
  private readonly listeners: NoiseListener[] = [];
  private readonly ears: { x: number; y: number }[] = [];
  /** Session -> what it heard of the type being delivered. */
  private readonly batches = new Map<string, HeardNoiseMessage[]>();
  private soundAudit: SoundAudit | null = null;
  /** Fraction of deliveries the audit checks, once it is on: the culling audit's sample. */
  auditSample: number;

  constructor(
    private readonly level: { occluders?: Occluders; hearing?: Hearing; audit?: boolean | { sample?: number } },
    private readonly entities: EntityRegistry,
    private readonly sessions: SessionViews,
    private readonly clientOf: (sessionId: string) => Client | undefined,
    private readonly auditOf: () => { readonly counts: AuditCounts; readonly failures: readonly string[] } | null,
  ) {
    this.auditSample = typeof level.audit === "object" ? level.audit.sample ?? 1 : 1;
  }

  /** The Hearing noises travel through: the one given, else one on the occluders, built on first use. */
  private hearing(): Hearing {
    if (this.level.hearing !== undefined) return this.level.hearing;
    if (this.level.occluders === undefined) fail("SightlineOptions.hearing", "is needed for sendNoise when there are no occluders", undefined);
    return (this.level.hearing = new Hearing(this.level.occluders));
  }

  /** The sound audit while the culling audit is on. */
  private audit(): SoundAudit | null {
    const audit = this.auditOf();
    if (audit === null || this.level.occluders === undefined) return null;
    return (this.soundAudit ??= new SoundAudit(this.level.occluders, audit.counts, audit.failures as string[], this.auditSample));
  }

  /** `SightlinePlugin.sendNoise`: checks it (a RangeError naming the field, nothing queued) and queues it. */
  send(noise: Noise, type: string | number, options: NoiseSendOptions = {}): void {
    checkNoise(noise);
    const emitter = this.entities.get(noise.emitter);
    if (emitter === undefined) fail("SightlinePlugin.sendNoise Noise.emitter", "is not an entity", noise.emitter);
    if (typeof type !== "string" && !(typeof type === "number" && Number.isInteger(type))) fail("SightlinePlugin.sendNoise type", "must be a message type (a string or an integer)", type);
    object("NoiseSendOptions", options);
    // A misspelt `whenhidden` would send the footsteps it meant to keep back.
    knownKeys("NoiseSendOptions", options, SEND_OPTION_KEYS);
    for (const name of ["toEmitterTeam", "whenHidden"] as const) {
      if (options[name] !== undefined && typeof options[name] !== "boolean") fail(`NoiseSendOptions.${name}`, "must be a boolean", options[name]);
    }
    // Where it will travel is settled now, so a room without occluders or a Hearing learns it here, not
    // at every patch after.
    this.hearing();
    const skipTeam = options.toEmitterTeam === true ? undefined : emitter.team;
    // A copy: the caller may reuse its noise object for the next one before the patch.
    this.queue.push({ noise: { x: noise.x, y: noise.y, loudness: noise.loudness, kind: noise.kind, emitter: noise.emitter }, type, skipTeam, whenHidden: options.whenHidden === true, sent: false });
    this.counts.noises++;
  }

  /**
   * Delivers the queued noises against the views of the coming patch (call just before it): per client
   * and message type, one message whose payload is the array of what it heard, in the order sent.
   */
  flush(): void {
    if (this.queue.length === 0) return;
    this.delivery ??= new NoiseDelivery(this.hearing());
    const queue = this.queue;
    this.queue = this.spare;
    this.spare = queue;
    // Whatever fails below, the noises of this patch are done with: a queue kept would grow every patch.
    try {
      this.deliverAll(queue);
    } finally {
      queue.length = 0;
      this.batches.clear();
    }
  }

  private deliverAll(queue: Queued[]): void {
    const listeners = this.listeners;
    listeners.length = 0;
    for (const r of this.entities.all()) if (r.character) listeners.push(r);
    const batches = this.batches;
    for (let i = 0; i < queue.length; i++) {
      if (queue[i]!.sent) continue;
      const type = queue[i]!.type;
      // Every noise of this type not sent yet (most steps have one type).
      for (let j = i; j < queue.length; j++) if (queue[j]!.type === type && !queue[j]!.sent) this.deliver(queue[j]!);
      for (const [sessionId, list] of batches) {
        this.clientOf(sessionId)?.enqueueRaw(getMessageBytes.raw(Protocol.ROOM_DATA, type, list), AFTER_PATCH);
      }
      batches.clear();
    }
  }

  private deliver(q: Queued): void {
    q.sent = true;
    const delivery = this.delivery!;
    const noise = q.noise;
    const heard = delivery.hear(noise, this.listeners, q.skipTeam);
    const emitterAt = this.entities.get(noise.emitter);
    // Seeing the emitter tells where it is, not where its noise was: a thrown stone lands out of sight.
    // The spot goes only with a noise made where the emitter stands.
    const spotTold = madeAtEmitter(noise, emitterAt);
    for (const session of this.sessions.sessions.values()) {
      // Most footsteps reach no team: only casters are left to tell.
      if ((!heard && session.role !== "caster") || this.clientOf(session.id) === undefined) continue;
      let message: HeardNoiseMessage | undefined;
      let character: EntityRecord | undefined;
      let holds = true;
      if (session.role === "caster") {
        message = { kind: noise.kind, level: 1, dir: 0, listener: "", emitter: noise.emitter, x: noise.x, y: noise.y };
      } else {
        character = this.entities.get(session.character!);
        if (character === undefined || (q.skipTeam !== undefined && character.team === q.skipTeam)) continue;
        // Its team's ear first: the view is asked about the emitter only for the few teams that heard.
        if (!delivery.heardBy(character.id, character.team)) continue;
        holds = this.sessions.has(session.id, noise.emitter);
        if (holds && q.whenHidden) continue;
        message = delivery.messageFor(character.id, character.team, holds && spotTold);
      }
      if (message === undefined) continue;
      let list = this.batches.get(session.id);
      if (list === undefined) this.batches.set(session.id, (list = []));
      list.push(message);
      this.counts.delivered++;
      if (message.emitter !== undefined) this.counts.named++;
      const audit = character === undefined ? null : this.audit();
      if (audit !== null && character !== undefined) audit.check(session.id, noise, message, this.earsOf(character), holds, emitterAt);
    }
  }

  /** Where the characters that hear for `character` are: its team's, or itself alone. */
  private earsOf(character: EntityRecord): readonly { x: number; y: number }[] {
    const ears = this.ears;
    ears.length = 0;
    for (const l of this.listeners) if (l.id === character.id || (character.team !== undefined && l.team === character.team)) ears.push(l);
    return ears;
  }
}
