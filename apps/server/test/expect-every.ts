/**
 * Every item of `list` passes `ok`, and there is at least one: `expect(list.every(ok)).toBe(true)`
 * passes on an empty list, so a check that found nothing to look at would say nothing was wrong
 * (lint forbids that form in tests). The failure names the offending items.
 */
export function expectEvery<T>(list: readonly T[], ok: (item: T) => unknown): void {
  if (list.length === 0) throw new Error("expectEvery: the list is empty, so nothing was checked");
  const failing = list.filter((item) => !ok(item));
  if (failing.length) {
    throw new Error(`expectEvery: ${failing.length} of ${list.length} items fail the check: ${JSON.stringify(failing.slice(0, 5)).slice(0, 2000)}`);
  }
}
