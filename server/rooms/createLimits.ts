import { func, integer } from "../../shared/validation/rangeChecks.js";
import { Refusal } from "./refusal.js";

/** Defaults of {@link CreateLimits}. */
export const DEFAULT_CREATE_LIMITS = Object.freeze({
  maxRooms: 64,
  createsPerAddressPerMinute: 10,
  maxTrackedAddresses: 4096,
});

export interface CreateLimitsOptions {
  /**
   * Rooms this process may hold at once (created and not yet disposed), whoever asked for them. A create
   * beyond it is refused with 503. Every room ticks and simulates its guards whether or not anyone plays
   * in it, so this bounds what idle rooms can take from the playing ones.
   * @default 64
   */
  maxRooms?: number;
  /**
   * Room creates one client address may make per minute: a bucket of this many creates that refills
   * evenly over a minute (so a burst of this size, then one every `60 / n` seconds). A create beyond it is
   * refused with 429. Every attempt that reaches room creation counts, refused options included, since
   * the room was built to find out. IPv6 addresses count per /64, the block one subscriber holds.
   * @default 10
   */
  createsPerAddressPerMinute?: number;
  /**
   * Client addresses remembered at once. An address whose bucket has refilled is forgotten, so this only
   * fills when this many addresses created a room within the last minute; a new address is then refused
   * with 429 until the oldest ones refill (the room cap would be the next thing to run out anyway).
   * @default 4096
   */
  maxTrackedAddresses?: number;
  /**
   * Why no room may be created here at all right now, or undefined when they may (a process draining for a
   * restart): a create is then refused with 503 and this message.
   * @default never closed
   */
  closed?: () => string | undefined;
  /** Monotonic clock, milliseconds (injectable for tests). @default performance.now */
  now?: () => number;
}

/** A create turned down by {@link CreateLimits}: HTTP 503 (room cap) or 429 (address rate), message included. */
export class CreateRefusal extends Refusal {
  /** Seconds after which the same create could succeed (a hint; 0 when it depends on other rooms closing). */
  readonly retryAfterSeconds: number;

  constructor(status: 429 | 503, message: string, retryAfterSeconds: number) {
    super(message);
    // Colyseus answers a failed create with the error's `code` as the HTTP status and the SDK's
    // MatchMakeError code, so a refusal of capacity reads as what it is rather than as a bad option.
    this.code = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** One address's create bucket; reused for as long as the address is remembered. */
interface Bucket {
  /** Creates left, fractional while refilling. */
  tokens: number;
  /** When `tokens` was last brought up to date, ms on the limiter's clock. */
  at: number;
}

const MINUTE_MS = 60_000;

/**
 * Caps on room creation: rooms per process, and creates per client address per minute (a token bucket
 * per address). Without them anyone can POST `/matchmake/create/stealth` in a loop: each request builds a
 * room that ticks until its seat reservation expires, and a few dozen in a row stall the rooms people play
 * in.
 *
 * Call {@link admit} when a room is about to be built and {@link release} when it is disposed (or its
 * creation failed). Memory stays bounded: one small bucket per address that created within the last
 * minute, at most {@link CreateLimitsOptions.maxTrackedAddresses}, forgotten once refilled; no allocation
 * per admitted create besides a new address's bucket.
 */
export class CreateLimits {
  readonly maxRooms: number;
  readonly createsPerAddressPerMinute: number;
  readonly maxTrackedAddresses: number;
  /** Creates refused because the process held `maxRooms` rooms. */
  refusedRoomCap = 0;
  /** Creates refused because their address had used its creates for now. */
  refusedAddressRate = 0;
  /** Creates refused because the process was closed to new rooms (draining). */
  refusedClosed = 0;

  private readonly now: () => number;
  private readonly closed: () => string | undefined;
  /** Creates an address gets back per millisecond. */
  private readonly refillPerMs: number;
  private readonly rooms = new Set<object>();
  /** By address key, least recently touched first (every touch re-inserts), so pruning reads from the front. */
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: CreateLimitsOptions = {}) {
    this.maxRooms = integer("CreateLimitsOptions.maxRooms", options.maxRooms ?? DEFAULT_CREATE_LIMITS.maxRooms, 1);
    this.createsPerAddressPerMinute = integer("CreateLimitsOptions.createsPerAddressPerMinute", options.createsPerAddressPerMinute ?? DEFAULT_CREATE_LIMITS.createsPerAddressPerMinute, 1);
    this.maxTrackedAddresses = integer("CreateLimitsOptions.maxTrackedAddresses", options.maxTrackedAddresses ?? DEFAULT_CREATE_LIMITS.maxTrackedAddresses, 1);
    if (options.now !== undefined) func("CreateLimitsOptions.now", options.now, "() => milliseconds");
    this.now = options.now ?? (() => performance.now());
    if (options.closed !== undefined) func("CreateLimitsOptions.closed", options.closed, "() => reason | undefined");
    this.closed = options.closed ?? (() => undefined);
    this.refillPerMs = this.createsPerAddressPerMinute / MINUTE_MS;
  }

  /** Rooms admitted and not yet released. */
  get roomCount(): number {
    return this.rooms.size;
  }

  /** Addresses currently remembered (after pruning the ones whose bucket has refilled). */
  get trackedAddresses(): number {
    this.prune(this.now());
    return this.buckets.size;
  }

  /**
   * Lets `room` be built, or throws a {@link CreateRefusal}. `address` is the client address that asked
   * (undefined for rooms the server creates itself, which only the room cap applies to). Admitting the
   * same room twice counts it once.
   */
  admit(room: object, address: string | undefined): void {
    if (this.rooms.has(room)) return;
    const closed = this.closed();
    if (closed !== undefined) {
      this.refusedClosed++;
      throw new CreateRefusal(503, closed, 0);
    }
    if (this.rooms.size >= this.maxRooms) {
      this.refusedRoomCap++;
      throw new CreateRefusal(503, `this server holds its maximum of ${this.maxRooms} rooms; join an existing room or try again later`, 0);
    }
    if (address !== undefined) this.take(addressKey(address));
    this.rooms.add(room);
  }

  /** The room is gone (disposed, or its creation failed): it no longer counts. Safe to call more than once. */
  release(room: object): void {
    this.rooms.delete(room);
  }

  /** Figures for `/stats`. */
  figures(): { rooms: number; maxRooms: number; createsPerAddressPerMinute: number; trackedAddresses: number; refusedRoomCap: number; refusedAddressRate: number; refusedClosed: number } {
    return {
      rooms: this.rooms.size,
      maxRooms: this.maxRooms,
      createsPerAddressPerMinute: this.createsPerAddressPerMinute,
      trackedAddresses: this.trackedAddresses,
      refusedRoomCap: this.refusedRoomCap,
      refusedAddressRate: this.refusedAddressRate,
      refusedClosed: this.refusedClosed,
    };
  }

  /** Spends one create of `key`'s bucket, or throws. */
  private take(key: string): void {
    const now = this.now();
    this.prune(now);
    const cap = this.createsPerAddressPerMinute;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxTrackedAddresses) {
        this.refusedAddressRate++;
        const oldest = this.buckets.values().next().value as Bucket;
        throw new CreateRefusal(429, "too many addresses are creating rooms right now; try again shortly", retryAfter(MINUTE_MS - (now - oldest.at)));
      }
      bucket = { tokens: cap, at: now };
    } else {
      bucket.tokens = Math.min(cap, bucket.tokens + (now - bucket.at) * this.refillPerMs);
      bucket.at = now;
      this.buckets.delete(key);
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      this.refusedAddressRate++;
      throw new CreateRefusal(429, `too many rooms created from your address (at most ${cap} per minute); join an existing room or try again later`, retryAfter((1 - bucket.tokens) / this.refillPerMs));
    }
    bucket.tokens -= 1;
  }

  /** Forgets the addresses whose bucket has refilled (untouched for a minute): the same as never seen. */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at < MINUTE_MS) return;
      this.buckets.delete(key);
    }
  }
}

/**
 * The key an address is limited under: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its
 * /64 prefix, since one subscriber usually holds a whole /64 and could otherwise rotate through it.
 * Anything unparsable is its own key.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (!address.includes(":")) return address;
  const bare = address.split("%", 1)[0]!; // no zone index
  const halves = bare.split("::");
  if (halves.length > 2) return address;
  const head = halves[0] === "" ? [] : halves[0]!.split(":");
  const tail = halves.length === 1 || halves[1] === "" ? [] : halves[1]!.split(":");
  const groups = halves.length === 1 ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail];
  const prefix = groups.slice(0, 4);
  if (prefix.length < 4 || prefix.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return address;
  return `${prefix.map((g) => Number.parseInt(g, 16).toString(16)).join(":")}::/64`;
}

function retryAfter(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
