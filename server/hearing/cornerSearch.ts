/**
 * The shortest way from node 0 to node 1 over a few points, any two joined where `clear(u, v)` says the
 * straight leg between them is free (a visibility graph over corners, its edges asked lazily, only when
 * they could shorten a way), by A* guided by `h` (each node's straight line to node 1), cut off at `bound`
 * meters. Returns the length, or Infinity; `from` then holds each settled node's predecessor on its best way.
 * `g` and `done` are work arrays of at least `n`. Dense (a scan for the next node), as the graphs are a
 * few dozen nodes at most. Both the hearing's way round the pieces in the way and the audit's exact
 * answer search this way; they differ in the corners they offer and what a clear leg means.
 * @internal
 */
export function searchCorners(
  n: number, x: ArrayLike<number>, y: ArrayLike<number>, h: ArrayLike<number>, bound: number,
  clear: (u: number, v: number) => boolean,
  g: Float64Array, done: Uint8Array, from: Int32Array,
): number {
  for (let i = 0; i < n; i++) {
    g[i] = Infinity;
    done[i] = 0;
  }
  g[0] = 0;
  for (;;) {
    let u = -1;
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      if (done[i] === 1 || g[i] === Infinity) continue;
      const f = g[i]! + h[i]!;
      if (f < best) {
        best = f;
        u = i;
      }
    }
    if (u < 0 || best > bound) return Infinity;
    if (u === 1) return g[1]!;
    done[u] = 1;
    const ux = x[u]!;
    const uy = y[u]!;
    for (let v = 1; v < n; v++) {
      if (done[v] === 1) continue;
      const d = g[u]! + Math.sqrt((x[v]! - ux) ** 2 + (y[v]! - uy) ** 2);
      // No better than the way to node 1 already found, or beyond the bound: not worth asking about.
      if (d >= g[v]! || d + h[v]! > bound || d + h[v]! >= g[1]!) continue;
      if (!clear(u, v)) continue;
      g[v] = d;
      from[v] = u;
    }
  }
}
