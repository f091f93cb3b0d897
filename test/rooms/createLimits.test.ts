import { describe, expect, it } from "vitest";
import { addressKey, CreateLimits, CreateRefusal, DEFAULT_CREATE_LIMITS } from "../../server/rooms/createLimits.js";
import { Refusal } from "../../server/rooms/refusal.js";

/** A clock the test moves by hand, ms. */
function manualClock(start = 1000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** What `admit` threw, or undefined when it let the room in. */
function refusalOf(limits: CreateLimits, address: string | undefined, room: object = {}): CreateRefusal | undefined {
  try {
    limits.admit(room, address);
    return undefined;
  } catch (err) {
    if (err instanceof CreateRefusal) return err;
    throw err;
  }
}

describe("CreateLimits", () => {
  it("defaults to 64 rooms per process and 10 creates per address per minute", () => {
    const limits = new CreateLimits();
    expect(limits.maxRooms).toBe(DEFAULT_CREATE_LIMITS.maxRooms);
    expect(limits.maxRooms).toBe(64);
    expect(limits.createsPerAddressPerMinute).toBe(10);
  });

  it("an address gets its burst of creates, then 429 with a retry hint, and one more create per refill interval", () => {
    const clock = manualClock();
    const limits = new CreateLimits({ createsPerAddressPerMinute: 10, now: clock.now });
    for (let i = 0; i < 10; i++) expect(refusalOf(limits, "203.0.113.7")).toBeUndefined();
    const refused = refusalOf(limits, "203.0.113.7")!;
    expect(refused).toBeInstanceOf(Refusal); // so the room reports it as a refusal, not as a bug
    expect(refused.code).toBe(429);
    expect(refused.message).toMatch(/too many rooms created from your address \(at most 10 per minute\)/);
    expect(refused.retryAfterSeconds).toBe(6);
    expect(limits.refusedAddressRate).toBe(1);
    // A refused attempt costs nothing: 6 s later (one refill interval) exactly one more create.
    clock.advance(5_999);
    expect(refusalOf(limits, "203.0.113.7")?.code).toBe(429);
    clock.advance(1);
    expect(refusalOf(limits, "203.0.113.7")).toBeUndefined();
    expect(refusalOf(limits, "203.0.113.7")?.code).toBe(429);
  });

  it("another address is not held back by a busy one", () => {
    const limits = new CreateLimits({ createsPerAddressPerMinute: 2, now: manualClock().now });
    expect(refusalOf(limits, "198.51.100.1")).toBeUndefined();
    expect(refusalOf(limits, "198.51.100.1")).toBeUndefined();
    expect(refusalOf(limits, "198.51.100.1")?.code).toBe(429);
    expect(refusalOf(limits, "198.51.100.2")).toBeUndefined();
  });

  it("once the window has passed the address has its whole burst back, and is forgotten", () => {
    const clock = manualClock();
    const limits = new CreateLimits({ createsPerAddressPerMinute: 3, now: clock.now });
    for (let i = 0; i < 3; i++) limits.admit({}, "192.0.2.9");
    expect(refusalOf(limits, "192.0.2.9")?.code).toBe(429);
    expect(limits.trackedAddresses).toBe(1);
    clock.advance(60_000);
    expect(limits.trackedAddresses).toBe(0);
    for (let i = 0; i < 3; i++) expect(refusalOf(limits, "192.0.2.9")).toBeUndefined();
    expect(refusalOf(limits, "192.0.2.9")?.code).toBe(429);
  });

  it("memory stays bounded: addresses are forgotten a minute after their last create, and at most maxTrackedAddresses are held", () => {
    const clock = manualClock();
    const limits = new CreateLimits({ createsPerAddressPerMinute: 5, maxTrackedAddresses: 100, maxRooms: 100_000, now: clock.now });
    for (let i = 0; i < 100; i++) {
      limits.admit({}, `10.0.${i >> 8}.${i & 255}`);
      clock.advance(100);
    }
    expect(limits.trackedAddresses).toBe(100);
    // Full of live addresses: a new one is refused (not remembered), the known ones still work.
    const full = refusalOf(limits, "10.9.9.9")!;
    expect(full.code).toBe(429);
    expect(full.message).toMatch(/too many addresses/);
    expect(refusalOf(limits, "10.0.0.99")).toBeUndefined();
    // The oldest refills first and makes room for the new one; after a minute of quiet nothing is held.
    clock.advance(60_000 - 100 * 100 + 50);
    expect(refusalOf(limits, "10.9.9.9")).toBeUndefined();
    expect(limits.trackedAddresses).toBe(100);
    expect(refusalOf(limits, "10.9.9.10")?.code).toBe(429);
    clock.advance(60_000);
    expect(limits.trackedAddresses).toBe(0);
  });

  it("rooms are capped per process whoever creates them, and a released room frees its place", () => {
    const limits = new CreateLimits({ maxRooms: 3, now: manualClock().now });
    const rooms = [{}, {}, {}];
    for (const room of rooms) limits.admit(room, undefined);
    limits.admit(rooms[0]!, undefined); // the same room twice counts once
    expect(limits.roomCount).toBe(3);
    const refused = refusalOf(limits, "192.0.2.1")!;
    expect(refused.code).toBe(503);
    expect(refused.message).toMatch(/maximum of 3 rooms/);
    expect(limits.refusedRoomCap).toBe(1);
    expect(limits.trackedAddresses).toBe(0); // refused by the cap before its address was charged
    limits.release(rooms[1]!);
    limits.release(rooms[1]!);
    expect(limits.roomCount).toBe(2);
    expect(refusalOf(limits, "192.0.2.1")).toBeUndefined();
    expect(limits.figures()).toMatchObject({ rooms: 3, maxRooms: 3, refusedRoomCap: 1, refusedAddressRate: 0, trackedAddresses: 1 });
  });

  it("IPv6 addresses of one /64 share a bucket; IPv4-mapped addresses count as their IPv4", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("not:an::address::")).toBe("not:an::address::");
    const limits = new CreateLimits({ createsPerAddressPerMinute: 1, now: manualClock().now });
    expect(refusalOf(limits, "2001:db8:1:2::10")).toBeUndefined();
    expect(refusalOf(limits, "2001:db8:1:2:ffff::99")?.code).toBe(429);
    expect(refusalOf(limits, "2001:db8:1:3::10")).toBeUndefined();
  });

  it("misuse is a RangeError naming the field", () => {
    expect(() => new CreateLimits({ maxRooms: 0 })).toThrow(new RangeError("CreateLimitsOptions.maxRooms must be an integer >= 1 (got 0)"));
    expect(() => new CreateLimits({ createsPerAddressPerMinute: 1.5 })).toThrow(/^CreateLimitsOptions\.createsPerAddressPerMinute must be an integer >= 1 \(got 1\.5\)/);
    expect(() => new CreateLimits({ maxTrackedAddresses: Number.NaN })).toThrow(/^CreateLimitsOptions\.maxTrackedAddresses must be an integer >= 1 \(got NaN\)/);
    expect(() => new CreateLimits({ maxRooms: "8" as unknown as number })).toThrow(RangeError);
    expect(() => new CreateLimits({ now: 5 as unknown as () => number })).toThrow(/^CreateLimitsOptions\.now must be a function/);
  });
});
