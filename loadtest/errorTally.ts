/** What can go wrong for a bot. Any of these makes the run fail (exit 1). */
export type ErrorKind =
  /** The server closed on a joined bot without it asking (not 4000, not the run's own end). */
  | "dropped"
  /** The server sent an `error` message: something a bot sent was refused. */
  | "serverError"
  /** The server sent a message a bot cannot read (a `noise` that is not an array). */
  | "badMessage"
  /** A ping went unanswered for 5 s. */
  | "pingTimeout"
  /** A bot's leave was not confirmed within 10 s at the end. */
  | "leaveTimeout"
  /** The SDK reported an error on a joined room. */
  | "roomError"
  /** A bug of the bot itself (its tick threw). */
  | "bot";

/** Errors by kind, with the first few messages kept for the report. */
export class ErrorTally {
  readonly counts: Record<ErrorKind, number> = { dropped: 0, serverError: 0, badMessage: 0, pingTimeout: 0, leaveTimeout: 0, roomError: 0, bot: 0 };
  readonly examples: string[] = [];

  add(kind: ErrorKind, detail: string): void {
    this.counts[kind]++;
    if (this.examples.length < 10) this.examples.push(`${kind}: ${detail}`);
  }

  get total(): number {
    let n = 0;
    for (const k in this.counts) n += this.counts[k as ErrorKind];
    return n;
  }
}
