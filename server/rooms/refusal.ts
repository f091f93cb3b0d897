import { ErrorCode, ServerError } from "@colyseus/core";

/** Longest text a refusal or an `error` message carries back to a client, characters. */
export const MAX_ANSWER_CHARS = 300;

/**
 * A join or create the room turns down on purpose (bad options): answered to the client, not a bug.
 * The message is cut to {@link MAX_ANSWER_CHARS}, because it may quote what the client sent and the answer
 * must stay small whatever the client sent (a large matchmaking answer can stall on a slow reader).
 */
export class Refusal extends ServerError {
  constructor(message: string) {
    super(ErrorCode.APPLICATION_ERROR, bounded(message));
  }
}

/** `text` cut to `max` characters, with an ellipsis when it was longer. */
export function bounded(text: string, max = MAX_ANSWER_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
