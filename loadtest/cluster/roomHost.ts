import type { Redis } from "ioredis";

/** The process hosting `roomId`, from Colyseus's room listings in Redis (undefined when it is not listed). */
export async function hostOf(redis: Redis, roomId: string): Promise<string | undefined> {
  const raw = await redis.hget("roomcaches", roomId);
  return raw === null ? undefined : (JSON.parse(raw) as { processId: string }).processId;
}
