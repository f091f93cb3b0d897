/**
 * The simulator's agenda: events by simulated time, and events due at the same time in the order they were
 * scheduled, so a run never depends on how the heap happens to break a tie.
 */
export class EventQueue<E> {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly events: E[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.events.length;
  }

  /** Schedules `event` at `at` (simulated ms). */
  push(at: number, event: E): void {
    let i = this.events.length;
    this.times.push(at);
    this.seqs.push(this.nextSeq++);
    this.events.push(event);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** When the next event is due, ms; Infinity when none is. */
  peekTime(): number {
    return this.events.length === 0 ? Infinity : this.times[0]!;
  }

  /** Takes the next event off the agenda (undefined when none is left). */
  pop(): E | undefined {
    const n = this.events.length;
    if (n === 0) return undefined;
    const top = this.events[0]!;
    this.swap(0, n - 1);
    this.times.pop();
    this.seqs.pop();
    this.events.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n - 1 && this.less(l, m)) m = l;
      if (r < n - 1 && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a]!;
    const tb = this.times[b]!;
    return ta < tb || (ta === tb && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    const t = this.times[a]!;
    this.times[a] = this.times[b]!;
    this.times[b] = t;
    const s = this.seqs[a]!;
    this.seqs[a] = this.seqs[b]!;
    this.seqs[b] = s;
    const e = this.events[a]!;
    this.events[a] = this.events[b]!;
    this.events[b] = e;
  }
}
