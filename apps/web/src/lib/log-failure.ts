/**
 * The browser's record of a failure the screen does not show in full (a background refresh, a copy to
 * the clipboard, a toast that names no cause): the console keeps what and why, for support to read.
 */
export function logFailure(what: string, err: unknown, context: Record<string, unknown> = {}): void {
  console.warn(`[atende] ${what}`, context, err);
}
