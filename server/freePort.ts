import { createServer } from "node:net";

/**
 * A TCP port free on `host` now: the OS picks it for a probe that closes at once. A process that listens
 * right after gets it in practice (for a server whose address must be known before it listens, and for
 * tools that start one).
 * @default host "127.0.0.1"
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
