/**
 * The rows of one INSERT kept as JSON text in a reused buffer outside V8's heap, instead of thousands
 * of small strings in arrays. A batch is filled over several young-generation collections, so its
 * strings used to be promoted to the old generation and die there, where only a major collection
 * frees them: the RSS of a 1M-row analysis grew with that garbage (357 MiB), not with live data.
 */
export class JsonRowBuffer {
  private buf = Buffer.allocUnsafe(1 << 20);
  private length = 0;
  count = 0;

  /** The text's size so far, in bytes. */
  get bytes(): number {
    return this.length;
  }

  /** Appends one row (a JSON array of its values). */
  push(row: unknown[]): void {
    const text = JSON.stringify(row);
    // the separator (or the opening bracket) and the closing bracket of take()
    const need = this.length + Buffer.byteLength(text) + 2;
    if (need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(bigger, 0, 0, this.length);
      this.buf = bigger;
    }
    this.buf[this.length++] = this.count ? 0x2c : 0x5b; // ',' or '['
    this.length += this.buf.write(text, this.length);
    this.count += 1;
  }

  /** The rows as one JSON array text; the buffer is empty again for the next batch. */
  take(): string {
    if (this.count === 0) return "[]";
    this.buf[this.length++] = 0x5d; // ']'
    const text = this.buf.toString("utf8", 0, this.length);
    this.length = 0;
    this.count = 0;
    return text;
  }
}
