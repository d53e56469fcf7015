/**
 * The numbers an import has met so far, each with the line it was first on (a repeat is rejected
 * naming that line). A Map of 300,000 number strings held 23 MiB in the import thread's heap, which is
 * capped (CONTACTS_IMPORT_HEAP_MB, 64 by default): every full collection walked it, the collections
 * grew with the file (4.2 s of a 300k-row import), and a file of ~600k rows would have run out of
 * heap. Numbers of up to 15 digits (every E.164 number) are kept as doubles in an open-addressing
 * table of typed arrays, whose memory is outside V8's heap and never walked by its collector; a longer
 * or zero-led one (not a phone number, but the import takes what the file has) goes to a small Map.
 */
export class SeenNumbers {
  private keys = new Float64Array(1 << 12);
  private lines = new Int32Array(1 << 12);
  private used = 0;
  private readonly others = new Map<string, number>();

  /** The line a number was first seen on, or undefined. */
  get(number: string): number | undefined {
    const key = SeenNumbers.key(number);
    if (key === null) return this.others.get(number);
    const slot = this.find(this.keys, key);
    return this.keys[slot] === key ? this.lines[slot] : undefined;
  }

  /** Records a number not seen yet. */
  add(number: string, line: number): void {
    const key = SeenNumbers.key(number);
    if (key === null) {
      this.others.set(number, line);
      return;
    }
    // at most half full: the probes stay short
    if ((this.used + 1) * 2 > this.keys.length) this.grow();
    const slot = this.find(this.keys, key);
    if (this.keys[slot] === key) return;
    this.keys[slot] = key;
    this.lines[slot] = line;
    this.used++;
  }

  /** A number that is its digits' exact double (0 marks an empty slot, so a key is never 0). */
  private static key(number: string): number | null {
    if (number.length === 0 || number.length > 15 || number.charCodeAt(0) === 0x30) return null;
    for (let i = 0; i < number.length; i++) {
      const c = number.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return null;
    }
    return Number(number);
  }

  /** The key's slot, or the empty slot where it goes (linear probing from its two 32-bit halves, mixed as MurmurHash3's finalizer does). */
  private find(keys: Float64Array, key: number): number {
    const mask = keys.length - 1;
    let h = (key % 4294967296) ^ Math.imul(Math.floor(key / 4294967296), 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    let slot = (h ^ (h >>> 16)) & mask;
    while (keys[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldLines = this.lines;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.lines = new Int32Array(oldKeys.length * 2);
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i]!;
      if (key === 0) continue;
      const slot = this.find(this.keys, key);
      this.keys[slot] = key;
      this.lines[slot] = oldLines[i]!;
    }
  }
}
