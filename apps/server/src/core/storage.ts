import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

/**
 * Where uploaded and received media live. Keys are opaque, company-scoped and unguessable
 * (`{companyId}/{yyyy-mm}/{random}.{ext}`); files are never served from a public folder, only
 * through routes that check the requesting user's company owns the record pointing at the key.
 */
export interface MediaStorage {
  put(companyId: number, data: Buffer, opts: { fileName?: string; mimetype?: string }): Promise<string>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

const SAFE_EXT = /^[a-z0-9]{1,8}$/;

export function extensionOf(fileName: string | undefined, mimetype: string | undefined): string {
  const fromName = fileName ? path.extname(fileName).slice(1).toLowerCase() : "";
  if (SAFE_EXT.test(fromName)) return fromName;
  const sub = (mimetype ?? "").split("/")[1]?.split(";")[0]?.toLowerCase() ?? "";
  const mapped: Record<string, string> = { mpeg: "mp3", "svg+xml": "svg", plain: "txt", jpeg: "jpg", "octet-stream": "bin" };
  const ext = mapped[sub] ?? sub;
  return SAFE_EXT.test(ext) ? ext : "bin";
}

/** Local disk under `root` (config.dataDir/media by default). */
export class LocalDiskStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string | null {
    if (!/^\d+\/\d{4}-\d{2}\/[a-zA-Z0-9_-]+\.[a-z0-9]{1,8}$/.test(key)) return null;
    return path.join(this.root, key);
  }

  async put(companyId: number, data: Buffer, opts: { fileName?: string; mimetype?: string }): Promise<string> {
    const month = new Date().toISOString().slice(0, 7);
    const key = `${companyId}/${month}/${randomBytes(16).toString("base64url")}.${extensionOf(opts.fileName, opts.mimetype)}`;
    const file = path.join(this.root, key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data, { mode: 0o640 });
    return key;
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.resolve(key);
    if (!file) return null;
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch (err) {
      // A stored file that is gone answers 'not found'; anything else is worth an operator's look.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    const file = this.resolve(key);
    if (file) await rm(file, { force: true });
  }
}

const instances = new Map<string, MediaStorage>();
/** The storage for a data directory (one instance per directory). */
export function mediaStorage(dataDir: string): MediaStorage {
  let s = instances.get(dataDir);
  if (!s) {
    s = new LocalDiskStorage(path.join(dataDir, "media"));
    instances.set(dataDir, s);
  }
  return s;
}

/** The key's company, so a route can refuse a key of another company before opening it. */
export function keyCompany(key: string): number | null {
  const id = Number(key.split("/")[0]);
  return Number.isInteger(id) && id > 0 ? id : null;
}
