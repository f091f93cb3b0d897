import { describe, expect, it } from "vitest";
import { isLoopback, MAX_CLIENTS, MAX_DURATION_SECONDS, parseLoadTestArgs, UsageError, type LoadTestOptions } from "../../loadtest/options.js";

const parse = (...args: string[]) => parseLoadTestArgs(args) as LoadTestOptions;
const refusal = (...args: string[]) => {
  try {
    parseLoadTestArgs(args);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${args.join(" ")}`);
};

describe("load-test flags", () => {
  it("reads the issue's example run, and fills in the rest", () => {
    const o = parse("--endpoint", "ws://127.0.0.1:2567", "--room", "stealth", "--clients", "64", "--rooms", "4", "--duration", "60");
    expect(o).toMatchObject({ endpoint: "ws://127.0.0.1:2567", room: "stealth", clients: 64, rooms: 4, duration: 60, warmup: 10, ramp: 3.2, decodeSample: 1, local: false, serverStats: true });
    expect(parse("--endpoint", "http://localhost:3000").endpoint).toBe("ws://localhost:3000");
    expect(parseLoadTestArgs(["--help"])).toBe("help");
  });

  it("thin mode keeps a decoding sample, and an explicit sample wins", () => {
    expect(parse("--thin").decodeSample).toBe(0.05);
    expect(parse("--thin", "--decode-sample", "0.25").decodeSample).toBe(0.25);
  });

  it("lets a later flag override a preset, as npm run loadtest:capacity -- --clients 200 does", () => {
    expect(parse("--local", "--rooms", "12", "--clients", "300", "--clients", "200").clients).toBe(200);
  });

  it("refuses unknown flags and malformed numbers, naming the flag", () => {
    expect(refusal("--clients", "64", "--frobnicate")).toMatch(/frobnicate/);
    expect(refusal("--clients", "lots")).toMatch(/--clients must be a number/);
    expect(refusal("--clients", "2.5")).toMatch(/--clients must be a whole number/);
    expect(refusal("--duration", "")).toMatch(/--duration/);
    expect(refusal("--decode-sample", "1.5")).toMatch(/--decode-sample must be a number from 0 to 1/);
    expect(refusal("--culling", "maybe", "--local")).toMatch(/--culling must be on or off/);
    expect(refusal("--clients")).toMatch(/argument missing/);
  });

  it("bounds the run in count and time", () => {
    expect(refusal("--clients", String(MAX_CLIENTS + 1), "--rooms", "100")).toMatch(new RegExp(`--clients must be a number from 1 to ${MAX_CLIENTS}`));
    expect(refusal("--duration", String(MAX_DURATION_SECONDS + 1))).toMatch(new RegExp(`--duration must be a number from 1 to ${MAX_DURATION_SECONDS}`));
    expect(refusal("--clients", "0")).toMatch(/--clients/);
    expect(refusal("--clients", "100", "--rooms", "2")).toMatch(/more than 32 per room.*--rooms 4/);
    expect(refusal("--clients", "2", "--rooms", "3")).toMatch(/--rooms \(3\) cannot exceed --clients \(2\)/);
    expect(refusal("--duration", "10", "--warmup", "10")).toMatch(/--warmup .* shorter than --duration/);
  });

  it("refuses an endpoint that is not loopback unless --allow-remote", () => {
    expect(refusal("--endpoint", "ws://10.0.0.7:2567")).toMatch(/not loopback.*--allow-remote/);
    expect(refusal("--endpoint", "wss://game.example.com")).toMatch(/not loopback/);
    expect(parse("--endpoint", "wss://game.example.com", "--allow-remote").endpoint).toBe("wss://game.example.com");
    expect(refusal("--endpoint", "ftp://127.0.0.1")).toMatch(/ws, wss, http or https/);
    expect(refusal("--endpoint", "not a url")).toMatch(/must be a URL/);
  });

  it("keeps server set-up flags for --local, and --local away from --endpoint", () => {
    expect(refusal("--local", "--endpoint", "ws://127.0.0.1:2567")).toMatch(/--endpoint cannot be used with --local/);
    expect(refusal("--culling", "off")).toMatch(/need --local/);
    expect(parse("--local", "--culling", "off", "--audit", "0.5")).toMatchObject({ local: true, culling: "off", audit: 0.5, endpoint: "" });
  });

  it("several processes and their placement go with --local, and a guards list cycles over the rooms", () => {
    expect(parse("--local", "--processes", "2", "--placement", "rooms")).toMatchObject({ processes: 2, placement: "rooms" });
    expect(parse("--local")).toMatchObject({ processes: 1, placement: "load" });
    expect(parse("--guards", "8,128").guards).toEqual([8, 128]);
    expect(parse("--guards", "64").guards).toEqual([64]);
    expect(refusal("--processes", "2")).toMatch(/--processes .* needs --local/);
    expect(refusal("--local", "--processes", "9")).toMatch(/--processes must be a number from 1 to 8/);
    expect(refusal("--local", "--placement", "load")).toMatch(/--placement .* needs --processes 2/);
    expect(refusal("--local", "--processes", "2", "--placement", "random")).toMatch(/--placement must be load or rooms/);
    expect(refusal("--guards", "8,lots")).toMatch(/--guards must be a number/);
    expect(refusal("--local", "--processes", "2", "--server", "plain")).toMatch(/plain peer runs as one process/);
  });

  it("--server plain is refused without --local, and picks the peer server with it", () => {
    expect(parse("--local").server).toBe("stealth");
    expect(parse("--local", "--server", "plain")).toMatchObject({ local: true, server: "plain" });
    expect(refusal("--server", "plain")).toMatch(/--server .* needs --local/);
    expect(refusal("--server", "plain", "--endpoint", "ws://127.0.0.1:2567")).toMatch(/--server .* needs --local/);
    expect(refusal("--local", "--server", "colyseus")).toMatch(/--server must be stealth or plain \(got "colyseus"\)/);
    expect(refusal("--local", "--server")).toMatch(/argument missing/);
  });

  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.10.0.3", "localhost", "::1", "[::1]"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["10.0.0.1", "0.0.0.0", "127.0.0.1.example.com", "localhost.example.com", "example.com"]) expect(isLoopback(host), host).toBe(false);
  });
});

describe("the local server", () => {
  it("runs with the arguments of npm start, V8 flags included", async () => {
    const { readFileSync } = await import("node:fs");
    const { startArguments } = await import("../../loadtest/localServer.js");
    const start = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(["node", ...startArguments()].join(" ")).toBe(start);
    expect(startArguments().slice(-3)).toEqual(["--import", "tsx", "server/index.ts"]);
  });
});
