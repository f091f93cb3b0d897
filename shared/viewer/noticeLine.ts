/// <reference lib="dom" />

/** How long a notice stays, ms: long enough to read a sentence. */
const NOTICE_MS = 6000;

/**
 * The line under the status that says why a request did nothing: the server's `error` messages (a door
 * out of reach, no grenade left, a throw too far) and the page's own refusals (no door near). The newest
 * replaces the last; each goes after a few seconds. The server answers at most one error per code per
 * second, so a refusal repeated within the second may go unsaid.
 */
export class NoticeLine {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly line: HTMLElement) {}

  /** @param source "server" for the room's answers, "page" for what the page refused itself */
  show(text: string, source: "server" | "page"): void {
    clearTimeout(this.timer);
    this.line.textContent = text;
    this.line.dataset.source = source;
    this.line.hidden = false;
    this.timer = setTimeout(() => {
      this.line.hidden = true;
      this.line.textContent = "";
    }, NOTICE_MS);
  }
}
