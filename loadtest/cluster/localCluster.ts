import { LocalServer } from "../localServer.js";
import { RedisServer } from "./redisServer.js";

/** One server process of a {@link LocalCluster}. */
export interface ClusterMember {
  server: LocalServer;
  /** Its Colyseus process id (the `processId` in Redis and in room listings). */
  processId: string;
  /** `ws://127.0.0.1:<port>`. */
  endpoint: string;
}

/**
 * A real Redis and N stealth server processes sharing it (Colyseus's Redis presence and driver), all on
 * loopback: what `npm run loadtest:local -- --processes N` and the scale-out tests run against.
 */
export class LocalCluster {
  private constructor(
    readonly redis: RedisServer,
    readonly members: ClusterMember[],
  ) {}

  /**
   * Starts Redis, then `processes` servers one after the other (each with `env` plus REDIS_URL).
   * Rejects, having stopped what it started, if any of them does not come up.
   */
  static async start(processes: number, env: Record<string, string> = {}): Promise<LocalCluster> {
    if (!(Number.isInteger(processes) && processes >= 1 && processes <= 16)) throw new RangeError(`processes must be an integer in 1..16 (got ${processes})`);
    const redis = await RedisServer.start();
    const members: ClusterMember[] = [];
    try {
      for (let i = 0; i < processes; i++) members.push(await LocalCluster.member(await LocalServer.start({ ...env, REDIS_URL: redis.url })));
    } catch (err) {
      await Promise.all(members.map((m) => m.server.stop()));
      await redis.stop();
      throw err;
    }
    return new LocalCluster(redis, members);
  }

  /** Adds one more process to the cluster. */
  async add(env: Record<string, string> = {}): Promise<ClusterMember> {
    const member = await LocalCluster.member(await LocalServer.start({ ...env, REDIS_URL: this.redis.url }));
    this.members.push(member);
    return member;
  }

  /** Stops every process that is still running (SIGTERM: a graceful shutdown), then Redis. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.server.stop()));
    await this.redis.stop();
  }

  /** Last resort when this process is exiting anyway. */
  killNow(): void {
    for (const m of this.members) m.server.killNow();
  }

  private static member(server: LocalServer): ClusterMember {
    const m = /scale-out: process (\S+) at/.exec(server.lastOutput());
    if (m === null) {
      server.killNow();
      throw new Error(`the server did not report its process id:\n${server.lastOutput()}`);
    }
    return { server, processId: m[1]!, endpoint: server.endpoint };
  }
}
