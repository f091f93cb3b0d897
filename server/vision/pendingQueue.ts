/**
 * Max-priority queue of pending observers for one tick: a binary heap of slots keyed by score, ties
 * broken by the older `freshAt` (the one that has waited longer) and then the lower slot, so the order
 * is deterministic. Backing arrays are kept between ticks: a steady-state tick allocates nothing.
 */
export class PendingQueue {
  private slots = new Int32Array(64);
  private scores = new Float64Array(64);
  private ages = new Float64Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  /** @param freshAt the tick the observer's results were last exact (older = waited longer). */
  push(slot: number, score: number, freshAt: number): void {
    if (this.size === this.slots.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(score, freshAt, slot, this.scores[parent]!, this.ages[parent]!, this.slots[parent]!)) break;
      this.slots[i] = this.slots[parent]!;
      this.scores[i] = this.scores[parent]!;
      this.ages[i] = this.ages[parent]!;
      i = parent;
    }
    this.slots[i] = slot;
    this.scores[i] = score;
    this.ages[i] = freshAt;
  }

  /** Removes and returns the slot that goes first; -1 when empty. */
  pop(): number {
    if (this.size === 0) return -1;
    const top = this.slots[0]!;
    const n = --this.size;
    if (n > 0) {
      const slot = this.slots[n]!;
      const score = this.scores[n]!;
      const age = this.ages[n]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && this.before(this.scores[r]!, this.ages[r]!, this.slots[r]!, this.scores[l]!, this.ages[l]!, this.slots[l]!)) c = r;
        if (!this.before(this.scores[c]!, this.ages[c]!, this.slots[c]!, score, age, slot)) break;
        this.slots[i] = this.slots[c]!;
        this.scores[i] = this.scores[c]!;
        this.ages[i] = this.ages[c]!;
        i = c;
      }
      this.slots[i] = slot;
      this.scores[i] = score;
      this.ages[i] = age;
    }
    return top;
  }

  /** The slot at heap position `i` (0 <= i < size), for walking what is left without popping. */
  slotAt(i: number): number {
    return this.slots[i]!;
  }

  private before(sa: number, fa: number, a: number, sb: number, fb: number, b: number): boolean {
    if (sa !== sb) return sa > sb;
    if (fa !== fb) return fa < fb;
    return a < b;
  }

  private grow(): void {
    const n = this.slots.length * 2;
    const slots = new Int32Array(n);
    const scores = new Float64Array(n);
    const ages = new Float64Array(n);
    slots.set(this.slots);
    scores.set(this.scores);
    ages.set(this.ages);
    this.slots = slots;
    this.scores = scores;
    this.ages = ages;
  }
}
