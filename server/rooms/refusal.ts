import { ErrorCode, ServerError } from "@colyseus/core";

/** Longest text a refusal or an `error` message carries back to a client, characters. */
export const MAX_ANSWER_CHARS = 300;
/** Longest rendering of one client-sent value inside such a text, characters. */
const MAX_ECHO_CHARS = 48;

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

/**
 * A short, safe rendering of a value a client sent, for an answer that quotes it. Never calls the value's
 * own methods (a payload like `{ toString: 0 }` makes `String(value)` throw) and never renders more than
 * {@link MAX_ECHO_CHARS} characters, however large the value.
 */
export function echo(value: unknown): string {
  switch (typeof value) {
    case "string":
      return bounded(JSON.stringify(value.slice(0, MAX_ECHO_CHARS)), MAX_ECHO_CHARS);
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return bounded(`${value.toString()}n`, MAX_ECHO_CHARS);
    case "object":
      if (value === null) return "null";
      return Array.isArray(value) ? `an array (${value.length} items)` : "an object";
    default:
      return `a ${typeof value}`;
  }
}
