/**
 * For a promise kept only to chain the next task after it (a serialising queue): its failure already
 * reaches the caller, who awaits the same run and gets the error. The copy kept for chaining must not
 * fail the next task nor raise an unhandled rejection, so there the error is rightly dropped.
 */
export function reportedToCaller(_err: unknown): void {
  return undefined;
}
