import type { Application } from "express";
import { describe, expect, it, vi } from "vitest";

// The bundler fails as it would on an install without @colyseus/sdk (a devDependency).
vi.mock("../../server/viewer/pageBundle.js", async (original) => ({
  ...(await original<typeof import("../../server/viewer/pageBundle.js")>()),
  viewerScript: () => Promise.reject(new Error('Could not resolve "@colyseus/sdk"')),
}));
const { mountViewer } = await import("../../server/viewer/viewerRoutes.js");

type Handler = (req: unknown, res: unknown) => void;

/** Calls a mounted route with a response that records what it was told. */
function request(routes: Map<string, Handler>, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    let status = 200;
    const res = {
      status(code: number) { status = code; return res; },
      type() { return res; },
      set() { return res; },
      send(body: string) { resolve({ status, body }); return res; },
    };
    routes.get(path)!({}, res);
  });
}

describe("the viewer's routes", () => {
  it("answer 503 with the bundler's reason when the page cannot be built, and log it once", async () => {
    const routes = new Map<string, Handler>();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    mountViewer({ get: (path: string, handler: Handler) => routes.set(path, handler) } as unknown as Application);
    expect([...routes.keys()].sort()).toEqual(["/", "/viewer.js", "/viewer.js.map"]);
    for (const path of routes.keys()) {
      const answer = await request(routes, path);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatch(/viewer page is unavailable: Could not resolve "@colyseus\/sdk"/);
    }
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toMatch(/viewer page unavailable/);
    logged.mockRestore();
  });
});
