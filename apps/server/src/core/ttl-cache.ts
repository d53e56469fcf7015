/**
 * Values read from the database and reused for a short while, for lookups on a hot path whose rows
 * rarely change (a webhook's business secrets, a phone number's connection). A pending read is
 * shared; a failed one is forgotten at once; the map is emptied when it grows past `maxEntries`.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { at: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    const entry = { at: Date.now(), value };
    this.entries.set(key, entry);
    // the caller awaits `value` and gets its error; this copy only forgets the failed read
    value.catch((_reportedToCaller: unknown) => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
