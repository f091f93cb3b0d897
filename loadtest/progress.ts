/** Seconds between lines when the output is not a terminal (a CI log wants lines, not a spinner). */
const PLAIN_EVERY_SECONDS = 5;

/**
 * The live one-line status of a run. On a terminal the line is rewritten in place every second (`\r`
 * and erase-to-end); otherwise a plain line is printed every few seconds. Written to stderr, so stdout
 * carries only the summary.
 */
export class ProgressLine {
  private lastPlainAt = -Infinity;
  private drawn = false;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** Shows `text` as of `elapsedSeconds` into the run. */
  update(elapsedSeconds: number, text: string): void {
    if (this.out.isTTY) {
      const width = this.out.columns || 120; // 0 when the terminal reports no size
      this.out.write(`\r${text.slice(0, Math.max(20, width - 1))}\x1b[K`);
      this.drawn = true;
    } else if (elapsedSeconds - this.lastPlainAt >= PLAIN_EVERY_SECONDS) {
      this.out.write(`${text}\n`);
      this.lastPlainAt = elapsedSeconds;
    }
  }

  /** Prints a message on its own line, under the live line. */
  note(text: string): void {
    this.finish();
    this.out.write(`${text}\n`);
  }

  /** Ends the live line, so whatever follows starts on a fresh one. */
  finish(): void {
    if (this.drawn) this.out.write("\n");
    this.drawn = false;
  }
}
