/**
 * The one line every zod failure the demo reports becomes (client messages, join options): each issue
 * as `<path>: <message>`, joined by `; `. Typed by shape, not by zod, so it stays free of any import.
 */

/** zod issues as one line; `whole` names the value when an issue has no path (e.g. "payload", "options"). */
export function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }, whole: string): string {
  return error.issues.map((i) => `${i.path.map(String).join(".") || whole}: ${i.message}`).join("; ");
}
